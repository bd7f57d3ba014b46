import { Injectable } from '@nestjs/common';
import type { FlowResults, StudentLiyuanInput } from '@wantuo/shared';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';

/** studentLiyuan with a pick-up code: the code verified, then the departure through FlowService.command. */
export type CodeDeparture = (user: SchoolCaller, input: StudentLiyuanInput & { pickup_code: string }) => Promise<FlowResults>;

/**
 * Where studentLiyuan with a pick-up code goes (issue 27). The pick-up module verifies the code and departs through
 * the flow, so it depends on the flow; it registers its departure here at start (as the paying modules register
 * their kinds with PaymentKinds), and the flow never imports it (no cycle between the modules, issue 38).
 */
@Injectable()
export class FlowDepartures {
  private withCode: CodeDeparture | null = null;

  /** The pick-up module's departure with a code (registered again, the later one stands). */
  register(depart: CodeDeparture): void {
    this.withCode = depart;
  }

  /** The departure with a pick-up code, as the pick-up module verifies it. */
  departWithCode(user: SchoolCaller, input: StudentLiyuanInput & { pickup_code: string }): Promise<FlowResults> {
    if (!this.withCode) throw new Error('FlowDepartures: no departure with a pick-up code is registered (is PickupModule loaded?)');
    return this.withCode(user, input);
  }
}
