import { Controller } from '@nestjs/common';
import { SaveMessagePrefsInput, SaveWechatTemplatesInput, SchoolWechatStatsQuery } from '@wantuo/shared';
import { Caller, type CallerInfo, CurrentUser, type SchoolCaller, SchoolUser } from '../../core/auth/current-user.decorator';
import { Action } from '../../core/http/action.decorator';
import { Input } from '../../core/http/input.decorator';
import type { SessionUser } from '../../core/http/request-context';
import { WechatSettings } from './settings.service';

/** The guardian's message channels and WeChat binding, the school's counts, the operator's official account (issue 24). */
@Controller('api/index')
export class WechatSettingsController {
  constructor(private readonly settings: WechatSettings) {}

  @Action('GET', 'messagePrefs')
  prefs(@Input() _: unknown, @CurrentUser() user: SessionUser) {
    return this.settings.prefs(user);
  }

  @Action('POST', 'saveMessagePrefs')
  savePrefs(@Input() input: SaveMessagePrefsInput, @CurrentUser() user: SessionUser) {
    return this.settings.savePrefs(user, input);
  }

  @Action('POST', 'wechatUnbind')
  unbind(@Input() _: unknown, @CurrentUser() user: SessionUser, @Caller() caller: CallerInfo) {
    return this.settings.unbind(user, caller);
  }

  @Action('GET', 'schoolWechatStats')
  stats(@Input() query: SchoolWechatStatsQuery, @SchoolUser() user: SchoolCaller) {
    return this.settings.schoolStats(user, query);
  }

  @Action('GET', 'wechatAccount')
  account(@Input() _: unknown) {
    return this.settings.account();
  }

  @Action('POST', 'saveWechatTemplates')
  saveTemplates(@Input() input: SaveWechatTemplatesInput, @CurrentUser() user: SessionUser) {
    return this.settings.saveTemplates(user, input);
  }
}
