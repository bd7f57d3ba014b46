import { z } from 'zod';
import { pageOf, wire } from '../api/define';
import { GUARDIAN_MESSAGE_KIND_NAMES, MESSAGE_CHANNELS } from '../guardian-messages';

const kind = z.enum(GUARDIAN_MESSAGE_KIND_NAMES as [string, ...string[]]);
const channel = z.enum(MESSAGE_CHANNELS);

/** A guardian's WeChat binding to the platform's official account (the openid masked: its first 4 and last 4 characters). */
export const WechatBindingState = z.object({
  bound: z.boolean(),
  bound_at: wire.at.nullable(),
  openid: z.string().nullable(),
});
export type WechatBindingState = z.infer<typeof WechatBindingState>;

/** messagePrefs: every kind a guardian gets, its channel (the default when never chosen), and the binding. */
export const MessagePrefsAnswer = z.object({
  kinds: z.array(
    z.object({
      kind,
      label: z.object({ zh: z.string(), en: z.string() }),
      channel,
      /** false: the guardian never chose, `channel` is the default */
      chosen: z.boolean(),
      /** the channels they may choose ('none' missing for alerts) */
      channels: z.array(channel),
      may_turn_off: z.boolean(),
    }),
  ),
  binding: WechatBindingState,
});
export type MessagePrefsAnswer = z.infer<typeof MessagePrefsAnswer>;

/** Message delivery counts: WeChat template messages by their state, the texts sent instead of them, texts sent directly. */
export const WechatDeliveryCounts = z.object({
  /** accepted by WeChat (delivered included) */
  wechat_sent: wire.count,
  wechat_delivered: wire.count,
  wechat_failed: wire.count,
  /** queued or sending (the quiet hours hold some) */
  wechat_waiting: wire.count,
  /** WeChat refused or could not reach the guardian: an SMS went instead */
  sms_fallback: wire.count,
  /** texts of guardian kinds sent as SMS by the guardian's choice or because they are not bound */
  sms_direct: wire.count,
});
export type WechatDeliveryCounts = z.infer<typeof WechatDeliveryCounts>;

export const WechatStatsRow = WechatDeliveryCounts.extend({ day: wire.day, kind });
export type WechatStatsRow = z.infer<typeof WechatStatsRow>;

/** schoolWechatStats: the school's guardians bound of all, and a page of delivery per day and kind with the range's totals. */
export const SchoolWechatStats = pageOf(WechatStatsRow).extend({
  from: wire.day,
  to: wire.day,
  guardians: z.object({ bound: wire.count, total: wire.count }),
  totals: WechatDeliveryCounts,
});
export type SchoolWechatStats = z.infer<typeof SchoolWechatStats>;

/** wechatAccount: the platform's official account as the operator sees it. */
export const WechatAccountAnswer = z.object({
  appid: z.string(),
  /** the local sandbox's account (nothing reaches WeChat) */
  sandbox: z.boolean(),
  token: z.object({
    /** an access token was got (from the cache or WeChat) just now */
    fresh: z.boolean(),
    /** why not: WeChat's errcode and message, or the network's */
    error: z.string().nullable(),
  }),
  /** guardians with a live binding to this app id, every school */
  bound_guardians: wire.count,
  templates: z.array(
    z.object({
      kind,
      label: z.object({ zh: z.string(), en: z.string() }),
      /** null: none set (outside the sandbox a kind without one goes by SMS) */
      template_id: z.string().nullable(),
      /** the sandbox's default id (sbx_tpl_<kind>), not one the operator set */
      is_default: z.boolean(),
      updated_at: wire.at.nullable(),
      updated_by_name: z.string().nullable(),
    }),
  ),
});
export type WechatAccountAnswer = z.infer<typeof WechatAccountAnswer>;

/** wechatJsConfig: what wx.config takes besides jsApiList (timestamp in seconds; signature: sha1 hex, 附录1). */
export const WechatJsConfigAnswer = z.object({
  appId: z.string(),
  timestamp: z.number().int(),
  nonceStr: z.string(),
  signature: z.string(),
});
export type WechatJsConfigAnswer = z.infer<typeof WechatJsConfigAnswer>;
