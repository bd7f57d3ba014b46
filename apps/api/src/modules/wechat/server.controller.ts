import { Controller, Get, Post, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Access } from '../../core/auth/access.decorator';
import { WechatServerService, type ServerQuery } from './server.service';

/**
 * /api/wechat/server: the official account's server URL (服务器配置, plaintext mode). GET is WeChat's check of the URL
 * (answers echostr when signed by the Token); POST its events, the raw XML body kept by bootstrap. A forged signature is
 * answered 401 and changes nothing; otherwise `success`, as WeChat expects (it sends again on no answer).
 */
@Controller('api/wechat')
export class WechatServerController {
  constructor(private readonly server: WechatServerService) {}

  @Get('server')
  @Access('pub')
  check(@Query() q: ServerQuery, @Res() res: Response): void {
    const echo = this.server.echo(q);
    if (echo === null) res.status(401).type('text/plain').send('invalid signature');
    else res.status(200).type('text/plain').send(echo);
  }

  @Post('server')
  @Access('pub')
  async receive(@Query() q: ServerQuery, @Req() req: Request, @Res() res: Response): Promise<void> {
    const ok = await this.server.receive(q, Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));
    if (ok) res.status(200).type('text/plain').send('success');
    else res.status(401).type('text/plain').send('invalid signature');
  }
}
