import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { WechatOa } from './oa-client';
import { OA_ACCOUNT, wechatOaProviders } from './oa.provider';
import { WechatServerController } from './server.controller';
import { WechatServerService } from './server.service';
import { WechatSettingsController } from './settings.controller';
import { WechatSettings } from './settings.service';
import { WechatSignInController } from './sign-in.controller';
import { WechatSignIn } from './sign-in.service';

/**
 * Parents in WeChat (issue 24): the official account's client (access token, web authorisation, template messages),
 * guardians' bindings and sign-in by openid, the server-message endpoint, and the settings and counts of the consoles.
 */
@Module({
  imports: [AuthModule],
  controllers: [WechatServerController, WechatSettingsController, WechatSignInController],
  providers: [...wechatOaProviders, WechatServerService, WechatSettings, WechatSignIn],
  exports: [WechatOa, OA_ACCOUNT],
})
export class WechatModule {}
