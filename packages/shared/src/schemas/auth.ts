import { z } from 'zod';
import { enteredPassword, flag, lineText, mobile, newPassword, smsCode } from './common';

export const LoginInput = z.strictObject({
  account: z
    .string({ error: 'v.account_required' })
    .trim()
    .min(1, { error: 'v.account_required' })
    .max(64, { error: 'v.too_long|64' }),
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

export const ChangePwdInput = z.strictObject({
  oldpassword: enteredPassword,
  newpassword: newPassword,
});
export type ChangePwdInput = z.infer<typeof ChangePwdInput>;

/** Forgot password, step 1: which account (user name or phone). */
export const ResetPwdQuery = z.strictObject({
  account: z
    .string({ error: 'v.account_required' })
    .trim()
    .min(1, { error: 'v.account_required' })
    .max(64, { error: 'v.too_long|64' }),
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
