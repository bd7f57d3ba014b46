import { Controller } from '@nestjs/common';
import { WechatAuthorizeInput, WechatBindInput, WechatOauthInput } from '@wantuo/shared';
import { Caller, CurrentUser, type CallerInfo } from '../../core/auth/current-user.decorator';
import { Action } from '../../core/http/action.decorator';
import { Input } from '../../core/http/input.decorator';
import type { SessionUser } from '../../core/http/request-context';
import { WechatSignIn } from './sign-in.service';

/** The official account's web sign-in and the guardian's binding (issue 24). */
@Controller('api/index')
export class WechatSignInController {
  constructor(private readonly signIn: WechatSignIn) {}

  @Action('GET', 'wechatAuthorize')
  authorize(@Input() input: WechatAuthorizeInput, @Caller() caller: CallerInfo) {
    return this.signIn.authorize(input, caller);
  }

  @Action('POST', 'wechatOauth')
  oauth(@Input() input: WechatOauthInput, @Caller() caller: CallerInfo) {
    return this.signIn.oauth(input, caller);
  }

  @Action('POST', 'wechatBind')
  bind(@Input() input: WechatBindInput, @CurrentUser() user: SessionUser, @Caller() caller: CallerInfo) {
    return this.signIn.bind(user, input, caller);
  }
}
