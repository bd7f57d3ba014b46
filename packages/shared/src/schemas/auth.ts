import { z } from 'zod';
import { enteredPassword, flag, lineText, mobile, newPassword, pageQuery, smsCode } from './common';

export const LoginInput = z.strictObject({
  account: z.string({ error: 'v.account_required' }).trim().min(1, { error: 'v.account_required' }).max(64, { error: 'v.too_long|64' }),
  password: enteredPassword,
  remember: flag.optional(),
});
export type LoginInput = z.infer<typeof LoginInput>;

/** dealpwd: proves the admin's mobile before setting the school's payment password */
export const SMS_EVENTS = ['login', 'resetpwd', 'dealpwd'] as const;
export type SmsEvent = (typeof SMS_EVENTS)[number];

export const SmsSendInput = z.strictObject({
  mobile,
  event: z.enum(SMS_EVENTS, { error: 'v.event_invalid' }),
});
export type SmsSendInput = z.infer<typeof SmsSendInput>;

export const MobileLoginInput = z.strictObject({
  mobile,
  code: smsCode,
  remember: flag.optional(),
});
export type MobileLoginInput = z.infer<typeof MobileLoginInput>;

/**
 * WeChat web authorisation (issue 24), started by the sign-in page inside WeChat: where to go after it (a path of this
 * site) and the page that receives the code (this site's /wechat/callback).
 */
export const WechatAuthorizeInput = z.strictObject({
  redirect: z
    .string()
    .max(300, { error: 'v.too_long|300' })
    .regex(/^\/(?!\/)[^\s]*$/, { error: 'v.redirect_invalid' })
    .default('/'),
  callback: z.url({ error: 'v.url_invalid' }).max(300, { error: 'v.too_long|300' }),
});
export type WechatAuthorizeInput = z.infer<typeof WechatAuthorizeInput>;

/** The code WeChat handed the callback page, with the state it came back with. */
export const WechatOauthInput = z.strictObject({
  code: z.string({ error: 'v.wechat_code_required' }).trim().min(1, { error: 'v.wechat_code_required' }).max(128, { error: 'v.too_long|128' }),
  state: z.string({ error: 'v.state_invalid' }).regex(/^[A-Za-z0-9_-]{16,64}$/, { error: 'v.state_invalid' }),
});
export type WechatOauthInput = z.infer<typeof WechatOauthInput>;

/** Binds the openid of a bind ticket to the signed-in guardian (after the one SMS-code sign-in). */
export const WechatBindInput = z.strictObject({
  ticket: z.string({ error: 'v.ticket_invalid' }).regex(/^[A-Za-z0-9_-]{16,64}$/, { error: 'v.ticket_invalid' }),
});
export type WechatBindInput = z.infer<typeof WechatBindInput>;

export const ChangePwdInput = z.strictObject({
  oldpassword: enteredPassword,
  newpassword: newPassword,
});
export type ChangePwdInput = z.infer<typeof ChangePwdInput>;

/** Forgot password, step 1: which account (user name or phone). */
export const ResetPwdQuery = z.strictObject({
  account: z.string({ error: 'v.account_required' }).trim().min(1, { error: 'v.account_required' }).max(64, { error: 'v.too_long|64' }),
});
export type ResetPwdQuery = z.infer<typeof ResetPwdQuery>;

/** Forgot password, step 2. */
export const ResetPwdInput = z.strictObject({
  mobile,
  code: smsCode,
  newpassword: newPassword,
});
export type ResetPwdInput = z.infer<typeof ResetPwdInput>;

export const ProfileInput = z.strictObject({
  nickname: lineText(32).min(1, { error: 'v.nickname_invalid' }).optional(),
});
export type ProfileInput = z.infer<typeof ProfileInput>;

export const EmptyInput = z.strictObject({});

/** QR sign-in: a ticket's public id (what the QR carries; 16 random bytes, base64url). */
export const QR_TICKET_RE = /^[A-Za-z0-9_-]{22}$/;
/** QR sign-in: the secret only the desktop that asked for the ticket knows (32 random bytes, base64url). */
export const QR_SECRET_RE = /^[A-Za-z0-9_-]{43}$/;
/** A QR ticket lives 2 minutes; the desktop polls its state every 1.5 s. */
export const QR_LOGIN = { ttlSeconds: 120, pollMs: 1500 } as const;
/** The states the desktop sees (expired: past its 2 minutes before it was confirmed, or cancelled on the phone). */
export const QR_STATES = ['waiting', 'scanned', 'confirmed', 'cancelled', 'expired'] as const;
export type QrState = (typeof QR_STATES)[number];

const qrTicket = z.string({ error: 'auth.v.qr_ticket_invalid' }).trim().regex(QR_TICKET_RE, { error: 'auth.v.qr_ticket_invalid' });

/** The desktop asks for a ticket; "remember me" is the desktop's choice, carried to the session it gets. */
export const QrTicketCreateInput = z.strictObject({ remember: flag.optional() });
export type QrTicketCreateInput = z.infer<typeof QrTicketCreateInput>;

/** The desktop polls with the ticket and its secret. */
export const QrPollInput = z.strictObject({
  ticket: qrTicket,
  secret: z.string({ error: 'auth.v.qr_secret_invalid' }).regex(QR_SECRET_RE, { error: 'auth.v.qr_secret_invalid' }),
});
export type QrPollInput = z.infer<typeof QrPollInput>;

/** The phone scans, confirms or cancels a ticket. */
export const QrTicketInput = z.strictObject({ ticket: qrTicket });
export type QrTicketInput = z.infer<typeof QrTicketInput>;

/** loginLog: the caller's own sign-in activity, paged. */
export const LoginLogQuery = z.strictObject(pageQuery);
export type LoginLogQuery = z.infer<typeof LoginLogQuery>;
