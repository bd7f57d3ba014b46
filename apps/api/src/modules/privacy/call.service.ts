import { Injectable } from '@nestjs/common';
import type { CallGuardianAnswer, CallGuardianInput } from '@wantuo/shared';
import type { SessionUser } from '../../core/http/request-context';

/** Staff about to call a guardian or pick-up person: the whole mobile, logged (helper: issue 37 least access). */
@Injectable()
export class CallGuardianService {
  call(_user: SessionUser, _input: CallGuardianInput): Promise<CallGuardianAnswer> {
    throw new Error('not built yet');
  }
}
