import {
  checkPickupCode,
  fromB64url,
  isUnauthorisedPickup,
  parsePickupCode,
  pickupCodeId,
  pickupKeyPair,
  pickupOfflineRefusal,
  pickupReplay,
  pickupSignatureValid,
  pickupTimeRefusal,
  pickupWindowEnd,
  pickupWindowOf,
  signPickupCode,
  toB64url,
  type PickupRefusal,
} from './pickup-codes';

const keys = pickupKeyPair();
const other = pickupKeyPair();
/** 2026-03-02T09:00:00Z, the start of a window (divisible by 30 s) */
const T0 = Date.UTC(2026, 2, 2, 9, 0, 0);
const S = 1000;
const code = (over: Partial<{ school: number; students: number[]; nowMs: number; key: string; person: 'g' | 'p' }> = {}) =>
  signPickupCode(over.key ?? keys.privateKey, {
    school: over.school ?? 7,
    person: { kind: over.person ?? 'g', id: 12 },
    students: over.students ?? [3, 1],
    nowMs: over.nowMs ?? T0,
  });

describe('base64url', () => {
  it.each([[''], ['f'], ['fo'], ['foo'], ['foob'], ['fooba'], ['foobar'], ['接送码✓']])('round-trips %j', (s) => {
    const bytes = new TextEncoder().encode(s);
    const text = toB64url(bytes);
    expect(text).not.toMatch(/[+/=]/);
    expect(fromB64url(text)).toEqual(bytes);
  });
  it.each(['a', 'ab+c', 'ab/c', 'ab=', 'Zh'])('refuses %j', (s) => expect(fromB64url(s)).toBeNull());
});

describe('parse and signature', () => {
  it('signs a payload the parser reads back (students sorted, person key)', () => {
    const c = code();
    expect(c).toMatch(/^PK1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{86}$/);
    const p = parsePickupCode(`  ${c}\n`)!;
    expect(p.payload).toMatchObject({ school: 7, person: 'g12', students: [1, 3], window: pickupWindowOf(T0) });
    expect(p.person).toEqual({ kind: 'g', id: 12 });
    expect(pickupSignatureValid(p, keys.publicKey)).toBe(true);
    expect(pickupSignatureValid(p, other.publicKey)).toBe(false);
  });

  const c = code();
  const [, body, sig] = c.split('.');
  const json = (o: unknown) => toB64url(new TextEncoder().encode(JSON.stringify(o)));
  const good = JSON.parse(new TextDecoder().decode(fromB64url(body)!));
  it.each<[string, string]>([
    ['empty', ''],
    ['other prefix', `PK2.${body}.${sig}`],
    ['two parts', `PK1.${body}`],
    ['four parts', `${c}.x`],
    ['short signature', `PK1.${body}.${sig.slice(0, 40)}`],
    ['not base64url', `PK1.${body}!.${sig}`],
    ['not JSON', `PK1.${toB64url(new TextEncoder().encode('{school'))}.${sig}`],
    ['an array', `PK1.${json([1])}.${sig}`],
    ['bad person', `PK1.${json({ ...good, person: 'x12' })}.${sig}`],
    ['person zero', `PK1.${json({ ...good, person: 'p0' })}.${sig}`],
    ['no students', `PK1.${json({ ...good, students: [] })}.${sig}`],
    ['a student not an id', `PK1.${json({ ...good, students: [1.5] })}.${sig}`],
    ['school missing', `PK1.${json({ ...good, school: undefined })}.${sig}`],
    ['negative window', `PK1.${json({ ...good, window: -1 })}.${sig}`],
    ['a URL', 'https://example.com/qr_scan?ticket=abc'],
  ])('malformed: %s', (_, text) => expect(parsePickupCode(text)).toBeNull());

  it('a changed payload fails the signature', () => {
    const forged = `PK1.${json({ ...good, students: [1, 3, 4] })}.${sig}`;
    expect(pickupSignatureValid(parsePickupCode(forged)!, keys.publicKey)).toBe(false);
  });
  it('a bad public key never throws', () => {
    expect(pickupSignatureValid(parsePickupCode(c)!, 'abc')).toBe(false);
    expect(pickupSignatureValid(parsePickupCode(c)!, toB64url(new Uint8Array(32)))).toBe(false);
  });
  it('the code id is the hash of the text (stable, distinct per code)', () => {
    expect(pickupCodeId(c)).toBe(pickupCodeId(` ${c} `));
    expect(pickupCodeId(c)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(pickupCodeId(code())).not.toBe(pickupCodeId(c)); // another nonce
  });
});

describe('expiry: its window and the next, ±30 s skew', () => {
  const w = pickupWindowOf(T0);
  it('window end', () => expect(pickupWindowEnd(w)).toBe(T0 + 30 * S));
  it.each<[string, number, ReturnType<typeof pickupTimeRefusal>]>([
    ['31 s before its window (clock skew beyond 30 s)', T0 - 31 * S, 'pickup.not_yet_valid'],
    ['30 s before its window (skew)', T0 - 30 * S, null],
    ['at its start', T0, null],
    ['in the next window', T0 + 59 * S, null],
    ['60 s later (skew)', T0 + 60 * S, null],
    ['89.999 s later', T0 + 89_999, null],
    ['90 s later', T0 + 90 * S, 'pickup.expired'],
    ['an hour later', T0 + 3600 * S, 'pickup.expired'],
  ])('%s', (_, at, want) => expect(pickupTimeRefusal(w, at)).toBe(want));
});

describe('offline reconciliation', () => {
  it.each<[string, number, number, ReturnType<typeof pickupOfflineRefusal>]>([
    ['arrives at once', T0, T0, null],
    ['arrives 4:59 later', T0, T0 + 299 * S, null],
    ['arrives exactly 5 min later', T0, T0 + 300 * S, null],
    ['arrives 5:01 later', T0, T0 + 301 * S, 'pickup.offline_too_late'],
    ['verified 30 s in the server future (skew)', T0 + 30 * S, T0, null],
    ['verified 31 s in the future', T0 + 31 * S, T0, 'pickup.not_yet_valid'],
  ])('%s', (_, verified, now, want) => expect(pickupOfflineRefusal(verified, now)).toBe(want));
});

describe('checkPickupCode', () => {
  const c = code({ nowMs: T0 });
  const base = { code: c, publicKey: keys.publicKey, school: 7, students: [1], nowMs: T0 + 10 * S };
  it.each<[string, Partial<Parameters<typeof checkPickupCode>[0]>, PickupRefusal | null]>([
    ['happy: one of its children', {}, null],
    ['happy: both siblings', { students: [3, 1] }, null],
    ['malformed', { code: 'hello' }, 'pickup.malformed'],
    ['another key', { publicKey: other.publicKey }, 'pickup.bad_signature'],
    ['another school (signed by it)', { code: code({ school: 8 }) }, 'pickup.other_school'],
    ['another school (its key)', { code: code({ school: 8, key: other.privateKey }) }, 'pickup.bad_signature'],
    ['expired online', { nowMs: T0 + 120 * S }, 'pickup.expired'],
    ['not this child', { students: [2] }, 'pickup.not_this_child'],
    ['one child not in it', { students: [1, 2] }, 'pickup.not_this_child'],
    ['no student', { students: [] }, 'pickup.not_this_child'],
    ['offline: verified in time, arrives 4 min later', { verifiedAtMs: T0 + 20 * S, nowMs: T0 + 260 * S }, null],
    ['offline: verified in time, arrives 6 min later', { verifiedAtMs: T0 + 20 * S, nowMs: T0 + 380 * S }, 'pickup.offline_too_late'],
    ['offline: expired when verified', { verifiedAtMs: T0 + 100 * S, nowMs: T0 + 110 * S }, 'pickup.expired'],
    ['offline: valid at verification though expired on arrival', { verifiedAtMs: T0 + 50 * S, nowMs: T0 + 200 * S }, null],
    ['offline, not this child', { verifiedAtMs: T0, nowMs: T0 + 60 * S, students: [9] }, 'pickup.not_this_child'],
  ])('%s', (_, over, want) => {
    const r = checkPickupCode({ ...base, ...over });
    expect(r.ok ? null : r.reason).toBe(want);
    if (r.ok) {
      expect(r.offline).toBe(over.verifiedAtMs !== undefined);
      expect(r.codeId).toBe(pickupCodeId(over.code ?? c));
    }
  });

  it('judges the offline code at its verification time', () => {
    const r = checkPickupCode({ ...base, verifiedAtMs: T0 + 50 * S, nowMs: T0 + 200 * S });
    expect(r).toMatchObject({ ok: true, offline: true, atMs: T0 + 50 * S });
  });

  it.each<[PickupRefusal, boolean]>([
    ['pickup.not_this_child', true],
    ['pickup.revoked', true],
    ['pickup.expired', false],
    ['pickup.bad_signature', false],
    ['pickup.replayed', false],
  ])('%s is an unauthorised attempt: %s', (r, want) => expect(isUnauthorisedPickup(r)).toBe(want));
});

describe('replay: one departure per code', () => {
  const E1 = '6f1c7a4e-9d1b-4c3a-8f0e-1a2b3c4d5e6f';
  const E2 = '0b9e2f7d-3c4a-4d5e-9f60-7a8b9c0d1e2f';
  it.each<[string, { event_id: string } | null, string, ReturnType<typeof pickupReplay>]>([
    ['first use', null, E1, 'fresh'],
    ['used by another departure', { event_id: E1 }, E2, 'pickup.replayed'],
    ['the same departure again (offline queue sent twice, online retry): counts once', { event_id: E1 }, E1, 'same'],
    ['same, other case', { event_id: E1.toUpperCase() }, E1, 'same'],
  ])('%s', (_, used, eventId, want) => expect(pickupReplay(used, eventId)).toBe(want));
});
