/**
 * Verified pick-up codes (接送码, issue 27): the rules, pure, shared by the API (which signs and has the last word) and
 * the teacher's phone (which checks offline with the school's public key).
 *
 * A code is `PK1.<payload b64url>.<signature b64url>`: the payload is the JSON {school, person, students, window,
 * nonce} (person 'g<user id>' for a guardian, 'p<pickup_people id>' for an authorised pick-up person; window =
 * floor(unix seconds / 30)), the signature Ed25519 over the payload's bytes with the school's private key (kept by the
 * server only). Ed25519 comes from @noble/curves 1.9.x (audited, no dependencies but @noble/hashes, synchronous, and
 * both CommonJS and ESM: this package is built to CommonJS for Node 20, where @noble/curves 2 and @noble/ed25519 2+ are
 * ESM only).
 *
 * - expiry: a code is good for its window and the next (≤ 60 s), with ±30 s for the clocks of the phones;
 * - for this child: every student of the departure must be in the code;
 * - replay: one departure per code, the code's id being the hash of its text (a retry of that very departure, same
 *   event id, counts once);
 * - offline: a departure the phone verified at `at` without network is accepted when it reaches the server within 5
 *   minutes of `at` and the code was good at `at` (not when it arrives).
 */
import { ed25519 } from '@noble/curves/ed25519';
import { sha256 } from '@noble/hashes/sha2';

export const PICKUP_CODE_PREFIX = 'PK1';
/** a code's window (s): the parent's page shows a new code every window */
export const PICKUP_WINDOW_SECONDS = 30;
/** a code is good for its window and the next */
export const PICKUP_VALID_WINDOWS = 2;
/** clock difference allowed between the phones and the server (s), both ways */
export const PICKUP_SKEW_SECONDS = 30;
/** how long after its offline verification a departure may still reach the server (s) */
export const PICKUP_OFFLINE_SECONDS = 5 * 60;

export interface PickupPayload {
  school: number;
  /** 'g<user id>' a guardian, 'p<pickup_people id>' a pick-up person */
  person: string;
  students: number[];
  /** floor(unix seconds / 30) when it was signed */
  window: number;
  nonce: string;
}

export type PickupPerson = { kind: 'g' | 'p'; id: number };

/** Why a code is refused: message keys. */
export type PickupRefusal =
  | 'pickup.malformed'
  | 'pickup.bad_signature'
  | 'pickup.other_school'
  | 'pickup.expired'
  | 'pickup.not_yet_valid'
  | 'pickup.offline_too_late'
  | 'pickup.not_this_child'
  | 'pickup.revoked'
  | 'pickup.replayed';

/** Refusals that are an unauthorised attempt (a genuine code, but not for this child, or of a revoked person): alert at once. */
export const PICKUP_UNAUTHORISED: readonly PickupRefusal[] = ['pickup.not_this_child', 'pickup.revoked'];
export const isUnauthorisedPickup = (r: PickupRefusal): boolean => PICKUP_UNAUTHORISED.includes(r);

// ---------------------------------------------------------------- bytes

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const B64_INDEX = new Map([...B64].map((c, i) => [c, i]));

export function toB64url(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6));
    for (let k = 0; k < chars; k++) out += B64[(n >> (18 - 6 * k)) & 63];
  }
  return out;
}

/** null when it is not canonical unpadded base64url */
export function fromB64url(text: string): Uint8Array | null {
  if (text.length % 4 === 1) return null;
  const out = new Uint8Array(Math.floor((text.length * 6) / 8));
  let bits = 0;
  let acc = 0;
  let j = 0;
  for (const c of text) {
    const v = B64_INDEX.get(c);
    if (v === undefined) return null;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[j++] = (acc >> bits) & 255;
    }
  }
  // leftover bits must be zero (one text per byte string)
  if (acc & ((1 << bits) - 1)) return null;
  return out;
}

const utf8 = (s: string) => new TextEncoder().encode(s);

// ---------------------------------------------------------------- keys and signing (the server)

/** A new key pair for a school, base64url: the private key stays on the server, the public key goes to staff phones. */
export function pickupKeyPair(): { privateKey: string; publicKey: string } {
  const secret = ed25519.utils.randomPrivateKey();
  return { privateKey: toB64url(secret), publicKey: toB64url(ed25519.getPublicKey(secret)) };
}

export const pickupWindowOf = (ms: number): number => Math.floor(ms / 1000 / PICKUP_WINDOW_SECONDS);
/** when the window ends (ms): the page shows the next code then */
export const pickupWindowEnd = (window: number): number => (window + 1) * PICKUP_WINDOW_SECONDS * 1000;

export function pickupPersonKey(p: PickupPerson): string {
  return `${p.kind}${p.id}`;
}
export function parsePickupPerson(key: string): PickupPerson | null {
  const m = /^([gp])([1-9]\d{0,9})$/.exec(key);
  return m ? { kind: m[1] as 'g' | 'p', id: Number(m[2]) } : null;
}

/** Signs a code for `person` and `students` at `nowMs` with the school's private key (base64url). */
export function signPickupCode(
  privateKey: string,
  fields: { school: number; person: PickupPerson; students: readonly number[]; nowMs: number; nonce?: string },
): string {
  const nonce = fields.nonce ?? toB64url(ed25519.utils.randomPrivateKey().subarray(0, 9));
  const payload: PickupPayload = {
    school: fields.school,
    person: pickupPersonKey(fields.person),
    students: [...fields.students].sort((a, b) => a - b),
    window: pickupWindowOf(fields.nowMs),
    nonce,
  };
  const body = toB64url(utf8(JSON.stringify(payload)));
  const secret = fromB64url(privateKey);
  if (!secret) throw new Error('pickup: bad private key');
  return `${PICKUP_CODE_PREFIX}.${body}.${toB64url(ed25519.sign(utf8(body), secret))}`;
}

// ---------------------------------------------------------------- the rules

export interface ParsedPickupCode {
  /** the text as scanned, trimmed */
  code: string;
  payload: PickupPayload;
  person: PickupPerson;
  /** the signed bytes (the payload part) */
  body: string;
  signature: Uint8Array;
}

const posInt = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) > 0;

/** A code's parts, or null when it is not a well-formed code (no signature check). */
export function parsePickupCode(text: string): ParsedPickupCode | null {
  const code = text.trim();
  if (code.length > 2000) return null;
  const parts = code.split('.');
  if (parts.length !== 3 || parts[0] !== PICKUP_CODE_PREFIX) return null;
  const [, body, sig] = parts;
  const bytes = fromB64url(body);
  const signature = fromB64url(sig);
  if (!bytes || !signature || signature.length !== 64) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return null;
  }
  const p = raw as Record<string, unknown>;
  if (!p || typeof p !== 'object' || Array.isArray(p)) return null;
  if (!posInt(p.school) || !Number.isSafeInteger(p.window) || (p.window as number) < 0) return null;
  if (typeof p.nonce !== 'string' || p.nonce.length > 64 || typeof p.person !== 'string') return null;
  if (!Array.isArray(p.students) || !p.students.length || p.students.length > 20 || !p.students.every(posInt)) return null;
  const person = parsePickupPerson(p.person);
  if (!person) return null;
  const payload: PickupPayload = {
    school: p.school,
    person: p.person,
    students: p.students as number[],
    window: p.window as number,
    nonce: p.nonce,
  };
  return { code, payload, person, body, signature };
}

/** Whether the code was signed with the private key of `publicKey` (base64url). */
export function pickupSignatureValid(parsed: ParsedPickupCode, publicKey: string): boolean {
  const key = fromB64url(publicKey);
  if (!key || key.length !== 32) return false;
  try {
    return ed25519.verify(parsed.signature, utf8(parsed.body), key);
  } catch {
    return false;
  }
}

/** The code's id (replay): base64url of the SHA-256 of its text. */
export const pickupCodeId = (code: string): string => toB64url(sha256(utf8(code.trim())));

/** Whether a code of `window` is good at `atMs`: its window and the next, widened by the skew both ways. */
export function pickupTimeRefusal(window: number, atMs: number): 'pickup.expired' | 'pickup.not_yet_valid' | null {
  const from = (window * PICKUP_WINDOW_SECONDS - PICKUP_SKEW_SECONDS) * 1000;
  const until = ((window + PICKUP_VALID_WINDOWS) * PICKUP_WINDOW_SECONDS + PICKUP_SKEW_SECONDS) * 1000;
  if (atMs < from) return 'pickup.not_yet_valid';
  if (atMs >= until) return 'pickup.expired';
  return null;
}

/**
 * Offline reconciliation: a departure verified on the phone at `verifiedAtMs` reaches the server at `nowMs`. Accepted
 * within 5 minutes of its verification (and not from the future beyond the skew); then the code is judged at
 * `verifiedAtMs`.
 */
export function pickupOfflineRefusal(verifiedAtMs: number, nowMs: number): 'pickup.offline_too_late' | 'pickup.not_yet_valid' | null {
  if (verifiedAtMs > nowMs + PICKUP_SKEW_SECONDS * 1000) return 'pickup.not_yet_valid';
  if (nowMs - verifiedAtMs > PICKUP_OFFLINE_SECONDS * 1000) return 'pickup.offline_too_late';
  return null;
}

export type PickupCheck =
  | { ok: true; parsed: ParsedPickupCode; codeId: string; offline: boolean; atMs: number }
  | { ok: false; reason: PickupRefusal; parsed?: ParsedPickupCode; codeId?: string };

/**
 * Every rule a code can be judged by without the database, in order: well-formed, signed by this school's key, of
 * this school, (offline: arrived within 5 minutes), good at the time it was verified (verifiedAtMs, else now), for
 * every one of `students`. The server adds the person's standing (revoked, still a guardian, not deleted) and replay.
 */
export function checkPickupCode(input: {
  code: string;
  publicKey: string;
  school: number;
  students: readonly number[];
  nowMs: number;
  /** offline: when the phone verified it */
  verifiedAtMs?: number | null;
}): PickupCheck {
  const parsed = parsePickupCode(input.code);
  if (!parsed) return { ok: false, reason: 'pickup.malformed' };
  const codeId = pickupCodeId(parsed.code);
  const no = (reason: PickupRefusal): PickupCheck => ({ ok: false, reason, parsed, codeId });
  if (!pickupSignatureValid(parsed, input.publicKey)) return no('pickup.bad_signature');
  if (parsed.payload.school !== input.school) return no('pickup.other_school');
  const offline = input.verifiedAtMs !== undefined && input.verifiedAtMs !== null;
  if (offline) {
    const late = pickupOfflineRefusal(input.verifiedAtMs!, input.nowMs);
    if (late) return no(late);
  }
  const atMs = offline ? input.verifiedAtMs! : input.nowMs;
  const time = pickupTimeRefusal(parsed.payload.window, atMs);
  if (time) return no(time);
  if (!input.students.length || !input.students.every((s) => parsed.payload.students.includes(s))) return no('pickup.not_this_child');
  return { ok: true, parsed, codeId, offline, atMs };
}

/**
 * Replay: one departure per code. `used` is the departure already recorded with this code id (its event id), if any;
 * the same event id again is a retry of that very departure (an offline queue sent twice): it counts once.
 */
export function pickupReplay(used: { event_id: string } | null | undefined, eventId: string): 'fresh' | 'same' | 'pickup.replayed' {
  if (!used) return 'fresh';
  return used.event_id.toLowerCase() === eventId.toLowerCase() ? 'same' : 'pickup.replayed';
}

/** What a verified departure's event payload carries (student.left). */
export interface PickupVerified {
  person: string;
  name: string;
  relation: string;
  code_id: string;
  offline: boolean;
}
