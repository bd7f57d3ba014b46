import { Controller, Get, Post, UploadedFile } from '@nestjs/common';
import {
  ChangePwdInput,
  EmptyInput,
  LoginInput,
  MobileLoginInput,
  ProfileInput,
  ResetPwdInput,
  ResetPwdQuery,
  SmsSendInput,
  pageQuery,
} from '@wantuo/shared';
import { z } from 'zod';
import { Caller, CurrentUser, type CallerInfo } from '../../core/auth/current-user.decorator';
import { Input } from '../../core/http/input.decorator';
import { Multipart } from '../../core/http/multipart';
import type { SessionUser } from '../../core/http/request-context';
import type { IncomingFile } from '../site/files.service';
import { ActivityService } from './activity.service';
import { AuthService } from './auth.service';

const PageInput = z.strictObject(pageQuery);

@Controller('api/index')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly activity: ActivityService,
  ) {}

  @Post('login')
  login(@Input(LoginInput) input: LoginInput, @Caller() caller: CallerInfo) {
    return this.auth.login(input, caller);
  }

  @Post('mobilelogin')
  mobileLogin(@Input(MobileLoginInput) input: MobileLoginInput, @Caller() caller: CallerInfo) {
    return this.auth.mobileLogin(input, caller);
  }

  @Post('logout')
  logout(@Input(EmptyInput) _: unknown, @CurrentUser() user: SessionUser, @Caller() caller: CallerInfo) {
    return this.auth.logout(user, caller);
  }

  @Post('changepwd')
  changePassword(@Input(ChangePwdInput) input: ChangePwdInput, @CurrentUser() user: SessionUser, @Caller() caller: CallerInfo) {
    return this.auth.changePassword(user, input, caller);
  }

  @Get('resetpwd')
  resetLookup(@Input(ResetPwdQuery) query: ResetPwdQuery) {
    return this.auth.resetLookup(query);
  }

  @Post('resetpwd')
  resetPassword(@Input(ResetPwdInput) input: ResetPwdInput, @Caller() caller: CallerInfo) {
    return this.auth.resetPassword(input, caller);
  }

  @Get('userInfo')
  userInfo(@Input(EmptyInput) _: unknown, @CurrentUser() user: SessionUser) {
    return this.auth.userInfo(user);
  }

  @Post('profile')
  @Multipart('avatar')
  profile(
    @Input(ProfileInput) input: ProfileInput,
    @UploadedFile() avatar: IncomingFile | undefined,
    @CurrentUser() user: SessionUser,
    @Caller() caller: CallerInfo,
  ) {
    return this.auth.updateProfile(user, input, avatar, caller);
  }

  @Get('loginLog')
  loginLog(@Input(PageInput) q: z.infer<typeof PageInput>, @CurrentUser() user: SessionUser) {
    return this.activity.list(user.id, q);
  }
}

@Controller('api/sms')
export class SmsController {
  constructor(private readonly auth: AuthService) {}

  @Post('send')
  send(@Input(SmsSendInput) input: SmsSendInput, @Caller() caller: CallerInfo) {
    return this.auth.sendCode(input, caller);
  }
}
