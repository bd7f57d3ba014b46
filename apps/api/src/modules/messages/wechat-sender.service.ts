import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { SMS_CLAIM_SECONDS, wechatFailure } from '@wantuo/shared';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { JobsService } from '../../core/jobs/jobs.service';
import { LOGGER } from '../../core/logging/logger';
import { SmsTexts, type Text } from '../sms/texts.service';
import { WechatApiError, WechatOa } from '../wechat/oa-client';
import { WECHAT_BATCH } from './guardian-messages.service';
import { MessagesRepository, type WechatOutcome } from './messages.repository';

/** Transient refusals one message gets before the SMS goes instead (the guardian must hear it). */
export const WECHAT_TRIES = 4;
/** A queued message untouched this long lost its job (a worker died, a dispatch never came): `wechat.poll` sends it. */
export const WECHAT_STUCK_SECONDS = 120;
/** Messages whose job is made up per poll. */
const POLL_BATCH = 500;

/** A claimed message with its guardian's mobile. */
type Claimed = Awaited<ReturnType<MessagesRepository['claim']>>[number];

interface Outcome extends WechatOutcome {
  /** hand to SMS */
  fallback: boolean;
}

/** Thrown after recording when some messages wait for another try: the `wechat.send` job retries with backoff. */
export class WechatRetryLater extends Error {}

/**
 * Sends WeChat template messages (the `wechat.send` job) and records each result: a message is claimed (queued →
 * sending) so two jobs never both send it; sent with WeChat's msgid; a refusal that means WeChat cannot reach the
 * guardian (43101 not subscribed, 40003 bad openid, …) fails it and stages the SMS instead (key `wx-<id>`, linked in
 * sms_message_id); a transient one (busy, an expired token) puts it back for the job's retry, and after WECHAT_TRIES
 * the SMS goes instead too.
 */
@Injectable()
export class WechatSender {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repo: MessagesRepository,
    private readonly oa: WechatOa,
    private readonly texts: SmsTexts,
    private readonly jobs: JobsService,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  /** The `wechat.send` job: sends the rows of `ids` that are due and still to send. */
  async send(ids: number[]): Promise<void> {
    const claimed = await this.repo.claim(ids, SMS_CLAIM_SECONDS);
    if (!claimed.length) return;
    const outcomes = await Promise.all(claimed.map((m) => this.attempt(m)));
    const byId = new Map(claimed.map((m) => [m.id, m]));
    const staged = await this.db.transaction(async (em) => {
      const fallbacks = outcomes.filter((o) => o.fallback && byId.get(o.id)!.mobile);
      const texts: Text[] = fallbacks.map((o) => {
        const m = byId.get(o.id)!;
        return { school_id: m.school_id, mobile: m.mobile!, kind: m.kind, params: m.params, key: `wx-${m.id}` };
      });
      const staged = await this.texts.stage(em, texts);
      // linked by the texts' keys (stage answers only those still queued, so a text written before is found by its key)
      await this.repo.record(em, outcomes);
      return staged;
    });
    await this.texts.dispatch(staged);
    const retry = outcomes.filter((o) => o.state === 'queued').length;
    if (retry) throw new WechatRetryLater(`${retry} of ${claimed.length} WeChat messages wait for another try`);
  }

  private async attempt(m: Claimed): Promise<Outcome> {
    try {
      const { msgid } = await this.oa.sendTemplate({ openid: m.openid, templateId: m.template_id, url: m.url ?? undefined, data: m.data });
      return { id: m.id, state: 'sent', msgid: String(msgid).slice(0, 32), errcode: null, errmsg: null, fallback: false };
    } catch (err) {
      const errcode = err instanceof WechatApiError ? err.errcode : -1;
      const errmsg = String(err instanceof WechatApiError ? err.errmsg : ((err as Error).message ?? err)).slice(0, 300);
      const next = wechatFailure(errcode);
      this.log.warn({ id: m.id, kind: m.kind, errcode, next, tries: m.tries }, 'wechat template message refused');
      if (next === 'retry' && m.tries < WECHAT_TRIES) return { id: m.id, state: 'queued', msgid: null, errcode, errmsg, fallback: false };
      return { id: m.id, state: 'failed', msgid: null, errcode, errmsg, fallback: true };
    }
  }

  /** `wechat.poll`: due messages whose job was lost (or never dispatched) get one again. */
  async poll(): Promise<number> {
    const stuck = await this.repo.stuck(WECHAT_STUCK_SECONDS, POLL_BATCH);
    const jobs = [];
    for (let i = 0; i < stuck.length; i += WECHAT_BATCH) jobs.push({ ids: stuck.slice(i, i + WECHAT_BATCH).map((s) => s.id) });
    await this.jobs.enqueueMany('wechat.send', jobs);
    return stuck.length;
  }
}
