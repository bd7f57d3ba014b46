import { Controller, UploadedFile } from '@nestjs/common';
import {
  ChangePwdInput,
  LoginInput,
  MobileLoginInput,
  ProfileInput,
  ResetPwdInput,
  ResetPwdQuery,
  SmsSendInput,
  LoginLogQuery,
} from '@wantuo/shared';
import { Caller, CurrentUser, type CallerInfo } from '../../core/auth/current-user.decorator';
import { Action } from '../../core/http/action.decorator';
import { Input } from '../../core/http/input.decorator';
import { Multipart } from '../../core/http/multipart';
import type { SessionUser } from '../../core/http/request-context';
import type { IncomingFile } from '../site/files.service';
import { ActivityService } from './activity.service';
import { AuthService } from './auth.service';

@Controller('api/index')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly activity: ActivityService,
  ) {}

  @Action('POST', 'login')
  login(@Input() input: LoginInput, @Caller() caller: CallerInfo) {
    return this.auth.login(input, caller);
  }

  @Action('POST', 'mobilelogin')
  mobileLogin(@Input() input: MobileLoginInput, @Caller() caller: CallerInfo) {
    return this.auth.mobileLogin(input, caller);
  }

  @Action('POST', 'logout')
  logout(@Input() _: unknown, @CurrentUser() user: SessionUser, @Caller() caller: CallerInfo) {
    return this.auth.logout(user, caller);
  }

  @Action('POST', 'changepwd')
  changePassword(@Input() input: ChangePwdInput, @CurrentUser() user: SessionUser, @Caller() caller: CallerInfo) {
    return this.auth.changePassword(user, input, caller);
  }

  @Action('GET', 'resetpwd')
  resetLookup(@Input() query: ResetPwdQuery) {
    return this.auth.resetLookup(query);
  }

  @Action('POST', 'resetpwd')
  resetPassword(@Input() input: ResetPwdInput, @Caller() caller: CallerInfo) {
    return this.auth.resetPassword(input, caller);
  }

  @Action('GET', 'userInfo')
  userInfo(@Input() _: unknown, @CurrentUser() user: SessionUser) {
    return this.auth.userInfo(user);
  }

  @Action('POST', 'profile')
  @Multipart('avatar')
  profile(
    @Input() input: ProfileInput,
    @UploadedFile() avatar: IncomingFile | undefined,
    @CurrentUser() user: SessionUser,
    @Caller() caller: CallerInfo,
  ) {
    return this.auth.updateProfile(user, input, avatar, caller);
  }

  @Action('GET', 'loginLog')
  loginLog(@Input() q: LoginLogQuery, @CurrentUser() user: SessionUser) {
    return this.activity.list(user.id, q);
  }
}

@Controller('api/sms')
export class SmsController {
  constructor(private readonly auth: AuthService) {}

  @Action('POST', 'sms/send')
  send(@Input() input: SmsSendInput, @Caller() caller: CallerInfo) {
    return this.auth.sendCode(input, caller);
  }
}
