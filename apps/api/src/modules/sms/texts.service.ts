import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { SmsKind, SmsProviderName } from '@wantuo/shared';
import { DataSource, type EntityManager } from 'typeorm';
import { JobsService } from '../../core/jobs/jobs.service';
import { SmsGateways } from './gateways/gateways';
import { renderSms } from './render';
import { writeTexts, type TextDraft } from './sms.repository';

/** A text to send: to whom, of which kind with which variables, billed to which school (null: the platform). */
export interface Text {
  school_id: number | null;
  mobile: string;
  kind: SmsKind;
  params: Record<string, string>;
  /** idempotency: a text with a key already queued is not queued again (a retried job, a job run twice) */
  key?: string;
}

/** Texts written and still to send (handed to dispatch()), with how many of them were new. */
export type Staged = Queued[] & { fresh: number };

/** A text written and still queued: what dispatch() needs of it. */
export type Queued = Pick<Awaited<ReturnType<typeof writeTexts>>[number], 'id' | 'kind' | 'params' | 'provider'>;

/**
 * The one way a text is sent: every caller (sign-in codes, alerts, leave answers, notices, contracts, exams, the
 * platform's reminders) hands its texts to queue(). One insert writes them all as sms_messages rows (queued, the
 * school's local day, the full rendered text), then `sms.send` jobs carry them in the provider's batches: the texts of
 * one kind with the same variables together (a notice to a school: 100 per Aliyun request, 200 per Tencent one).
 */
@Injectable()
export class SmsTexts {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly jobs: JobsService,
    private readonly gateways: SmsGateways,
  ) {}

  /** Queues texts now; answers how many were new (a key seen before is not queued twice). */
  async queue(texts: readonly Text[]): Promise<number> {
    const staged = await this.stage(this.db, texts);
    await this.dispatch(staged);
    return staged.fresh;
  }

  /**
   * Writes texts inside the caller's transaction (committed with what they announce, or not at all); the caller hands
   * the answer to dispatch() after the commit. A dispatch that never comes (a crash) is made up by `sms.poll`.
   */
  async stage(em: Pick<EntityManager, 'query'>, texts: readonly Text[]): Promise<Staged> {
    return stageTexts(em, texts, this.gateways.primary);
  }

  /** `sms.send` jobs for queued messages, in batches of one kind, the same variables and provider, at most its batch size. */
  async dispatch(messages: readonly Queued[]): Promise<void> {
    const groups = new Map<string, { provider: SmsProviderName; ids: number[] }>();
    for (const m of messages) {
      const k = `${m.provider}\u0000${m.kind}\u0000${JSON.stringify(m.params)}`;
      const g = groups.get(k);
      if (g) g.ids.push(m.id);
      else groups.set(k, { provider: m.provider, ids: [m.id] });
    }
    const jobs: Array<{ ids: number[] }> = [];
    for (const { provider, ids } of groups.values()) {
      const size = this.gateways.get(provider)?.batchSize ?? 1;
      for (let i = 0; i < ids.length; i += size) jobs.push({ ids: ids.slice(i, i + size) });
    }
    await this.jobs.enqueueMany('sms.send', jobs);
  }
}

/**
 * The texts' rows in one insert on `em` (a transaction's or the pool's), new ones queued for `provider`; answers the
 * rows still queued (new, or written before by the same keys) with how many were new. SmsTexts.stage and the
 * contracts bench use it.
 */
export async function stageTexts(em: Pick<EntityManager, 'query'>, texts: readonly Text[], provider: SmsProviderName): Promise<Staged> {
  if (!texts.length) return Object.assign([], { fresh: 0 });
  const seen = new Set<string>();
  const rows: TextDraft[] = [];
  for (const t of texts) {
    if (t.key) {
      if (seen.has(t.key)) continue;
      seen.add(t.key);
    }
    rows.push({
      school_id: t.school_id,
      mobile: t.mobile,
      kind: t.kind,
      params: t.params,
      content: renderSms(t.kind, t.params),
      dedupe_key: t.key ?? null,
    });
  }
  // `do update` (a no-op) rather than `do nothing`: a retried fan-out gets back the rows it wrote before, and sends
  // those still queued (sms.send claims each row once, so a second job for one does nothing)
  const queued = await writeTexts(em, rows, provider);
  return Object.assign(
    queued.filter((q) => q.queued),
    { fresh: queued.filter((q) => q.fresh).length },
  );
}
