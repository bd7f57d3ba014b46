import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import { DomainEvents, type DomainEventMap } from '../../core/events/domain-events';
import { InFlight } from '../../core/events/in-flight';
import { LOGGER } from '../../core/logging/logger';
import { GuardianMessages } from '../messages/guardian-messages.service';
import { SmsTexts } from '../sms/texts.service';
import { AlertsRepository } from './alerts.repository';
import { ALERT_WHAT } from './alerts.service';

/**
 * The alerts other modules' domain events raise (EVENT_ALERT_KINDS), after their commit:
 * - 'pickup.unauthorised' (the pick-up module logged an unauthorised attempt): the boards' alert pickup_unauthorised for
 *   its children (once per student and day) and, for every such attempt, a text to each child's head teacher (SMS) and
 *   guardians (WeChat, else SMS), keyed by the attempt so a repeated delivery tells nobody twice.
 */
@Injectable()
export class AlertsListener implements OnModuleInit, OnModuleDestroy {
  private offs: Array<() => void> = [];
  private readonly work = new InFlight((err) => this.log.error({ err }, 'alert after a domain event failed'));

  constructor(
    private readonly repo: AlertsRepository,
    private readonly events: DomainEvents,
    private readonly texts: SmsTexts,
    private readonly messages: GuardianMessages,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  onModuleInit(): void {
    this.offs.push(this.events.on('pickup.unauthorised', (e) => this.work.track(this.pickupUnauthorised(e))));
  }

  async onModuleDestroy(): Promise<void> {
    for (const off of this.offs) off();
    await this.settled();
  }

  /** Resolves once everything received so far is raised and told (tests, shutdown). */
  settled(): Promise<void> {
    return this.work.settled();
  }

  /** The boards' alert of an unauthorised pick-up attempt, and its texts. */
  async pickupUnauthorised(e: DomainEventMap['pickup.unauthorised']): Promise<void> {
    await this.repo.raiseEvent(e.school_id, e.student_ids, 'pickup_unauthorised');
    const rows = await this.repo.eventRecipients(e.school_id, e.student_ids);
    const what = ALERT_WHAT.pickup_unauthorised;
    const params = (r: (typeof rows)[number]) => ({ school: r.school, student: r.student, class: r.class_name, what });
    await this.texts.queue(
      rows
        .filter((r) => r.head_mobile)
        .map((r) => ({
          school_id: e.school_id,
          mobile: r.head_mobile!,
          kind: 'alert.raised' as const,
          params: params(r),
          key: `pickup:${e.attempt_id}:${r.student_id}:head`,
        })),
    );
    await this.messages.send(
      rows.flatMap((r) =>
        r.guardians.map((user_id) => ({
          school_id: e.school_id,
          user_id,
          kind: 'alert.raised' as const,
          params: params(r),
          link: `/parent?student=${r.student_id}`,
          key: `pickup:${e.attempt_id}:${r.student_id}:${user_id}`,
        })),
      ),
    );
  }
}
