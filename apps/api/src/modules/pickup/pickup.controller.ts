import { Controller } from '@nestjs/common';
import { PickupCodeByLinkQuery, PickupRevokeInput, PickupShareLinkInput, ReportPickupAttemptInput } from '@wantuo/shared';
import { SchoolUser, type SchoolCaller } from '../../core/auth/current-user.decorator';
import { Action } from '../../core/http/action.decorator';
import { Input } from '../../core/http/input.decorator';
import { PickupService } from './pickup.service';

/**
 * Verified pick-up codes (接送码, issue 27). The departure with a code is studentLiyuan (flow controller), which hands it
 * to PickupService.depart through the flow's FlowDepartures.
 */
@Controller('api/index')
export class PickupController {
  constructor(private readonly pickup: PickupService) {}

  @Action('GET', 'pickupCode')
  code(@Input() _: unknown, @SchoolUser() user: SchoolCaller) {
    return this.pickup.code(user);
  }

  @Action('GET', 'pickupShareLinks')
  links(@Input() _: unknown, @SchoolUser() user: SchoolCaller) {
    return this.pickup.shareLinks(user);
  }

  @Action('POST', 'pickupShareLink')
  share(@Input() input: PickupShareLinkInput, @SchoolUser() user: SchoolCaller) {
    return this.pickup.shareLink(user, input);
  }

  @Action('POST', 'pickupRevoke')
  revoke(@Input() input: PickupRevokeInput, @SchoolUser() user: SchoolCaller) {
    return this.pickup.revoke(user, input);
  }

  @Action('GET', 'pickupCodeByLink')
  byLink(@Input() q: PickupCodeByLinkQuery) {
    return this.pickup.codeByLink(q);
  }

  @Action('POST', 'reportPickupAttempt')
  report(@Input() input: ReportPickupAttemptInput, @SchoolUser() user: SchoolCaller) {
    return this.pickup.reportAttempt(user, input);
  }

  @Action('GET', 'pickupVerifyKey')
  key(@Input() _: unknown, @SchoolUser() user: SchoolCaller) {
    return this.pickup.verifyKey(user);
  }
}
