import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { WechatJsConfigController } from './js-config.controller';
import { WechatJsConfig } from './js-config.service';
import { WechatOa } from './oa-client';
import { OA_ACCOUNT, wechatOaProviders } from './oa.provider';
import { WechatServerController } from './server.controller';
import { WechatServerService } from './server.service';
import { WechatSettingsController } from './settings.controller';
import { WechatSettings } from './settings.service';
import { WechatSignInController } from './sign-in.controller';
import { WechatSignIn } from './sign-in.service';
import { WechatSettingsRepository } from './wechat-settings.repository';
import { WechatRepository } from './wechat.repository';

/**
 * Parents in WeChat (issue 24): the official account's client (access token, web authorisation, template messages),
 * guardians' bindings and sign-in by openid, the server-message endpoint, the settings and counts of the consoles, and
 * the JS-SDK's wx.config signed with the account's jsapi_ticket (issue 35).
 */
@Module({
  imports: [AuthModule],
  controllers: [WechatServerController, WechatSettingsController, WechatSignInController, WechatJsConfigController],
  providers: [...wechatOaProviders, WechatRepository, WechatSettingsRepository, WechatServerService, WechatSettings, WechatSignIn, WechatJsConfig],
  exports: [WechatOa, OA_ACCOUNT],
})
export class WechatModule {}
