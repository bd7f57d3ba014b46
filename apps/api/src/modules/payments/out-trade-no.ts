import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/**
 * A merchant order number (WeChat Pay's out_trade_no: 6-32 of [A-Za-z0-9_-*], unique per merchant): a one-letter
 * kind, the UTC time to the second and 12 random characters (60 bits), 27 characters in all.
 */
export function newOutTradeNo(prefix: string): string {
  const time = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  const bytes = randomBytes(12);
  let rand = '';
  for (const b of bytes) rand += ALPHABET[b % ALPHABET.length];
  return `${prefix}${time}${rand}`;
}
