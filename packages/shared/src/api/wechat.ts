import { GET, POST, EmptyAnswer, extraOf } from './define';
import { MessagePrefsAnswer, SchoolWechatStats, WechatAccountAnswer, WechatJsConfigAnswer } from '../answers/wechat';
import { EmptyInput } from '../schemas/auth';
import { SaveMessagePrefsInput, SaveWechatTemplatesInput, SchoolWechatStatsQuery, WechatJsConfigInput } from '../schemas/wechat';

/** The access and meaning of this module's actions that actions.tsv does not list. */
const extra = extraOf('wechat');

/** The actions of module `wechat` (issue 24): the guardian's channels and binding, the school's counts, the operator's account. */
export const wechatActions = [
  GET(
    'messagePrefs',
    EmptyInput,
    MessagePrefsAnswer,
    extra(
      ['P'],
      "the guardian's message settings: every kind of message to guardians with its label, the channel chosen (WeChat, SMS, both, none; the default when unset) and whether it may be turned off, and the account's WeChat binding (bound at, masked openid)",
    ),
  ),
  POST(
    'saveMessagePrefs',
    SaveMessagePrefsInput,
    MessagePrefsAnswer,
    extra(['P'], 'the guardian chooses the channel of some message kinds (set-based upsert); alerts cannot be turned off'),
  ),
  POST(
    'wechatUnbind',
    EmptyInput,
    EmptyAnswer,
    extra(
      ['P'],
      "the guardian ends their account's live WeChat binding (kept in the bindings' history and the account's activity); messages then go by SMS",
    ),
  ),
  GET(
    'schoolWechatStats',
    SchoolWechatStatsQuery,
    SchoolWechatStats,
    extra(
      ['A'],
      "the school's guardians bound to the official account of all, and message delivery per school-local day and kind (WeChat sent, delivered, failed, SMS fallbacks, SMS sent directly), paged, newest first; default the last 7 school days",
    ),
  ),
  GET(
    'wechatAccount',
    EmptyInput,
    WechatAccountAnswer,
    extra(
      ['O'],
      "platform operator's view of the official account: app id, sandbox or real, whether its access token is fresh, guardians bound across schools, and the template id of each message kind",
    ),
  ),
  POST(
    'saveWechatTemplates',
    SaveWechatTemplatesInput,
    WechatAccountAnswer,
    extra(['O'], "platform operator sets the official account's template id of some message kinds (set-based upsert, who and when kept)"),
  ),
  GET(
    'wechatJsConfig',
    WechatJsConfigInput,
    WechatJsConfigAnswer,
    extra(
      ['T', 'H', 'P'],
      "the JS-SDK's wx.config inside WeChat for a page of this site (its URL without the #fragment): the official account's app id, a timestamp, a random nonceStr and the sha1 signature with the account's jsapi_ticket (kept in Redis, fetched by one process, refreshed 5 minutes early)",
    ),
  ),
] as const;
