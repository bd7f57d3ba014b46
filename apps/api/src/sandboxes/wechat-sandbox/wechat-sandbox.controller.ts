import { Body, Controller, Get, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { z } from 'zod';
import { Access } from '../../core/auth/access.decorator';
import { Input } from '../../core/http/input.decorator';
import { AUTHORIZE_PAGE_CSP } from './authorize-page';
import { WECHAT_JSBRIDGE_JS } from './jssdk-bridge';
import { WechatSandbox, type PageAnswer, type WechatAnswer } from './wechat-sandbox.service';

const MessagesInput = z.strictObject({
  openid: z
    .string()
    .regex(/^[\w-]{6,64}$/)
    .optional(),
  limit: z.coerce.number().int().min(1).max(200).default(20),
});

const UserInput = z.strictObject({
  name: z.string().trim().min(1).max(20),
  subscribed: z.boolean(),
});

type Q = Record<string, unknown>;

/** WeChat answers JSON as it is (no envelope), HTTP 200 even on a refusal. */
function wechat(res: Response, a: WechatAnswer): void {
  res.status(200).type('application/json').send(JSON.stringify(a));
}

function page(res: Response, a: PageAnswer): void {
  res.set('Content-Security-Policy', AUTHORIZE_PAGE_CSP).set('Cache-Control', 'no-store');
  if ('redirect' in a) res.redirect(302, a.redirect);
  else res.status(a.status).type('text/html').send(a.html);
}

/**
 * The local WeChat official account's HTTP side (design.md, issue 24): WeChat's own paths under /api/dev/wechat/ (the
 * authorisation page, sns/oauth2/access_token, cgi-bin/stable_token, cgi-bin/message/template/send,
 * cgi-bin/ticket/getticket) answered as WeChat answers; what WeChat's client does with the JS-SDK (js/verify and the
 * WeixinJSBridge of jsbridge.js); and the developer's tools: the message log, a user's following, expiring every
 * token, status.
 */
@Controller('api/dev/wechat')
export class WechatSandboxController {
  constructor(private readonly sandbox: WechatSandbox) {}

  @Get('connect/oauth2/authorize')
  @Access('pub')
  async authorize(@Query() q: Q, @Res() res: Response): Promise<void> {
    page(res, await this.sandbox.authorize(q));
  }

  @Post('connect/oauth2/authorize/confirm')
  @Access('pub')
  async confirm(@Body() body: Q, @Res() res: Response): Promise<void> {
    page(res, await this.sandbox.confirm(body ?? {}));
  }

  @Get('sns/oauth2/access_token')
  @Access('pub')
  async oauthAccessToken(@Query() q: Q, @Res() res: Response): Promise<void> {
    wechat(res, await this.sandbox.oauthAccessToken(q));
  }

  @Post('cgi-bin/stable_token')
  @Access('pub')
  async stableToken(@Body() body: Q, @Res() res: Response): Promise<void> {
    wechat(res, await this.sandbox.stableToken(body ?? {}));
  }

  @Post('cgi-bin/message/template/send')
  @Access('pub')
  async sendTemplate(@Query('access_token') token: unknown, @Body() body: Q, @Res() res: Response): Promise<void> {
    wechat(res, await this.sandbox.sendTemplate(token, body ?? {}));
  }

  @Get('cgi-bin/ticket/getticket')
  @Access('pub')
  async getTicket(@Query('access_token') token: unknown, @Query('type') type: unknown, @Res() res: Response): Promise<void> {
    wechat(res, await this.sandbox.getTicket(token, type));
  }

  /** WeChat's client checking a wx.config (the bridge's preVerifyJSAPI): `{ errMsg: 'config:ok' | 'config:invalid signature' | … }`. */
  @Post('js/verify')
  @Access('pub')
  async verifyJs(@Body() body: Q, @Res() res: Response): Promise<void> {
    const b = body && typeof body === 'object' && !Buffer.isBuffer(body) ? body : {};
    res
      .status(200)
      .type('application/json')
      .set('Cache-Control', 'no-store')
      .send(JSON.stringify(await this.sandbox.verifyJsConfig(b)));
  }

  /** The WeixinJSBridge of a page inside "WeChat" (the JS-SDK's calls and WeChat Pay's sheet): journeys inject it. */
  @Get('jsbridge.js')
  @Access('pub')
  jsbridge(@Res() res: Response): void {
    res.type('application/javascript; charset=utf-8').set('Cache-Control', 'no-store').send(WECHAT_JSBRIDGE_JS);
  }

  /** The template messages the sandbox was sent, newest first (the developer's and the tests' view of a phone). */
  @Get('messages')
  @Access('pub')
  messages(@Input(MessagesInput) input: z.infer<typeof MessagesInput>) {
    return this.sandbox.messages(input.openid, input.limit);
  }

  /** A WeChat user (made on first use) follows the account or not. */
  @Post('users')
  @Access('pub')
  user(@Input(UserInput) input: z.infer<typeof UserInput>) {
    return this.sandbox.setUser(input.name, input.subscribed);
  }

  /** Every access token expires now (the next call is refused 42001). */
  @Post('tokens/expire')
  @Access('pub')
  expireTokens() {
    return this.sandbox.expireTokens();
  }

  @Get('status')
  @Access('pub')
  status() {
    return this.sandbox.status();
  }
}
