import { pickupKeyPair, signPickupCode, type PickupVerifyKeyAnswer } from '@wantuo/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { checkLocally, markUsed } from './verify';

const pair = pickupKeyPair();
const key: PickupVerifyKeyAnswer = {
  school_id: 1,
  public_key: pair.publicKey,
  people: [{ person: 'g4', name: '陈家长', relation: '父亲', students: [1, 2] }],
  revoked: ['p9'],
  fetched_at: new Date().toISOString(),
};
const code = (person: { kind: 'g' | 'p'; id: number } = { kind: 'g', id: 4 }, students = [1, 2], nowMs = Date.now()) =>
  signPickupCode(pair.privateKey, { school: 1, person, students, nowMs });

describe("the teacher's phone's own check of a pick-up code", () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => vi.useRealTimers());

  it.each([
    ['the guardian for a child in the code', () => code(), [1], { ok: true }],
    ['another child', () => code(), [3], { ok: false, reason: 'pickup.not_this_child' }],
    ['a revoked pick-up person', () => code({ kind: 'p', id: 9 }, [1]), [1], { ok: false, reason: 'pickup.revoked' }],
    ['ten minutes old', () => code(undefined, [1, 2], Date.now() - 10 * 60_000), [1], { ok: false, reason: 'pickup.expired' }],
    [
      'another school’s key',
      () => signPickupCode(pickupKeyPair().privateKey, { school: 1, person: { kind: 'g', id: 4 }, students: [1], nowMs: Date.now() }),
      [1],
      { ok: false, reason: 'pickup.bad_signature' },
    ],
  ] as const)('%s', (_, make, students, expected) => {
    expect(checkLocally(key, make(), [...students])).toMatchObject(expected);
  });

  it('names the person from the cached people', () => {
    expect(checkLocally(key, code(), [1]).person).toEqual({ person: 'g4', name: '陈家长', relation: '父亲' });
  });

  it('a code this phone used is refused as replayed, offline too; another code is not; forgotten after ten minutes', () => {
    vi.useFakeTimers({ now: new Date('2026-11-27T09:00:00Z') });
    const used = code();
    markUsed(used);
    expect(checkLocally(key, used, [2])).toEqual({ ok: false, reason: 'pickup.replayed' });
    expect(checkLocally(key, code(), [2]).ok).toBe(true);
    vi.setSystemTime(new Date('2026-11-27T09:11:00Z'));
    // by then the code itself has expired: the memory is not what refuses it
    expect(checkLocally(key, used, [2])).toEqual({ ok: false, reason: 'pickup.expired' });
    expect(JSON.parse(localStorage.getItem('wantuo.pickup.used') ?? '{}')).toBeTruthy();
  });
});
