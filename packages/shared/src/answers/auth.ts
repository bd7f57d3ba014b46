// The answer schemas of module `auth` (what `data` carries, as JSON), declared in api/auth.ts.
import { z } from 'zod';
import { pageOf } from '../api/define';
import { Role } from '../roles';
import { QR_STATES } from '../schemas/auth';

/** `data.userinfo` of login and mobilelogin (design.md §2, fixed contract), and of the poll that collects a QR sign-in. */
export const LoginUserInfo = z.object({
  token: z.string(),
  id: z.number().int(),
  role: z.enum(Role),
  nickname: z.string(),
  /** avatar image URL, or null when none was uploaded */
  avatar_text: z.string().nullable(),
  school_id: z.number().int().nullable(),
  expires_at: z.string(),
});
export type LoginUserInfo = z.infer<typeof LoginUserInfo>;

/** `data` of login and mobilelogin. */
export const LoginResult = z.object({ userinfo: LoginUserInfo });
export type LoginResult = z.infer<typeof LoginResult>;

/** `data` of wechatAuthorize: the official account's authorisation page to go to. */
export const WechatAuthorizeAnswer = z.object({ url: z.string() });
export type WechatAuthorizeAnswer = z.infer<typeof WechatAuthorizeAnswer>;

/**
 * `data` of wechatOauth: a bound guardian is signed in (`userinfo`, as login answers); an openid no guardian is bound
 * to gets a `bind_ticket` for the one SMS-code sign-in that binds it. `redirect`: where the authorisation was started.
 */
export const WechatOauthAnswer = z.object({
  userinfo: LoginUserInfo.optional(),
  bind_ticket: z.string().optional(),
  bind_expires_at: z.string().optional(),
  redirect: z.string(),
});
export type WechatOauthAnswer = z.infer<typeof WechatOauthAnswer>;

/** `data` of wechatBind. */
export const WechatBindAnswer = z.object({ bound_at: z.string(), rebound: z.boolean() });
export type WechatBindAnswer = z.infer<typeof WechatBindAnswer>;

/** `data` of GET userInfo and of profile. */
export const UserInfo = z.object({
  id: z.number().int(),
  name: z.string(),
  username: z.string(),
  nickname: z.string(),
  avatar_text: z.string().nullable(),
  role: z.enum(Role),
  school_id: z.number().int().nullable(),
  school: z.object({ id: z.number().int(), name: z.string(), timezone: z.string(), service_expires_at: z.string().nullable() }).nullable(),
  mobile: z.string().nullable(),
  email: z.string().nullable(),
  lang: z.enum(['zh-CN', 'en']),
});
export type UserInfo = z.infer<typeof UserInfo>;

/** `data` of GET resetpwd: the mobile the code goes to, masked (in full only when the caller typed it). */
export const ResetLookup = z.object({ mobile: z.string(), masked_mobile: z.string() });
export type ResetLookup = z.infer<typeof ResetLookup>;

/** What a user's login log records. */
export const ACTIVITY_ACTIONS = [
  'login',
  'login.sms',
  'login.qr',
  'login.wechat',
  'wechat.bind',
  'wechat.unbind',
  'login.failed',
  'login.locked',
  'logout',
  'changepwd',
  'resetpwd',
  'profile',
] as const;
export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

/** One entry of the caller's own trail (loginLog). */
export const ActivityRow = z.object({
  id: z.number().int(),
  action: z.enum(ACTIVITY_ACTIONS),
  detail: z.record(z.string(), z.unknown()),
  ip: z.string(),
  user_agent: z.string(),
  at: z.string(),
});
export type ActivityRow = z.infer<typeof ActivityRow>;

/** `data` of loginLog. */
export const LoginLogAnswer = pageOf(ActivityRow);
export type LoginLogAnswer = z.infer<typeof LoginLogAnswer>;

/** `data` of qrLoginTicket: the id goes into the QR, the secret stays in the desktop's memory for polling. */
export const QrTicket = z.object({ ticket: z.string(), secret: z.string(), expires_at: z.string(), ttl_seconds: z.number().int() });
export type QrTicket = z.infer<typeof QrTicket>;

/** `data` of qrLoginPoll: the state, and once (the first poll after the phone confirmed) the session. */
export const QrPollResult = z.object({ state: z.enum(QR_STATES), expires_at: z.string(), userinfo: LoginUserInfo.optional() });
export type QrPollResult = z.infer<typeof QrPollResult>;

/** `data` of qrLoginScan: what the phone shows before asking 确认登录 / 取消. */
export const QrScanResult = z.object({
  state: z.literal('scanned'),
  expires_at: z.string(),
  /** the desktop that asked for the code, from its request */
  device: z.object({ browser: z.string(), os: z.string(), ip: z.string(), requested_at: z.string() }),
});
export type QrScanResult = z.infer<typeof QrScanResult>;
