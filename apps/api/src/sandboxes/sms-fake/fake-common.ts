import { HttpAdapterHost } from '@nestjs/core';
import { mobile, type SmsGatewayName } from '@wantuo/shared';
import { z } from 'zod';
import type { AppConfig } from '../../core/config/config';

/**
 * What a test tells a fake gateway (POST /api/dev/sms/<provider>/control):
 * - fail: the next `times` sends (to `mobile` only, when given) are refused the provider's way: `transient` (its
 *   system error), `account` (balance / account state) or `final` (the mobile's daily business limit);
 * - reports: `push` (default: signed-off reports POSTed to the report URL shortly after each send), `poll` (kept
 *   for QuerySendDetails / PullSmsSendStatus only), `undelivered` (pushed, as a carrier failure);
 * - reset: forget the messages and the failures.
 */
export interface FakeControl {
  fail?: { mode: 'transient' | 'account' | 'final'; times: number; mobile?: string };
  reports?: 'push' | 'poll' | 'undelivered';
  reset?: boolean;
}

/** A message a fake accepted (GET /api/dev/sms/<provider>/messages). */
export interface FakeMessage {
  messageId: string;
  mobile: string;
  signName: string;
  templateCode: string;
  params: Record<string, string> | string[];
  /** the sender's reference (Aliyun OutId, Tencent SessionContext): our message ids (smsRef) */
  ref: string;
  at: string;
  /** delivered / failed once reported (pushed or polled), null before */
  report: 'delivered' | 'failed' | null;
}

/** This process's own address (the fakes post their reports to it; the SDKs reach the fakes through it). */
export function selfUrl(host: HttpAdapterHost): string {
  const server = host.httpAdapter?.getHttpServer() as { address(): { port: number } | string | null } | undefined;
  const addr = server?.address();
  if (!addr || typeof addr === 'string') throw new Error('the SMS fake gateways need an HTTP server (set SMS_<PROVIDER>_ENDPOINT elsewhere)');
  return `http://127.0.0.1:${addr.port}`;
}

/** Where a fake posts its delivery reports: the report callback configured "in the provider's console". */
export const reportUrl = (host: HttpAdapterHost, config: AppConfig, provider: SmsGatewayName) =>
  `${selfUrl(host)}/api/sms-report/${provider}?token=${encodeURIComponent(config.sms.reportToken)}`;

/** POST /api/dev/sms/<provider>/control: FakeControl. */
export const FakeControlInput = z.strictObject({
  fail: z
    .strictObject({
      mode: z.enum(['transient', 'account', 'final']),
      times: z.number().int().min(0).max(100_000),
      mobile: mobile.optional(),
    })
    .optional(),
  reports: z.enum(['push', 'poll', 'undelivered']).optional(),
  reset: z.boolean().optional(),
}) satisfies z.ZodType<FakeControl>;

/** GET /api/dev/sms/<provider>/messages: a mobile's (or any) accepted messages, newest first. */
export const FakeMessagesQuery = z.strictObject({
  mobile: mobile.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});

/** The JSON of a raw body (the fakes' paths keep their bytes raw for the signatures): null when it is not JSON. */
export function jsonBody(body: unknown): unknown {
  if (!Buffer.isBuffer(body)) return body;
  const text = body.toString('utf8');
  try {
    return text.trim() ? JSON.parse(text) : {};
  } catch {
    return null;
  }
}
