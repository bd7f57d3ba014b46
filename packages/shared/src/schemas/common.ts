import { z } from 'zod';
import { MOBILE_RE, PASSWORD_RE } from '../patterns';
import { isPlainText, isSingleLineText } from '../text-safety';

/** A trimmed string with a length cap; every string input has one. */
export const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: `v.too_long|${max}` });

/** Plain text (remarks, notes, messages): no HTML markup, no control characters but tab and line breaks. */
export const plainText = (max: number) => text(max).refine((v) => isPlainText(v), { error: 'v.plain_text' });

/** Single-line plain text (names, titles, searches): no markup, no control characters at all. */
export const lineText = (max: number) => text(max).refine((v) => isSingleLineText(v), { error: 'v.plain_text' });

/** A boolean flag as JSON sends it (true/false) or a query string does ("1", "0", "true", "false"). */
export const flag = z
  .union([z.boolean(), z.literal(1), z.literal(0), z.enum(['1', '0', 'true', 'false'])])
  .transform((v) => v === true || v === 1 || v === '1' || v === 'true');

export const mobile = z
  .string({ error: 'v.mobile_required' })
  .trim()
  .min(1, { error: 'v.mobile_required' })
  .regex(MOBILE_RE, { error: 'v.mobile_invalid' });

/** Password policy for new passwords: 8-64 characters with letters and digits. */
export const newPassword = z
  .string({ error: 'v.password_required' })
  .min(1, { error: 'v.password_required' })
  .regex(PASSWORD_RE, { error: 'v.password_weak' });

/** An entered password (sign-in, old password): not checked for policy, only for size. */
export const enteredPassword = z
  .string({ error: 'v.password_required' })
  .min(1, { error: 'v.password_required' })
  .max(128, { error: 'v.too_long|128' });

export const smsCode = z
  .string({ error: 'v.code_required' })
  .trim()
  .min(1, { error: 'v.code_required' })
  .regex(/^\d{6}$/, { error: 'v.code_invalid' });

/** Page and limit of every list (design.md §2): page from 1, limit default 20, max 100. */
export const pageQuery = {
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
};
