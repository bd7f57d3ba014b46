import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import { mobile } from '@wantuo/shared';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { Access } from '../../../core/auth/access.decorator';
import { Input, parseInput } from '../../../core/http/input.decorator';
import { langOf, type AppRequest } from '../../../core/http/request-context';
import { AliyunFake } from './aliyun-fake.service';
import type { FakeControl } from './fake-common';

const MOUNT = '/api/dev/sms/aliyun';

const ControlInput = z.strictObject({
  fail: z
    .strictObject({
      mode: z.enum(['transient', 'account', 'final']),
      times: z.number().int().min(0).max(10_000),
      mobile: mobile.optional(),
    })
    .optional(),
  reports: z.enum(['push', 'poll', 'undelivered']).optional(),
  reset: z.boolean().optional(),
}) satisfies z.ZodType<FakeControl>;

const MessagesQuery = z.strictObject({ mobile: mobile.optional() });

/**
 * The local Aliyun SMS gateway's HTTP side (outside production): the SDK's POSTs to the mount itself (the SDK's
 * endpoint is 127.0.0.1:PORT/api/dev/sms/aliyun, its pathname "/"), answered past the envelope as Aliyun answers;
 * `control` and `messages` are the tests' and developers' handles (enveloped, as the other dev routes).
 */
@Controller('api/dev/sms/aliyun')
export class AliyunFakeController {
  constructor(private readonly fake: AliyunFake) {}

  /** Every dysmsapi call (the action is in x-acs-action); the body is raw bytes here (bootstrap's SMS_RAW_BODY_PATHS). */
  @Post()
  @Access('pub')
  api(@Req() req: Request, @Res() res: Response): void {
    const url = req.originalUrl;
    const q = url.indexOf('?');
    const path = (q < 0 ? url : url.slice(0, q)).slice(MOUNT.length) || '/';
    const answer = this.fake.handle({
      method: req.method,
      path,
      rawQuery: q < 0 ? '' : url.slice(q + 1),
      headers: req.headers,
      body: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
    });
    res.status(answer.status).type('application/json;charset=utf-8').send(JSON.stringify(answer.body));
  }

  /** FakeControl: forced failures, the reports mode, reset. The body is raw here too: read as JSON. */
  @Post('control')
  @Access('pub')
  control(@Req() req: AppRequest) {
    const body: unknown = req.body;
    const text = Buffer.isBuffer(body) ? body.toString('utf8') : null;
    let raw: unknown = body;
    if (text !== null) {
      try {
        raw = text.trim() ? JSON.parse(text) : {};
      } catch {
        raw = null;
      }
    }
    return this.fake.control(parseInput(ControlInput, raw, langOf(req)));
  }

  /** The messages the fake accepted for a mobile (or any), newest first, at most 50. */
  @Get('messages')
  @Access('pub')
  messages(@Input(MessagesQuery) q: z.infer<typeof MessagesQuery>) {
    return this.fake.list(q.mobile);
  }
}
