import { Controller } from '@nestjs/common';
import { WechatJsConfigInput } from '@wantuo/shared';
import { Action } from '../../core/http/action.decorator';
import { Input } from '../../core/http/input.decorator';
import { WechatJsConfig } from './js-config.service';

/** The JS-SDK's wx.config for a page inside WeChat (issue 35: scanning, sharing). */
@Controller('api/index')
export class WechatJsConfigController {
  constructor(private readonly js: WechatJsConfig) {}

  @Action('GET', 'wechatJsConfig')
  config(@Input() input: WechatJsConfigInput) {
    return this.js.config(input);
  }
}
