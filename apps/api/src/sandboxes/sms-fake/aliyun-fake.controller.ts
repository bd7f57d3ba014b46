import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { Access } from '../../core/auth/access.decorator';
import { Input, parseInput } from '../../core/http/input.decorator';
import { langOf, type AppRequest } from '../../core/http/request-context';
import { AliyunFake } from './aliyun-fake.service';
import { FakeControlInput, FakeMessagesQuery, jsonBody } from './fake-common';

const MOUNT = '/api/dev/sms/aliyun';

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
    return this.fake.control(parseInput(FakeControlInput, jsonBody(req.body), langOf(req)));
  }

  /** The messages the fake accepted for a mobile (or any), newest first. */
  @Get('messages')
  @Access('pub')
  messages(@Input(FakeMessagesQuery) q: z.infer<typeof FakeMessagesQuery>) {
    return this.fake.messages(q.mobile, q.limit);
  }
}
