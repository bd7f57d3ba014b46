import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { reportLink, reportMessageKey, STEP_EVENT } from '@wantuo/shared';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { DomainEvents } from '../../core/events/domain-events';
import { CommitBatches } from '../../core/events/commit-batches';
import { LOGGER } from '../../core/logging/logger';
import { GuardianMessages, type GuardianMessage } from '../messages/guardian-messages.service';
import { refreshReports } from './report-projection';
import { markSent, unsent, type DayKey } from './reports.repository';

/**
 * Keeps daily_reports after the flow's commits ('flow.committed'): the events of one command (a class entered at once)
 * are gathered and their student-days refreshed together (set-based; the upsert never goes backwards), then the children who left get
 * their report sent: 'report.daily' to every guardian through GuardianMessages, linking /parent_report, keyed per
 * child, day and guardian (one report message a day; the page shows the latest state, a comment written later too).
 */
@Injectable()
export class ReportsListener implements OnModuleInit, OnModuleDestroy {
  private off: (() => void) | null = null;
  private readonly batches = new CommitBatches<DayKey & { left: boolean }>(
    async (batch) => {
      await this.apply(batch);
    },
    (err) => this.log.error({ err }, 'daily reports not refreshed after flow events'),
  );

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly events: DomainEvents,
    private readonly messages: GuardianMessages,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  onModuleInit(): void {
    this.off = this.events.on('flow.committed', (e) => {
      this.batches.push({ student_id: e.student_id, day: e.day, left: e.type === STEP_EVENT.left });
    });
  }

  async onModuleDestroy(): Promise<void> {
    this.off?.();
    await this.settled();
  }

  /** Resolves once everything received so far is projected and sent (tests). */
  async settled(): Promise<void> {
    await this.batches.settled();
  }

  /** Refreshes the student-days of a batch, then sends the reports of those who left (not sent before). */
  async apply(batch: ReadonlyArray<DayKey & { left?: boolean }>): Promise<void> {
    // no transaction: the upsert never goes backwards (last_position), so concurrent refreshes of a day (two API
    // processes) end in the newest; a transaction here also stalled the embedded database's shared session (PGlite)
    await refreshReports(this.db, batch);
    const left = batch.filter((k) => k.left);
    if (left.length) await this.send(left);
  }

  /** The report messages of these student-days whose child has left and whose report has not gone out; answers how many went. */
  async send(keys: readonly DayKey[]): Promise<number> {
    const rows = await unsent(this.db, keys);
    if (!rows.length) return 0;
    const items: GuardianMessage[] = rows.flatMap((r) =>
      r.guardians.map((user_id) => ({
        school_id: r.school_id,
        user_id,
        kind: 'report.daily' as const,
        params: { school: r.school, student: r.student, day: r.day },
        link: reportLink(r.student_id, r.day),
        key: reportMessageKey(r.student_id, r.day, user_id),
      })),
    );
    await this.messages.send(items);
    await markSent(this.db, rows);
    return rows.length;
  }
}
