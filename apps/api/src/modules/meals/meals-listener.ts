import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { LeaveStatus } from '@wantuo/shared';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DomainEventMap } from '../../core/events/domain-events';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { DomainEvents } from '../../core/events/domain-events';
import { LOGGER } from '../../core/logging/logger';
import { MealCounts } from './counts.service';
import { MealPayments } from './meal-payments';
import { MealEventsRepository } from './meals-events.repository';
import { InFlight } from '../../core/events/in-flight';

/** The flow events that can change whether a student had dinner on a day (student_days.dinner_at). */
const DINNER_TYPES = new Set(['student.dinner_confirmed', 'event.voided']);

/**
 * What other modules' domain events do to dinner bookings:
 * - 'leave.changed': an approved leave cancels the booked or unpaid (not served) dinners of its days from the school's
 *   today on (cancel_cause 'leave' with the leave's id; a WeChat-paid one is refunded in full after the commit); a
 *   leave no longer approved (cancelled) restores exactly those as they were (a refunded one unpaid again). The
 *   leave's current status is read, so repeated or reordered events converge.
 * - 'flow.committed' (dinner confirmed, or a step voided): the booking's served time follows the student's day
 *   (student_days.dinner_at); a dinner without a booking is kept as a 'none' row (counted as unbooked served), removed
 *   again when the dinner is voided. The events of one command are gathered and applied together, set-based.
 * - 'meals.closed_day_cancelled' (the school calendar closed days: teaching's importHolidays cancelled their bookings in
 *   its transaction): the days are recounted and the WeChat-paid ones refunded in full (keyed by booking and version).
 */
@Injectable()
export class MealsListener implements OnModuleInit, OnModuleDestroy {
  private offs: Array<() => void> = [];
  private pendingDays = new Map<string, { student_id: number; day: string }>();
  private running: Promise<void> | null = null;
  private readonly work = new InFlight((err) => this.log.error({ err }, 'meals after a domain event failed'));

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repo: MealEventsRepository,
    private readonly events: DomainEvents,
    private readonly counts: MealCounts,
    private readonly payments: MealPayments,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  onModuleInit(): void {
    this.offs.push(
      this.events.on('leave.changed', (e) => this.track(this.syncLeave(e))),
      this.events.on('meals.closed_day_cancelled', (e) => this.track(this.afterClosedDays(e))),
      this.events.on('flow.committed', (e) => {
        if (!DINNER_TYPES.has(e.type)) return;
        this.pendingDays.set(`${e.student_id}:${e.day}`, { student_id: e.student_id, day: e.day });
        this.running ??= this.drain();
      }),
    );
  }

  async onModuleDestroy(): Promise<void> {
    for (const off of this.offs) off();
    await this.settled();
  }

  private track(p: Promise<void>): void {
    this.work.track(p);
  }

  /** Resolves once everything received so far is applied (tests). */
  async settled(): Promise<void> {
    while (this.running || this.work.size) {
      if (this.running) await this.running;
      await this.work.settled();
    }
    await this.counts.settled();
  }

  /** Cancels (approved) or restores (no longer approved) the leave's days' bookings from today on, in one transaction per leave. */
  async syncLeave(e: DomainEventMap['leave.changed']): Promise<void> {
    const touched: Array<{
      id: number;
      day: string;
      status_before?: string;
      pay_from?: string | null;
      out_trade_no?: string | null;
      price_fen?: number;
    }> = await this.db.transaction(async (em) => {
      await this.repo.lockLeave(em, e.leave_id);
      const l = await this.repo.leave(em, e.school_id, e.leave_id);
      if (!l) return [];
      if (l.status === LeaveStatus.Approved) {
        // booked and unpaid alike; the status before is kept with the history, so the leave's cancellation restores it
        return this.repo.cancelForLeave(em, e.leave_id, l.student_id, l.start_day, l.end_day, l.today);
      }
      // restored as it was; a WeChat-paid dinner was refunded when the leave cancelled it, so it waits for payment again
      return this.repo.restoreAfterLeave(em, e.leave_id, l.today);
    });
    for (const day of new Set(touched.map((t) => t.day))) this.counts.changed(e.school_id, day, [e.student_id]);
    // the WeChat-paid dinners a leave cancelled go back to the payer in full, once per booking and leave
    for (const b of touched) {
      if (b.status_before !== 'booked' || b.pay_from !== 'wechat' || !b.out_trade_no) continue;
      try {
        await this.payments.refundForLeave({
          schoolId: e.school_id,
          outTradeNo: b.out_trade_no,
          amountFen: b.price_fen!,
          bookingId: b.id,
          leaveId: e.leave_id,
        });
      } catch (err) {
        this.log.error({ err, booking: b.id }, 'refunding a dinner cancelled by a leave failed');
      }
    }
  }

  /** After bookings on closed days were cancelled (importHolidays): the days recounted, the WeChat-paid ones refunded in full. */
  async afterClosedDays(e: DomainEventMap['meals.closed_day_cancelled']): Promise<void> {
    const byDay = new Map<string, number[]>();
    for (const b of e.bookings) byDay.set(b.day, [...(byDay.get(b.day) ?? []), b.student_id]);
    for (const [day, students] of byDay) this.counts.changed(e.school_id, day, students);
    for (const b of e.bookings) {
      if (b.was !== 'booked' || b.pay_from !== 'wechat' || !b.out_trade_no) continue;
      try {
        await this.payments.refund({
          schoolId: e.school_id,
          outTradeNo: b.out_trade_no,
          amountFen: b.price_fen,
          bookingId: b.id,
          version: b.version,
          actorId: e.actor_id,
        });
      } catch (err) {
        this.log.error({ err, booking: b.id }, 'refunding a dinner cancelled by a closed day failed');
      }
    }
  }

  private async drain(): Promise<void> {
    // let the rest of the command's events (emitted in the same synchronous loop) join this batch
    await new Promise<void>((resolve) => setImmediate(resolve));
    try {
      while (this.pendingDays.size) {
        const days = [...this.pendingDays.values()];
        this.pendingDays = new Map();
        try {
          await this.applyDinners(days);
        } catch (err) {
          this.log.error({ err, days: days.length }, 'dinners not applied to meal bookings');
        }
      }
    } finally {
      this.running = null;
    }
  }

  /** The served time of these students' days follows student_days.dinner_at; three statements in one transaction. */
  async applyDinners(days: Array<{ student_id: number; day: string }>): Promise<void> {
    const ids = days.map((d) => d.student_id);
    const dates = days.map((d) => d.day);
    const changed = await this.db.transaction(async (em) => {
      const updated = await this.repo.serve(em, ids, dates);
      const inserted = await this.repo.keepUnbooked(em, ids, dates);
      await this.repo.dropUnserved(em, ids, dates);
      return [...updated, ...inserted];
    });
    const bySchoolDay = new Map<string, { school_id: number; day: string; students: number[] }>();
    for (const c of changed) {
      const key = `${c.school_id}:${c.day}`;
      const g = bySchoolDay.get(key) ?? { school_id: c.school_id, day: c.day, students: [] };
      g.students.push(c.student_id);
      bySchoolDay.set(key, g);
    }
    for (const g of bySchoolDay.values()) this.counts.changed(g.school_id, g.day, g.students);
  }
}
