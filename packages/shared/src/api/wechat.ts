import { GET, POST, EmptyAnswer } from './define';
import { MessagePrefsAnswer, SchoolWechatStats, WechatAccountAnswer, WechatJsConfigAnswer } from '../answers/wechat';
import { EmptyInput } from '../schemas/auth';
import { SaveMessagePrefsInput, SaveWechatTemplatesInput, SchoolWechatStatsQuery, WechatJsConfigInput } from '../schemas/wechat';

/** The actions of module `wechat` (issue 24): the guardian's channels and binding, the school's counts, the operator's account. */
export const wechatActions = [
  GET('messagePrefs', EmptyInput, MessagePrefsAnswer),
  POST('saveMessagePrefs', SaveMessagePrefsInput, MessagePrefsAnswer),
  POST('wechatUnbind', EmptyInput, EmptyAnswer),
  GET('schoolWechatStats', SchoolWechatStatsQuery, SchoolWechatStats),
  GET('wechatAccount', EmptyInput, WechatAccountAnswer),
  POST('saveWechatTemplates', SaveWechatTemplatesInput, WechatAccountAnswer),
  GET('wechatJsConfig', WechatJsConfigInput, WechatJsConfigAnswer),
] as const;
