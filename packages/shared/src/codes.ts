/** Response codes of the envelope (spec §8, §9). */
export const Code = {
  Ok: 200,
  Error: 100,
  Untoken: 401,
  Unexpected: 500,
} as const;
export type Code = (typeof Code)[keyof typeof Code];

export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
}

export interface Page<T> {
  list: T[];
  total: number;
  page: number;
  limit: number;
}

export const REQUEST_TIMEOUT_MS = 30_000;
export const TOAST_MS = 3_000;
export const NOTIFICATION_MS = 4_500;
export const CLICK_GUARD_MS = 2_000;
export const REMEMBER_ME_HOURS = 24;
/** Scroll animations of the public pages (spec §9), as the animation library's init options. */
export const SCROLL_ANIMATION = { offset: 120, delay: 0, duration: 400, easing: 'ease', throttleDelay: 99, debounceDelay: 50 } as const;
export const DEFAULT_MESSAGE_ZH = '请求失败';

/** SMS code limits (auth): one code per mobile per 60 s, 10 per mobile per local day, 30 per IP per hour. */
export const SMS_LIMITS = {
  resendSeconds: 60,
  perMobilePerDay: 10,
  perIpPerHour: 30,
  codeTtlMinutes: 5,
  attemptsPerCode: 5,
} as const;

/** Sign-in lockout: this many wrong passwords in a row lock the account for lockMinutes. */
export const LOGIN_LOCK = { maxFailures: 5, lockMinutes: 15 } as const;

/** Token lifetimes: remember me keeps a session 24 h (spec §9), otherwise 12 h. */
export const TOKEN_TTL_HOURS = { remember: 24, session: 12 } as const;
