import { Injectable } from '@nestjs/common';
import type { ConversationLiveMessage, FlowEventMessage, MealCountMessage } from '@wantuo/shared';
import { EventEmitter } from 'node:events';

/**
 * Domain events, emitted by services after their transaction commits. Services never touch sockets or queues:
 * one listener turns these into socket messages (the flow gateway), another into jobs (alerts).
 */
export interface DomainEventMap {
  /** a flow event was appended and committed */
  'flow.committed': FlowEventMessage & { school_id: number };
  /** a payment was marked paid and settled (money core) */
  'payment.paid': { school_id: number; out_trade_no: string; kind: string; ref_id: string | null; amount_fen: number };
  /** a provider refund succeeded (the provider's answer, notify or status query recorded it), after its commit (receipts) */
  'payment.refunded': { school_id: number; out_refund_no: string; kind: string };
  /** a contract was signed, paid at the desk, edited, renewed or cancelled (contracts) */
  'contract.changed': { school_id: number; contract_id: number; student_id: number };
  /**
   * a leave request's approval took effect or an approved request was cancelled (leave), after its commit; listeners
   * read the request's current status (approved or not), so the order they see these in does not matter
   */
  'leave.changed': { school_id: number; leave_id: number; student_id: number; start_day: string; end_day: string; approved: boolean };
  /**
   * dinner bookings on days the school calendar closed were cancelled in the closing transaction (teaching's
   * importHolidays), after its commit: meals refunds the WeChat-paid ones in full and recounts the days
   */
  'meals.closed_day_cancelled': {
    school_id: number;
    actor_id: number;
    bookings: Array<{
      id: number;
      day: string;
      student_id: number;
      was: string;
      pay_from: string | null;
      out_trade_no: string | null;
      price_fen: number;
      version: number;
    }>;
  };
  /** a day's meal counts of a school changed (meals): the live channel pushes them to the school's staff */
  'meals.count': MealCountMessage & { school_id: number };
  /**
   * a family conversation's message was sent or retracted (conversations), after its commit: the live channel pushes it
   * to these users' sockets (the child's guardians, the staff to be told now, the sender)
   */
  'conversation.message': ConversationLiveMessage & { school_id: number; user_ids: number[] };
  /**
   * an unauthorised pick-up attempt (a genuine code of a revoked person, or for a child it does not name) was logged
   * (pickup; `attempt_id` its pickup_attempts row), after its commit: alerts raises the boards' alert pickup_unauthorised
   * (once per student and day) and tells this attempt to the head teachers (SMS) and the children's guardians
   */
  'pickup.unauthorised': { school_id: number; attempt_id: number; student_ids: number[] };
}

@Injectable()
export class DomainEvents {
  private readonly emitter = new EventEmitter().setMaxListeners(50);

  emit<K extends keyof DomainEventMap>(name: K, payload: DomainEventMap[K]): void {
    this.emitter.emit(name, payload);
  }

  on<K extends keyof DomainEventMap>(name: K, listener: (payload: DomainEventMap[K]) => void): () => void {
    this.emitter.on(name, listener);
    return () => this.emitter.off(name, listener);
  }
}
