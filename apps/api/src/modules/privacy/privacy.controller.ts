import { Controller, Req } from '@nestjs/common';
import {
  AcceptPoliciesInput,
  CallGuardianInput,
  ChildAccessLogQuery,
  PrivacyPoliciesQuery,
  PrivacyPolicyHistoryQuery,
  PublishPrivacyPolicyInput,
  SetConsentInput,
} from '@wantuo/shared';
import { Caller, CurrentUser, SchoolUser, type CallerInfo, type SchoolCaller } from '../../core/auth/current-user.decorator';
import { Action } from '../../core/http/action.decorator';
import { Input } from '../../core/http/input.decorator';
import { langOf, type AppRequest, type SessionUser } from '../../core/http/request-context';
import { ChildAccessLog } from './access-log.service';
import { CallGuardianService } from './call.service';
import { ConsentsService } from './consents.service';
import { PoliciesService } from './policies.service';

@Controller('api/index')
export class PrivacyController {
  constructor(
    private readonly policies: PoliciesService,
    private readonly consents: ConsentsService,
    private readonly log: ChildAccessLog,
    private readonly calls: CallGuardianService,
  ) {}

  @Action('GET', 'privacyPolicies')
  current(@Input() q: PrivacyPoliciesQuery, @Req() req: AppRequest) {
    return this.policies.current(req.user, q.school_id, langOf(req));
  }

  @Action('GET', 'privacyPolicyHistory')
  history(@Input() q: PrivacyPolicyHistoryQuery) {
    return this.policies.history(q);
  }

  @Action('POST', 'publishPrivacyPolicy')
  publish(@Input() input: PublishPrivacyPolicyInput, @CurrentUser() user: SessionUser) {
    return this.policies.publish(user, input);
  }

  @Action('GET', 'myConsents')
  mine(@Input() _: unknown, @SchoolUser() user: SchoolCaller) {
    return this.consents.mine(user);
  }

  @Action('POST', 'acceptPolicies')
  accept(@Input() input: AcceptPoliciesInput, @SchoolUser() user: SchoolCaller, @Caller() caller: CallerInfo) {
    return this.consents.accept(user, input, caller);
  }

  @Action('POST', 'setConsent')
  set(@Input() input: SetConsentInput, @SchoolUser() user: SchoolCaller, @Caller() caller: CallerInfo) {
    return this.consents.set(user, input, caller);
  }

  @Action('GET', 'childAccessLog')
  accessLog(@Input() q: ChildAccessLogQuery, @SchoolUser() user: SchoolCaller) {
    return this.log.list(user, q);
  }

  @Action('POST', 'callGuardian')
  call(@Input() input: CallGuardianInput, @SchoolUser() user: SchoolCaller) {
    return this.calls.call(user, input);
  }
}
