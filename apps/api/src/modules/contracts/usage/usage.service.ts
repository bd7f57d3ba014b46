import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FlowEventType } from '@wantuo/shared';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { DomainEvents } from '../../../core/events/domain-events';
import { LOGGER } from '../../../core/logging/logger';
import { studentOfContract } from '../contracts-usage.repository';
import { rebuildUsage, recomputeUsage, type RecomputeResult } from './usage-store';
import { InFlight } from '../../../core/events/in-flight';

/** The flow events that can change whether a student entered on a day (student_days.entered_at). */
const ENTRY_TYPES: ReadonlySet<FlowEventType> = new Set<FlowEventType>(['student.entered', 'event.voided']);

/**
 * Keeps contract_usage and contracts.units_used current with the daily flow (issue 11, item 3). 'flow.committed'
 * is emitted once per appended event, right after the command's commit and all in one go; each event names its
 * student and day, so the events of one command (a teacher tapping 30 students) are gathered and recomputed together
 * on the next turn of the event loop, set-based (usage-store.ts: one transaction of at most three statements).
 * Batches run one after another; those arriving meanwhile are merged into the next. A batch that fails is logged
 * and dropped: `contracts:rebuild` repairs the projection (as it does after a crash between the flow's commit and
 * this listener).
 *
 * Domain events are in-process and only the API's FlowService emits them (the worker runs no flow commands), so
 * this module belongs to the API's AppModule only.
 */
@Injectable()
export class ContractUsageService implements OnModuleInit, OnModuleDestroy {
  private unsubscribe: (() => void) | null = null;
  /** (student, day) pairs waiting for the next batch, keyed `student:day` */
  private pending = new Map<string, { student_id: number; day: string }>();
  private running: Promise<void> | null = null;
  /** batches run so far (tests) */
  batches = 0;
  /** what the last batch did (tests) */
  last: RecomputeResult | null = null;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly events: DomainEvents,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  onModuleInit(): void {
    const offFlow = this.events.on('flow.committed', (e) => {
      if (!ENTRY_TYPES.has(e.type)) return;
      this.pending.set(`${e.student_id}:${e.day}`, { student_id: e.student_id, day: e.day });
      this.running ??= this.drain();
    });
    // a contract signed, paid, edited, renewed or cancelled takes (or gives back) the days the student already attended
    const offContract = this.events.on('contract.changed', (e) => this.afterContract(this.recomputeStudents([e.student_id])));
    const offPaid = this.events.on('payment.paid', (e) => {
      if (e.kind !== 'contract' || !e.ref_id) return;
      this.afterContract(
        studentOfContract(this.db, e.school_id, Number(e.ref_id)).then((student) =>
          student === undefined ? undefined : this.recomputeStudents([student]),
        ),
      );
    });
    this.unsubscribe = () => {
      offFlow();
      offContract();
      offPaid();
    };
  }

  /** Contract changes are tracked like the flow's batches (settled() waits for them); a failure is logged, a rebuild repairs it. */
  private afterContract(work: Promise<unknown>): void {
    this.changes.track(work);
  }
  private readonly changes = new InFlight((err) => this.log.error({ err }, 'contract usage after a contract change failed'));

  async onModuleDestroy(): Promise<void> {
    this.unsubscribe?.();
    await this.settled();
  }

  /** Resolves once every batch received so far is written. */
  async settled(): Promise<void> {
    while (this.running || this.changes.size) {
      if (this.running) await this.running;
      await this.changes.settled();
    }
  }

  /** Recomputes the usage of some students now (all their active counted contracts), e.g. after a contract changed. */
  recomputeStudents(studentIds: number[]): Promise<RecomputeResult> {
    return recomputeUsage(this.db, { students: studentIds });
  }

  /** contracts:rebuild for one school or all. */
  rebuild(schoolId?: number) {
    return rebuildUsage(this.db, { schoolId });
  }

  private async drain(): Promise<void> {
    // let the rest of the command's events (emitted in the same synchronous loop) join this batch
    await new Promise<void>((resolve) => setImmediate(resolve));
    try {
      while (this.pending.size) {
        const days = [...this.pending.values()];
        this.pending = new Map();
        try {
          this.last = await recomputeUsage(this.db, { days });
          this.batches++;
        } catch (err) {
          this.log.error({ err, days: days.length }, 'contract usage not updated; contracts:rebuild repairs it');
        }
      }
    } finally {
      this.running = null;
    }
  }
}
