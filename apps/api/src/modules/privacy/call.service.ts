import { Injectable } from '@nestjs/common';
import { Role, type CallGuardianAnswer, type CallGuardianInput } from '@wantuo/shared';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { AppError } from '../../core/http/app-error';
import { ChildAccessLog } from './access-log.service';
import { PrivacyRepository } from './privacy.repository';

/**
 * Staff about to call a guardian or a pick-up person of a child (issue 37 least access): the whole mobile, whoever
 * the caller's answers mask it for, recorded in the access log as a call. The caller must be allowed to see the child
 * (the admin: the school's; a teacher or head teacher: the children they are responsible for, as their lists give
 * them); the person must be one of the child's guardians or its authorised (not removed) pick-up people.
 */
@Injectable()
export class CallGuardianService {
  constructor(
    private readonly repo: PrivacyRepository,
    private readonly log: ChildAccessLog,
  ) {}

  async call(user: SchoolCaller, input: CallGuardianInput): Promise<CallGuardianAnswer> {
    const guardian = input.user_id !== undefined;
    const row = await this.repo.contact(
      user.schoolId,
      input.student_id,
      guardian ? { userId: input.user_id! } : { pickupId: input.pickup_person_id! },
      user.role === Role.Admin ? undefined : user.id,
    );
    if (!row) throw new AppError('privacy.not_found');
    if (!row.mobile) throw new AppError('privacy.call_not_found');
    await this.log.record(user, [input.student_id], ['call', guardian ? 'guardians' : 'pickup']);
    return { mobile: row.mobile, name: row.name ?? '' };
  }
}
