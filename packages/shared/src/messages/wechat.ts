import type { Bilingual } from './bilingual';

/** Parents in WeChat (issue 24): bindings, the guardians' message channels, the consoles' counts and templates (wechat.*). */
export const wechatMessages = {
  'wechat.not_bound': { zh: '当前账号未绑定微信', en: 'This account is not bound to WeChat' },
  'wechat.v.prefs_invalid': {
    zh: '请提交消息通知设置（每种消息一项，最多 {max} 项）',
    en: 'Send the message settings (one per kind, at most {max})',
  },
  'wechat.v.kind_invalid': { zh: '未知的消息类型', en: 'Unknown message kind' },
  'wechat.v.kind_twice': { zh: '同一种消息只能设置一次', en: 'A message kind may appear only once' },
  'wechat.v.channel_invalid': {
    zh: '接收方式只能是微信、短信、都要或不接收',
    en: 'The channel is WeChat, SMS, both or none',
  },
  'wechat.v.alert_required': { zh: '异常提醒不能关闭', en: 'Alerts cannot be turned off' },
  'wechat.v.templates_invalid': { zh: '请提交模板设置（每种消息一项，最多 {max} 项）', en: 'Send the templates (one per kind, at most {max})' },
  'wechat.v.template_invalid': {
    zh: '模板 ID 为 1-64 位字母、数字、下划线或短横线',
    en: 'A template ID is 1 to 64 letters, digits, underscores or hyphens',
  },
  'wechat.v.day_invalid': { zh: '日期格式需为 YYYY-MM-DD', en: 'A date looks like YYYY-MM-DD' },
  'wechat.v.range_invalid': { zh: '结束日期不能早于开始日期', en: 'The end date cannot be before the start date' },
  'wechat.v.range_too_long': { zh: '日期范围最多 {max} 天', en: 'The date range is at most {max} days' },
  'wechat.v.js_url_invalid': {
    zh: '页面地址需为 http(s) 网址，且不含 # 之后的部分',
    en: 'The page URL must be an http(s) URL without its # part',
  },
  'wechat.v.js_url_too_long': { zh: '页面地址最多 {max} 个字符', en: 'The page URL is at most {max} characters' },
  'wechat.js_url_foreign': { zh: '只能为本站的页面获取微信接口配置', en: 'The WeChat JS config is only given for pages of this site' },
  'wechat.js_unavailable': {
    zh: '暂时无法使用微信扫一扫和分享，请稍后再试',
    en: 'WeChat scanning and sharing are not available right now; try again later',
  },
} satisfies Record<string, Bilingual>;
