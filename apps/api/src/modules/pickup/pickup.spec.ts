import { Code, pickupKeyPair, signPickupCode } from '@wantuo/shared';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { snapshot, startTestApp, type TestApp } from '../../../test/harness';
import { loadConfig } from '../../core/config/config';
import { AlertsListener } from '../alerts/alerts.listener';
import { AlertsService } from '../alerts/alerts.service';
import { openPrivateKey, PickupKeyError, pickupKeyringConfig, type PickupKeyring } from './pickup-keyring';
import { resealPickupKeys } from './pickup-keys.repository';
import { PickupService } from './pickup.service';

let t: TestApp;
let teacher: string;
let adviser: string;
let parent: string;
let parentId: number;
/** the parent's two children (in the running class) */
let mine: number[];
/** a classmate who is not the parent's */
let classmate: number;
let schoolId: number;

const path = (a: string) => `/api/index/${a}`;
const FORBIDDEN = '当前账号没有权限执行此操作';

beforeAll(async () => {
  t = await startTestApp({ runJobs: false, demoPeople: true });
  [teacher, adviser, parent] = await Promise.all([t.login('teacher'), t.login('adviser'), t.login('parent')]);
  const { rows } = await t.sql.query(
    `select u.id, u.school_id, array(select g.student_id from student_guardians g join care_class_students c on c.student_id = g.student_id
                                      where g.user_id = u.id and c.class_id = $1 order by g.student_id) as kids
       from users u where u.username = 'parent'`,
    [t.demo.classes!.running],
  );
  [{ id: parentId, school_id: schoolId, kids: mine }] = rows;
  expect(mine.length).toBe(2);
  const other = await t.sql.query(
    `select c.student_id from care_class_students c where c.class_id = $1 and c.student_id <> all($2::int[]) order by c.student_id limit 1`,
    [t.demo.classes!.running, mine],
  );
  classmate = other.rows[0].student_id;
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.sql.query(`delete from student_days; delete from flow_events; delete from pickup_used_codes; delete from pickup_attempts;
                     update pickup_links set revoked_at = now() where revoked_at is null`);
  await enter([...mine, classmate]);
});

async function enter(ids: number[]) {
  const res = await t.post(path('studentEnter'), teacher).send({ student_ids: ids });
  expect(res.body.data.results.every((r: { ok: boolean }) => r.ok)).toBe(true);
}

const leave = (token: string, body: Record<string, unknown>) => t.post(path('studentLiyuan'), token).send({ picked_up_by: null, ...body });

async function guardianCode(): Promise<string> {
  const res = await t.get(path('pickupCode'), parent);
  expect(res.body.code).toBe(Code.Ok);
  return res.body.data.code;
}

/** a code signed with the school's stored key at another time */
async function codeAt(nowMs: number, person: { kind: 'g' | 'p'; id: number } = { kind: 'g', id: parentId }, students = mine) {
  const { privateKey } = await keyOfSchool();
  return signPickupCode(privateKey, { school: schoolId, person, students, nowMs });
}
/** the school's key as the API opens it (the table holds it sealed) */
async function keyOfSchool() {
  await t.get(path('pickupVerifyKey'), teacher);
  return t.app.get(PickupService).keyOf(schoolId);
}

async function leftPayload(studentId: number) {
  const { rows } = await t.sql.query(`select payload from flow_events where student_id = $1 and type = 'student.left'`, [studentId]);
  return rows.map((r) => r.payload);
}
const attempts = async () => (await t.sql.query(`select result, offline from pickup_attempts order by id`)).rows;
/** the alerts module raises and tells an unauthorised attempt after its commit ('pickup.unauthorised'): wait for it */
const alertsSettled = () => t.app.get(AlertsListener).settled();
const alertTexts = async () => {
  await alertsSettled();
  const sql = `select mobile, params->>'what' as what, params->>'student' as student from sms_messages where kind = 'alert.raised' order by id`;
  return (await t.sql.query(sql)).rows;
};

async function shareLinkFor(studentId: number) {
  const list = await t.get(path('pickupShareLinks'), parent);
  expect(list.body.code).toBe(Code.Ok);
  const person = list.body.data.list.find((r: { students: Array<{ id: number }> }) => r.students[0].id === studentId);
  const res = await t.post(path('pickupShareLink'), parent).send({ pickup_person_id: person.pickup_person_id });
  expect(res.body.code).toBe(Code.Ok);
  expect(res.body.data.path).toBe(`/m/pickup/${res.body.data.token}`);
  return { ...res.body.data, person: person.pickup_person_id as number };
}

describe('verified departures', () => {
  it("the guardian's code: both children leave with the verified guardian, once", async () => {
    const code = await guardianCode();
    const res = await leave(teacher, { student_ids: mine, pickup_code: code });
    expect(res.body.code).toBe(Code.Ok);
    expect(res.body.data.results.map((r: { ok: boolean; state: string }) => [r.ok, r.state])).toEqual([
      [true, 'left'],
      [true, 'left'],
    ]);
    const [payload] = await leftPayload(mine[0]);
    expect(payload).toMatchObject({ picked_up_by: null, pickup_verified: { person: `g${parentId}`, offline: false } });
    expect(payload.pickup_verified.name).toBeTruthy();
    expect(payload.pickup_verified.relation).toBeTruthy();
    // the timeline answers it
    const info = await t.get(
      `${path('clockingInInfo')}?student_id=${mine[0]}&date=${(await t.sql.query(`select day::text from student_days limit 1`)).rows[0].day}`,
      parent,
    );
    expect(info.body.data.events.at(-1).payload.pickup_verified.person).toBe(`g${parentId}`);
    expect(await attempts()).toEqual([{ result: 'ok', offline: false }]);
  });

  it("a pick-up person's link: their own code, no account needed; revoked: the link and their codes stop at once (alert)", async () => {
    const link = await shareLinkFor(mine[0]);
    const byLink = await t.get(`${path('pickupCodeByLink')}?token=${link.token}`);
    expect(byLink.body.code).toBe(Code.Ok);
    expect(byLink.body.data).toMatchObject({ person: `p${link.person}`, students: [{ id: mine[0] }] });
    const ok = await leave(teacher, { student_ids: [mine[0]], pickup_code: byLink.body.data.code });
    expect(ok.body.code).toBe(Code.Ok);
    expect((await leftPayload(mine[0]))[0]).toMatchObject({ picked_up_by: link.person, pickup_verified: { person: `p${link.person}` } });

    // the person's link is revoked: a code they took before is refused (another departure of the child), and alerts
    await t.sql.query(`delete from student_days; delete from flow_events`);
    await enter(mine);
    const again = await t.get(`${path('pickupCodeByLink')}?token=${link.token}`);
    const list = await t.get(path('pickupShareLinks'), parent);
    const row = list.body.data.list.find((r: { pickup_person_id: number }) => r.pickup_person_id === link.person);
    expect(row.link.id).toBe(link.id);
    expect((await t.post(path('pickupRevoke'), parent).send({ link_id: link.id })).body.code).toBe(Code.Ok);
    expect((await t.post(path('pickupRevoke'), parent).send({ link_id: link.id })).body).toMatchObject({
      code: Code.Error,
      msg: '接送链接不存在或已撤销',
    });
    expect((await t.get(`${path('pickupCodeByLink')}?token=${link.token}`)).body).toMatchObject({ code: Code.Error, msg: '接送链接不存在或已撤销' });
    const before = (await alertTexts()).length;
    const refused = await leave(teacher, { student_ids: [mine[0]], pickup_code: again.body.data.code });
    expect(refused.body).toMatchObject({ code: Code.Error, msg: '未授权：此接送人的接送授权已被撤销', data: { reason: 'pickup.revoked' } });
    expect(await leftPayload(mine[0])).toEqual([]);
    const texts = (await alertTexts()).slice(before);
    expect(texts).toContainEqual(expect.objectContaining({ mobile: '13800000005', what: '未授权接送尝试' }));
    expect(texts.length).toBeGreaterThanOrEqual(2); // the head teacher and the guardians (by SMS without WeChat)
    expect((await attempts()).map((a) => a.result)).toEqual(['ok', 'pickup.revoked']);
  });

  it("a pick-up person's link goes to their mobile by SMS ('pickup.link', in the outbox with the link); none without a mobile", async () => {
    const list = await t.get(path('pickupShareLinks'), parent);
    const person = list.body.data.list.find((r: { students: Array<{ id: number }> }) => r.students[0].id === mine[0]);
    const mobile = '13900000271';
    await t.sql.query(`update pickup_people set mobile = $2 where id = $1`, [person.pickup_person_id, mobile]);
    const texts = async () =>
      (await t.sql.query(`select kind, content, params from sms_messages where mobile = $1 order by id`, [mobile])).rows as Array<{
        kind: string;
        content: string;
        params: Record<string, string>;
      }>;
    const res = await t.post(path('pickupShareLink'), parent).send({ pickup_person_id: person.pickup_person_id });
    expect(res.body.code).toBe(Code.Ok);
    expect(res.body.data).toMatchObject({ sent: true, url: expect.stringMatching(new RegExp(`/m/pickup/${res.body.data.token}$`)) });
    const [sms] = await texts();
    expect(sms).toMatchObject({ kind: 'pickup.link', params: { person: person.name, url: res.body.data.url } });
    expect(sms.params.student).toBeTruthy();
    expect(sms.params.school).toBeTruthy();
    expect(sms.content).toContain(res.body.data.url);
    expect(sms.content).toContain(person.name);
    // a new link is a new text; a person without a (valid) mobile: the link, not sent
    expect((await t.post(path('pickupShareLink'), parent).send({ pickup_person_id: person.pickup_person_id })).body.data.sent).toBe(true);
    expect((await texts()).length).toBe(2);
    await t.sql.query(`update pickup_people set mobile = '' where id = $1`, [person.pickup_person_id]);
    const silent = await t.post(path('pickupShareLink'), parent).send({ pickup_person_id: person.pickup_person_id });
    expect(silent.body).toMatchObject({ code: Code.Ok, data: { sent: false } });
    expect(
      (await t.sql.query(`select count(*)::int as n from sms_messages where kind = 'pickup.link' and params->>'url' = $1`, [silent.body.data.url]))
        .rows[0].n,
    ).toBe(0);
    await t.sql.query(`update pickup_people set mobile = $2 where id = $1`, [person.pickup_person_id, person.mobile]);
  });

  it('replayed: one departure per code; the same departure sent again counts once', async () => {
    const code = await guardianCode();
    const eventId = randomUUID();
    expect((await leave(teacher, { student_ids: [mine[0]], pickup_code: code, event_id: eventId })).body.code).toBe(Code.Ok);
    const same = await leave(teacher, { student_ids: [mine[0]], pickup_code: code, event_id: eventId });
    expect(same.body.code).toBe(Code.Ok);
    expect(same.body.data.results[0]).toMatchObject({ ok: true, event_id: eventId });
    const replay = await leave(teacher, { student_ids: [mine[1]], pickup_code: code });
    expect(replay.body).toMatchObject({ code: Code.Error, msg: '此接送码已经使用过（每个码只能离园一次）' });
    expect(await leftPayload(mine[1])).toEqual([]);
    expect((await t.sql.query(`select count(*)::int as n from pickup_used_codes`)).rows[0].n).toBe(1);
    // two phones at once with one code: one departure
    const code2 = await guardianCode();
    await t.sql.query(`delete from student_days; delete from flow_events`);
    await enter(mine);
    const both = await Promise.all(mine.map((id) => leave(teacher, { student_ids: [id], pickup_code: code2 })));
    expect(both.map((r) => r.body.code).sort()).toEqual([Code.Error, Code.Ok].sort());
  });

  it('expired: past its window and the next (and the skew)', async () => {
    const code = await codeAt(Date.now() - 120_000);
    const before = (await alertTexts()).length;
    const boardAlerts = async () => {
      await alertsSettled();
      return (await t.sql.query(`select count(*)::int as n from flow_alerts where kind = 'pickup_unauthorised'`)).rows[0].n;
    };
    const raisedBefore = await boardAlerts();
    const res = await leave(teacher, { student_ids: [mine[0]], pickup_code: code });
    expect(res.body).toMatchObject({ code: Code.Error, msg: '接送码已过期，请让家长刷新后重新出示', data: { reason: 'pickup.expired' } });
    expect((await alertTexts()).length).toBe(before);
    expect((await attempts()).map((a) => a.result)).toEqual(['pickup.expired']);
    expect(await boardAlerts()).toBe(raisedBefore);
  });

  it('wrong child: refused, the alert goes to the head teacher and that child’s guardians at once', async () => {
    const code = await guardianCode();
    const before = (await alertTexts()).length;
    const res = await leave(teacher, { student_ids: [classmate], pickup_code: code });
    expect(res.body).toMatchObject({ code: Code.Error, msg: '未授权：此接送码不能接这个孩子', data: { reason: 'pickup.not_this_child' } });
    expect(await leftPayload(classmate)).toEqual([]);
    const texts = (await alertTexts()).slice(before);
    expect(texts).toContainEqual(expect.objectContaining({ mobile: '13800000005', what: '未授权接送尝试' }));
    const { rows } = await t.sql.query(`select count(*)::int as n from student_guardians g where g.student_id = $1`, [classmate]);
    expect(texts.length).toBe(1 + rows[0].n);
    expect((await attempts()).map((a) => a.result)).toEqual(['pickup.not_this_child']);
    // the boards' alert: one row per child and day (a second attempt adds none), listed for the head teacher, kept by the scan
    expect((await leave(teacher, { student_ids: [classmate], pickup_code: code })).body.data).toMatchObject({ reason: 'pickup.not_this_child' });
    const raised = async () => {
      await alertsSettled();
      return (await t.sql.query(`select cleared_at from flow_alerts where student_id = $1 and kind = 'pickup_unauthorised'`, [classmate])).rows;
    };
    expect(await raised()).toEqual([{ cleared_at: null }]);
    await t.app.get(AlertsService).scan();
    expect(await raised()).toEqual([{ cleared_at: null }]);
    const board = await t.get(`${path('flowAlerts')}?open_only=1&limit=50`, adviser);
    expect(board.body.data.list).toContainEqual(expect.objectContaining({ student_id: classmate, kind: 'pickup_unauthorised', cleared_at: null }));
  });

  it('reportPickupAttempt: a code the phone refused itself is checked, logged and alerted; a good one only logged; never a departure', async () => {
    const code = await guardianCode();
    const report = (token: string, body: object) => t.post(path('reportPickupAttempt'), token).send(body);
    const before = (await alertTexts()).length;
    const res = await report(teacher, { student_ids: [classmate], pickup_code: code });
    expect(res.body).toMatchObject({ code: Code.Error, data: { reason: 'pickup.not_this_child' } });
    expect((await alertTexts()).length).toBeGreaterThan(before);
    // a code the API finds good: logged as checked, the child has not left (the teacher still confirms)
    expect((await report(teacher, { student_ids: [mine[0]], pickup_code: code })).body.code).toBe(Code.Ok);
    expect((await attempts()).map((a) => a.result)).toEqual(['pickup.not_this_child', 'checked']);
    expect(await leftPayload(mine[0])).toEqual([]);
    // wrong role, bad input: nothing logged
    const logged = (await attempts()).length;
    expect((await report(parent, { student_ids: [mine[0]], pickup_code: code })).body.msg).toBe('当前账号没有权限执行此操作');
    expect((await report(teacher, { student_ids: [], pickup_code: code })).body.code).toBe(Code.Error);
    expect((await report(teacher, { student_ids: [mine[0]], pickup_code: 'not a code' })).body.code).toBe(Code.Error);
    expect((await attempts()).length).toBe(logged);
    // another school's admin with this school's code: refused, nothing alerted here
    const other = await t.otherSchool();
    const texts = (await alertTexts()).length;
    expect((await report(other.adminToken, { student_ids: [mine[0]], pickup_code: code })).body).toMatchObject({
      code: Code.Error,
      // checked with the other school's own key: not a code it signed
      data: { reason: expect.stringMatching(/^pickup\.(bad_signature|other_school)$/) },
    });
    expect((await alertTexts()).length).toBe(texts);
  });

  it('offline: accepted within 5 minutes of its verification (judged then), refused after', async () => {
    const verified = Date.now() - 190_000;
    const ok = await leave(teacher, {
      student_ids: [mine[0]],
      pickup_code: await codeAt(verified - 10_000),
      verified_at: new Date(verified).toISOString(),
    });
    expect(ok.body.code).toBe(Code.Ok);
    expect((await leftPayload(mine[0]))[0].pickup_verified.offline).toBe(true);
    const late = Date.now() - 330_000;
    const res = await leave(teacher, { student_ids: [mine[1]], pickup_code: await codeAt(late - 10_000), verified_at: new Date(late).toISOString() });
    expect(res.body).toMatchObject({ code: Code.Error, data: { reason: 'pickup.offline_too_late' } });
    expect(await attempts()).toEqual([
      { result: 'ok', offline: true },
      { result: 'pickup.offline_too_late', offline: true },
    ]);
  });

  it('manual departure without a code: the head teacher with a reason (marked by the override); a teacher cannot', async () => {
    const byTeacher = await leave(teacher, { student_ids: [mine[0]], override: '家长电话确认' });
    expect(byTeacher.body.data.results[0]).toMatchObject({ ok: false, error: '只有班主任可以越过规则并填写原因' });
    const byHead = await leave(adviser, { student_ids: [mine[0]], override: '家长电话确认' });
    expect(byHead.body.data.results[0]).toMatchObject({ ok: true, state: 'left' });
    expect((await leftPayload(mine[0]))[0]).toEqual({ override: '家长电话确认', picked_up_by: null });
  });

  it("another school's code is refused", async () => {
    const { schoolId: otherId } = await t.otherSchool();
    const other = pickupKeyPair();
    const foreign = signPickupCode(other.privateKey, { school: otherId, person: { kind: 'g', id: parentId }, students: mine, nowMs: Date.now() });
    expect((await leave(teacher, { student_ids: [mine[0]], pickup_code: foreign })).body).toMatchObject({
      code: Code.Error,
      data: { reason: 'pickup.bad_signature' },
    });
    // signed with this school's key for another school (cannot happen unless the key leaked): still refused
    const { privateKey } = await keyOfSchool();
    const crossed = signPickupCode(privateKey, { school: otherId, person: { kind: 'g', id: parentId }, students: mine, nowMs: Date.now() });
    expect((await leave(teacher, { student_ids: [mine[0]], pickup_code: crossed })).body).toMatchObject({ data: { reason: 'pickup.other_school' } });
    expect(await leftPayload(mine[0])).toEqual([]);
  });

  it.each<[string, Record<string, unknown>]>([
    ['not a code', { pickup_code: 'hello' }],
    ['too long', { pickup_code: `PK1.${'a'.repeat(2000)}.b` }],
    ['verified_at without a code', { verified_at: new Date().toISOString() }],
    ['verified_at not a time', { pickup_code: 'PK1.a.b', verified_at: 'yesterday' }],
    ['a number', { pickup_code: 5 }],
  ])('bad input (%s): code 100, nothing written', async (_, body) => {
    const before = await snapshot(t.sql);
    const res = await leave(teacher, { student_ids: [mine[0]], ...body });
    expect(res.body.code).toBe(Code.Error);
    expect(await snapshot(t.sql)).toEqual(before);
    expect(await attempts()).toEqual([]);
  });
});

describe('codes, links and the key', () => {
  it('pickupCode: the code with its window end', async () => {
    const res = await t.get(path('pickupCode'), parent);
    expect(res.body.data).toMatchObject({ person: `g${parentId}`, students: mine.map((id) => ({ id })) });
    const ends = Date.parse(res.body.data.window_ends_at);
    expect(ends % 30_000).toBe(0);
    expect(ends - Date.now()).toBeLessThanOrEqual(30_000);
    expect(Date.parse(res.body.data.valid_until) - ends).toBe(30_000);
  });

  it('pickupVerifyKey: the public key and the people for offline checks, never the private key', async () => {
    const res = await t.get(path('pickupVerifyKey'), teacher);
    expect(res.body.code).toBe(Code.Ok);
    expect(res.body.data.public_key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(res.body)).not.toContain((await keyOfSchool()).privateKey);
    expect(res.body.data.people).toContainEqual(expect.objectContaining({ person: `g${parentId}`, students: mine }));
  });

  it.each<[string, string, 'teacher' | 'parent']>([
    ['GET', 'pickupCode', 'teacher'],
    ['GET', 'pickupShareLinks', 'teacher'],
    ['POST', 'pickupShareLink', 'teacher'],
    ['GET', 'pickupVerifyKey', 'parent'],
  ])('wrong role: %s %s as %s', async (method, action, who) => {
    const token = who === 'teacher' ? teacher : parent;
    const res = method === 'GET' ? await t.get(path(action), token) : await t.post(path(action), token).send({ pickup_person_id: 1 });
    expect(res.body).toMatchObject({ code: Code.Error, msg: FORBIDDEN });
  });

  it("another school's pick-up person or link is unknown; a bad token is code 100", async () => {
    const { rows } = await t.sql.query(`select p.id from pickup_people p where p.student_id = $1 limit 1`, [classmate]);
    expect((await t.post(path('pickupShareLink'), parent).send({ pickup_person_id: rows[0].id })).body).toMatchObject({
      code: Code.Error,
      msg: '接送人不存在',
    });
    const { adminToken } = await t.otherSchool();
    expect((await t.get(path('pickupVerifyKey'), adminToken)).body.data.people).toEqual([]);
    expect((await t.get(`${path('pickupCodeByLink')}?token=short`)).body.code).toBe(Code.Error);
    expect((await t.post(path('pickupShareLink'), parent).send({ pickup_person_id: 'x' })).body.code).toBe(Code.Error);
  });
});

describe('the schools’ signing keys are sealed at rest (PICKUP_KEYS_ENCRYPTION_KEYS)', () => {
  const keyRow = async (school: number) =>
    (await t.sql.query(`select private_key, sealed_private_key, key_id from pickup_keys where school_id = $1`, [school])).rows[0];
  const ringOf = (raw: string): PickupKeyring => {
    const problems: string[] = [];
    const ring = pickupKeyringConfig(raw, 'production', problems);
    expect(problems).toEqual([]);
    return ring;
  };
  const b64 = (fill: number) => Buffer.alloc(32, fill).toString('base64');

  it('the table never holds the clear key; the codes signed with it still verify', async () => {
    const code = await guardianCode();
    const row = await keyRow(schoolId);
    const { privateKey } = await t.app.get(PickupService).keyOf(schoolId);
    expect(row).toEqual({ private_key: null, sealed_private_key: expect.any(String), key_id: 'dev' });
    expect(row.sealed_private_key).not.toContain(privateKey);
    expect(Buffer.from(row.sealed_private_key, 'base64').includes(Buffer.from(privateKey))).toBe(false);
    const res = await leave(teacher, { student_ids: mine, pickup_code: code });
    expect(res.body.code).toBe(Code.Ok);
  });

  it('a key stored in clear before the sealing is sealed at start and keeps its codes', async () => {
    const other = await t.otherSchool();
    const pair = pickupKeyPair();
    await t.sql.query(`insert into pickup_keys (school_id, public_key, private_key) values ($1, $2, $3)`, [
      other.schoolId,
      pair.publicKey,
      pair.privateKey,
    ]);
    await t.app.get(PickupService).onModuleInit();
    const row = await keyRow(other.schoolId);
    expect(row).toMatchObject({ private_key: null, key_id: 'dev' });
    expect(await t.app.get(PickupService).keyOf(other.schoolId)).toEqual(pair);
  });

  it('a wrong key fails clearly, naming the key; rotation reseals every key with the new first key', async () => {
    await guardianCode();
    const row = await keyRow(schoolId);
    const { privateKey } = await t.app.get(PickupService).keyOf(schoolId);
    expect(() => openPrivateKey(ringOf(`dev:${b64(7)}`), schoolId, row.sealed_private_key, 'dev')).toThrow(
      new PickupKeyError(`pick-up key of school ${schoolId} does not open with key dev of PICKUP_KEYS_ENCRYPTION_KEYS (a wrong key under that id?)`),
    );
    expect(() => openPrivateKey(ringOf(`k2:${b64(9)}`), schoolId, row.sealed_private_key, 'dev')).toThrow(
      /sealed with key dev, which PICKUP_KEYS_ENCRYPTION_KEYS does not hold/,
    );
    // another school's row does not open as this school's (the school id is authenticated with it)
    const dev = t.app.get(PickupService)['config'].pickupKeyring as PickupKeyring;
    expect(() => openPrivateKey(dev, schoolId + 1000, row.sealed_private_key, 'dev')).toThrow(PickupKeyError);

    // rotation: the new key first, the old one after it; reseal; then the old one can go
    const rotating = ringOf(`k2:${b64(9)},dev:${dev.keys[0].key.toString('base64')}`);
    const count = (await t.sql.query(`select count(*)::int as n from pickup_keys`)).rows[0].n;
    expect(await resealPickupKeys(t.app.get(DataSource), rotating)).toBe(count);
    const after = await keyRow(schoolId);
    expect(after).toMatchObject({ private_key: null, key_id: 'k2' });
    expect(openPrivateKey(ringOf(`k2:${b64(9)}`), schoolId, after.sealed_private_key, 'k2')).toBe(privateKey);
    expect(await resealPickupKeys(t.app.get(DataSource), rotating)).toBe(0); // nothing left on the old key
    // put back as the running app has it
    expect(await resealPickupKeys(t.app.get(DataSource), { keys: [dev.keys[0], rotating.keys[0]], fromEnv: false })).toBe(count);
  });

  it('the start in production refuses without the variable and names it; a bad value is named too', () => {
    const base = { NODE_ENV: 'production', DATABASE_URL: 'postgres://x@127.0.0.1/x', WECHATPAY_SANDBOX: '1', WECHAT_OA_SANDBOX: '1' };
    expect(() => loadConfig(base)).toThrow(/PICKUP_KEYS_ENCRYPTION_KEYS: required in production/);
    expect(() => loadConfig({ ...base, PICKUP_KEYS_ENCRYPTION_KEYS: 'k1:short' })).toThrow(
      /PICKUP_KEYS_ENCRYPTION_KEYS: key k1 is not 32 bytes in base64/,
    );
    expect(() => loadConfig({ ...base, PICKUP_KEYS_ENCRYPTION_KEYS: `k1:${b64(1)},k1:${b64(2)}` })).toThrow(/key id k1 is given twice/);
    expect(() => loadConfig({ ...base, PICKUP_KEYS_ENCRYPTION_KEYS: b64(1) })).toThrow(/entry 1 is not id:base64/);
    expect(loadConfig({ ...base, PICKUP_KEYS_ENCRYPTION_KEYS: `k1:${b64(1)},k0:${b64(2)}` }).pickupKeyring.keys.map((k) => k.id)).toEqual([
      'k1',
      'k0',
    ]);
    expect(loadConfig({ NODE_ENV: 'test' }).pickupKeyring).toMatchObject({ fromEnv: false, keys: [{ id: 'dev' }] });
  });
});
