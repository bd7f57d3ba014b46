import { Controller } from '@nestjs/common';
import { PickupCodeByLinkQuery, PickupRevokeInput, PickupShareLinkInput, ReportPickupAttemptInput } from '@wantuo/shared';
import { CurrentUser } from '../../core/auth/current-user.decorator';
import { Action } from '../../core/http/action.decorator';
import { Input } from '../../core/http/input.decorator';
import type { SessionUser } from '../../core/http/request-context';
import { PickupService } from './pickup.service';

/** Verified pick-up codes (接送码, issue 27). The departure with a code is studentLiyuan (flow controller). */
@Controller('api/index')
export class PickupController {
  constructor(private readonly pickup: PickupService) {}

  @Action('GET', 'pickupCode')
  code(@Input() _: unknown, @CurrentUser() user: SessionUser) {
    return this.pickup.code(user);
  }

  @Action('GET', 'pickupShareLinks')
  links(@Input() _: unknown, @CurrentUser() user: SessionUser) {
    return this.pickup.shareLinks(user);
  }

  @Action('POST', 'pickupShareLink')
  share(@Input() input: PickupShareLinkInput, @CurrentUser() user: SessionUser) {
    return this.pickup.shareLink(user, input);
  }

  @Action('POST', 'pickupRevoke')
  revoke(@Input() input: PickupRevokeInput, @CurrentUser() user: SessionUser) {
    return this.pickup.revoke(user, input);
  }

  @Action('GET', 'pickupCodeByLink')
  byLink(@Input() q: PickupCodeByLinkQuery) {
    return this.pickup.codeByLink(q);
  }

  @Action('POST', 'reportPickupAttempt')
  report(@Input() input: ReportPickupAttemptInput, @CurrentUser() user: SessionUser) {
    return this.pickup.reportAttempt(user, input);
  }

  @Action('GET', 'pickupVerifyKey')
  key(@Input() _: unknown, @CurrentUser() user: SessionUser) {
    return this.pickup.verifyKey(user);
  }
}
