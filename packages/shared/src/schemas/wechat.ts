import { z } from 'zod';
import {
  GUARDIAN_MESSAGE_KIND_NAMES,
  GUARDIAN_MESSAGE_KINDS,
  type GuardianMessageKindSpec,
  isGuardianMessageKind,
  MESSAGE_CHANNELS,
} from '../guardian-messages';
import { isCalendarDay } from '../school-time';
import { pageQuery } from './common';

/** Parents in WeChat (issue 24): the guardian's channels, the school's counts, the operator's template ids. */

const kind = z
  .string({ error: 'wechat.v.kind_invalid' })
  .refine(isGuardianMessageKind, { error: 'wechat.v.kind_invalid' })
  .transform((v) => v as keyof typeof GUARDIAN_MESSAGE_KINDS);
const uniqueKinds = (list: ReadonlyArray<{ kind: string }>) => new Set(list.map((p) => p.kind)).size === list.length;
const KINDS = GUARDIAN_MESSAGE_KIND_NAMES.length;

/** saveMessagePrefs: the channel of some kinds (the others keep theirs); an alert can never be 'none'. */
export const SaveMessagePrefsInput = z.strictObject({
  prefs: z
    .array(
      z.strictObject({
        kind,
        channel: z.enum(MESSAGE_CHANNELS, { error: 'wechat.v.channel_invalid' }),
      }),
      { error: `wechat.v.prefs_invalid|${KINDS}` },
    )
    .min(1, { error: `wechat.v.prefs_invalid|${KINDS}` })
    .max(KINDS, { error: `wechat.v.prefs_invalid|${KINDS}` })
    .refine(uniqueKinds, { error: 'wechat.v.kind_twice' })
    .refine((list) => list.every((p) => p.channel !== 'none' || !(GUARDIAN_MESSAGE_KINDS[p.kind] as GuardianMessageKindSpec).required), {
      error: 'wechat.v.alert_required',
    }),
});
export type SaveMessagePrefsInput = z.infer<typeof SaveMessagePrefsInput>;

/** A template id of the official account (as WeChat issues them: letters, digits, _ and -). */
export const WECHAT_TEMPLATE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** saveWechatTemplates: the template id of some kinds (the others keep theirs). */
export const SaveWechatTemplatesInput = z.strictObject({
  templates: z
    .array(
      z.strictObject({
        kind,
        template_id: z.string({ error: 'wechat.v.template_invalid' }).trim().regex(WECHAT_TEMPLATE_ID, { error: 'wechat.v.template_invalid' }),
      }),
      { error: `wechat.v.templates_invalid|${KINDS}` },
    )
    .min(1, { error: `wechat.v.templates_invalid|${KINDS}` })
    .max(KINDS, { error: `wechat.v.templates_invalid|${KINDS}` })
    .refine(uniqueKinds, { error: 'wechat.v.kind_twice' }),
});
export type SaveWechatTemplatesInput = z.infer<typeof SaveWechatTemplatesInput>;

const day = z.string({ error: 'wechat.v.day_invalid' }).refine(isCalendarDay, { error: 'wechat.v.day_invalid' });
/** the counts' day range: at most this many days */
export const WECHAT_STATS_MAX_DAYS = 92;
/** the counts' default range: the school's last this many school days (today included when it is one) */
export const WECHAT_STATS_DEFAULT_SCHOOL_DAYS = 7;

/** schoolWechatStats: delivery per day and kind of the caller's school, newest day first. */
export const SchoolWechatStatsQuery = z
  .strictObject({
    ...pageQuery,
    from: day.optional(),
    to: day.optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { error: 'wechat.v.range_invalid', path: ['to'] });
export type SchoolWechatStatsQuery = z.infer<typeof SchoolWechatStatsQuery>;

/** The longest page URL wechatJsConfig signs. */
export const WECHAT_JS_URL_MAX = 1024;

/** wechatJsConfig: the page's URL as WeChat sees it (http(s), without its #fragment); its origin is checked by the API. */
export const WechatJsConfigInput = z.strictObject({
  url: z
    .string({ error: 'wechat.v.js_url_invalid' })
    .max(WECHAT_JS_URL_MAX, { error: `wechat.v.js_url_too_long|${WECHAT_JS_URL_MAX}` })
    .refine(
      (v) => {
        if (v.includes('#') || /\s/.test(v)) return false;
        try {
          const u = new URL(v);
          return (u.protocol === 'http:' || u.protocol === 'https:') && !u.username && !u.password;
        } catch {
          return false;
        }
      },
      { error: 'wechat.v.js_url_invalid' },
    ),
});
export type WechatJsConfigInput = z.infer<typeof WechatJsConfigInput>;
