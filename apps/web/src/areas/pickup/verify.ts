import { checkPickupCode, pickupCodeId, type PickupRefusal, type PickupVerifyKeyAnswer } from '@wantuo/shared';
import { ApiError, get, post } from '../../api/http';

/**
 * The teacher's phone's side of verified pick-up: the school's public key and people cached for offline checks,
 * the local check with the shared rules, and the queue of departures verified offline (sent when back online,
 * with verified_at; the server accepts them within 5 minutes).
 */
const KEY_CACHE = 'wantuo.pickup.key';
const QUEUE = 'wantuo.pickup.queue';
const USED = 'wantuo.pickup.used';
/** How long this phone remembers a code it used (a code is never good for longer). */
const USED_KEEP_MS = 10 * 60_000;

/** The codes this phone recorded a departure with (code id → when), the old ones dropped. */
function usedCodes(now = Date.now()): Record<string, number> {
  const all = JSON.parse(localStorage.getItem(USED) ?? '{}') as Record<string, number>;
  return Object.fromEntries(Object.entries(all).filter(([, at]) => now - at < USED_KEEP_MS));
}

/** A departure went (or was queued) with this code: this phone refuses it from now on, offline too. */
export function markUsed(code: string): void {
  localStorage.setItem(USED, JSON.stringify({ ...usedCodes(), [pickupCodeId(code)]: Date.now() }));
}

export async function verifyKey(): Promise<PickupVerifyKeyAnswer | null> {
  try {
    const key = await get('pickupVerifyKey', {}, { silent: true });
    localStorage.setItem(KEY_CACHE, JSON.stringify(key));
    return key;
  } catch {
    const cached = localStorage.getItem(KEY_CACHE);
    return cached ? (JSON.parse(cached) as PickupVerifyKeyAnswer) : null;
  }
}

export interface LocalCheck {
  ok: boolean;
  reason?: PickupRefusal;
  person?: { person: string; name: string; relation: string };
}

/** Checks a scanned code on the phone for these students (signature, school, time, children, revoked people). */
export function checkLocally(key: PickupVerifyKeyAnswer, code: string, studentIds: number[]): LocalCheck {
  const r = checkPickupCode({ code, publicKey: key.public_key, school: key.school_id, students: studentIds, nowMs: Date.now() });
  if (!r.ok) return { ok: false, reason: r.reason };
  // one departure per code: this phone knows its own (the API knows every phone's)
  if (usedCodes()[pickupCodeId(code)]) return { ok: false, reason: 'pickup.replayed' };
  const who = r.parsed.payload.person;
  if (key.revoked.includes(who)) return { ok: false, reason: 'pickup.revoked' };
  const known = key.people.find((p) => p.person === who);
  return { ok: true, person: known ? { person: who, name: known.name, relation: known.relation } : { person: who, name: '', relation: '' } };
}

interface Queued {
  student_ids: number[];
  pickup_code: string;
  verified_at: string;
  event_id: string;
}

const readQueue = (): Queued[] => JSON.parse(localStorage.getItem(QUEUE) ?? '[]') as Queued[];
const writeQueue = (q: Queued[]) => localStorage.setItem(QUEUE, JSON.stringify(q));
export const queuedCount = () => readQueue().length;

/** A departure verified offline: kept until the network is back. */
export function enqueue(item: Queued) {
  writeQueue([...readQueue(), item]);
}

/** Sends the queued departures; a refused one is dropped (the server's answer is final), a network failure keeps it. */
export async function flushQueue(): Promise<{ sent: number; refused: string[] }> {
  const refused: string[] = [];
  let sent = 0;
  for (const item of readQueue()) {
    try {
      await post('studentLiyuan', { ...item, picked_up_by: null }, { silent: true });
      sent++;
    } catch (err) {
      if (isOffline(err)) break;
      refused.push((err as ApiError).message);
    }
    writeQueue(readQueue().filter((q) => q.event_id !== item.event_id));
  }
  return { sent, refused };
}

/** Whether an error is the network rather than the server's answer. */
export const isOffline = (err: unknown) => !(err instanceof ApiError) || err.code === 0;
