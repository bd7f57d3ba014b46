import { Inject, Injectable } from '@nestjs/common';
import type { WechatJsConfigAnswer, WechatJsConfigInput } from '@wantuo/shared';
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { APP_CONFIG, type AppConfig } from '../../core/config/config';
import { AppError } from '../../core/http/app-error';
import { LOGGER } from '../../core/logging/logger';
import { jsapiSignature, WechatOa } from './oa-client';

const NONCE_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A random nonceStr of 16 letters and digits (WeChat allows up to 32). */
export function jsNonce(): string {
  return [...randomBytes(16)].map((b) => NONCE_CHARS[b % NONCE_CHARS.length]).join('');
}

/**
 * The JS-SDK's wx.config inside WeChat (issue 35): for a page of this site only (the origin of WEB_PUBLIC_URL, the
 * address WeChat's JS接口安全域名 names), signed with the official account's jsapi_ticket (WechatOa keeps it in Redis,
 * fetched by one process and refreshed 5 minutes before its end). The page's URL is signed as given (its query
 * included), without the #fragment: WeChat compares it with the page it runs in.
 */
@Injectable()
export class WechatJsConfig {
  private readonly origin: string;

  constructor(
    private readonly oa: WechatOa,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(LOGGER) private readonly log: Logger,
  ) {
    this.origin = new URL(config.webPublicUrl).origin;
  }

  async config(input: WechatJsConfigInput): Promise<WechatJsConfigAnswer> {
    if (new URL(input.url).origin !== this.origin) throw new AppError('wechat.js_url_foreign');
    let ticket: string;
    try {
      ticket = await this.oa.jsapiTicket();
    } catch (err) {
      this.log.warn({ err }, 'wechat: no jsapi_ticket for the JS-SDK config');
      throw new AppError('wechat.js_unavailable');
    }
    const timestamp = Math.floor(Date.now() / 1000);
    const nonceStr = jsNonce();
    return { appId: this.oa.appid, timestamp, nonceStr, signature: jsapiSignature(ticket, nonceStr, timestamp, input.url) };
  }
}
