import { Inject, Injectable } from '@nestjs/common';
import { XMLParser } from 'fast-xml-parser';
import type { Logger } from 'pino';
import { LOGGER } from '../../core/logging/logger';
import { WechatOa } from './oa-client';
import { WechatRepository } from './wechat.repository';

/** The query WeChat signs a server message with (and the echostr of the URL check). */
export interface ServerQuery {
  signature?: unknown;
  timestamp?: unknown;
  nonce?: unknown;
  echostr?: unknown;
}

/** A plaintext server message's fields (明文模式), as strings. */
type ServerMessage = Record<string, string | undefined>;

/** How long a TEMPLATESENDJOBFINISH waits for its message's msgid to be written (it may come before the sender's write) */
export const SERVER_MATCH_WAIT_MS = 4_000;

const parser = new XMLParser({ parseTagValue: false, processEntities: false, ignoreDeclaration: true, ignoreAttributes: true });
const str = (v: unknown) => (typeof v === 'string' ? v : '');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The official account's server messages (服务器配置, plaintext mode): WeChat checks the URL with a signed GET that
 * must answer its echostr, and posts events signed the same way (sha1 of the sorted Token, timestamp, nonce). A
 * template message's result (TEMPLATESENDJOBFINISH) ends its wechat_messages row delivered or failed; follows and
 * unfollows are kept in wechat_followers. A forged signature changes nothing.
 */
@Injectable()
export class WechatServerService {
  constructor(
    private readonly repo: WechatRepository,
    private readonly oa: WechatOa,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  private signed(q: ServerQuery): boolean {
    return this.oa.verifySignature(str(q.signature), str(q.timestamp), str(q.nonce));
  }

  /** The URL check: the echostr when signed by the Token, else null (refused). */
  echo(q: ServerQuery): string | null {
    return this.signed(q) && typeof q.echostr === 'string' ? q.echostr : null;
  }

  /** A server message: false when its signature is not the Token's (nothing read, nothing written). */
  async receive(q: ServerQuery, raw: Buffer): Promise<boolean> {
    if (!this.signed(q)) {
      this.log.warn({ bytes: raw.length }, 'wechat server message refused: bad signature');
      return false;
    }
    let m: ServerMessage;
    try {
      const doc = parser.parse(raw.toString('utf8')) as { xml?: Record<string, unknown> };
      m = Object.fromEntries(Object.entries(doc.xml ?? {}).map(([k, v]) => [k, typeof v === 'string' ? v : undefined]));
    } catch (err) {
      this.log.warn({ err, bytes: raw.length }, 'wechat server message not XML');
      return true;
    }
    if (m.MsgType !== 'event') return true;
    const event = m.Event?.toLowerCase();
    if (event === 'templatesendjobfinish') await this.templateFinished(m);
    else if (event === 'subscribe' || event === 'unsubscribe') await this.followed(m, event === 'subscribe');
    return true;
  }

  /** Status 'success' → delivered; 'failed:user block' / 'failed: system failed' → failed with the status as errmsg. */
  private async templateFinished(m: ServerMessage): Promise<void> {
    const msgid = m.MsgID ?? m.MsgId;
    const status = (m.Status ?? '').trim();
    if (!msgid || !/^\d{1,32}$/.test(msgid) || !status) return;
    const delivered = status === 'success';
    const deadline = Date.now() + SERVER_MATCH_WAIT_MS;
    for (;;) {
      const r = await this.repo.templateFinished(this.oa.appid, msgid, delivered ? 'delivered' : 'failed', delivered ? null : status.slice(0, 300));
      if (r.found) {
        this.log.info({ msgid, status, updated: r.updated }, 'wechat template message finished');
        return;
      }
      if (Date.now() > deadline) {
        this.log.warn({ msgid, status }, 'wechat template message result for an unknown msgid');
        return;
      }
      await sleep(100);
    }
  }

  private async followed(m: ServerMessage, subscribed: boolean): Promise<void> {
    const openid = m.FromUserName;
    if (!openid || openid.length > 64) return;
    const at = /^\d{1,12}$/.test(m.CreateTime ?? '') ? Number(m.CreateTime) : Math.floor(Date.now() / 1000);
    await this.repo.followed(this.oa.appid, openid, subscribed, at);
  }
}
