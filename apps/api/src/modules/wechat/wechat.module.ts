import { Module } from '@nestjs/common';

/**
 * Parents in WeChat (issue 24): the official account's client (access token, web authorisation, template messages),
 * guardians' bindings and sign-in by openid, the server-message endpoint, and the settings and counts of the consoles.
 */
@Module({
  imports: [],
  controllers: [],
  providers: [],
  exports: [],
})
export class WechatModule {}
