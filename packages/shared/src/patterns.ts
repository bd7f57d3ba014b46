/** Input patterns both sides check (no zod here: the web's sign-in page imports this without the schemas). */

/** Chinese mainland mobile number. */
export const MOBILE_RE = /^1[3-9]\d{9}$/;

/** New passwords: 8-64 characters with letters and digits. */
export const PASSWORD_RE = /^(?=.*[A-Za-z])(?=.*\d).{8,64}$/;
