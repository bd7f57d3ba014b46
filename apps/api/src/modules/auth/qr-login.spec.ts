import { Code, QR_LOGIN, Role, t as msg, type QrPollResult, type QrScanResult, type QrTicket } from '@wantuo/shared';
import { snapshot, startTestApp, type TestApp } from '../../../test/harness';
import { RATE_LIMITS } from '../../core/rate-limit/rate-limit';

const DESKTOP_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86';
const zh = (key: Parameters<typeof msg>[1]) => msg('zh-CN', key);

let t: TestApp;
const tokens: Record<'admin' | 'teacher' | 'adviser' | 'parent' | 'operator', string> = {} as never;
beforeAll(async () => {
  t = await startTestApp({ runJobs: false });
  for (const u of ['admin', 'teacher', 'adviser', 'parent', 'operator'] as const) tokens[u] = await t.login(u);
});
afterAll(() => t.close());

async function newTicket(body: object = {}): Promise<QrTicket> {
  const res = await t.post('/api/index/qrLoginTicket').set('user-agent', DESKTOP_UA).send(body);
  expect(res.body.code).toBe(Code.Ok);
  return res.body.data;
}
const poll = (q: QrTicket, secret = q.secret) => t.post('/api/index/qrLoginPoll').set('user-agent', DESKTOP_UA).send({ ticket: q.ticket, secret });
const phone = (step: 'Scan' | 'Confirm' | 'Cancel', token: string | undefined, ticket: string) =>
  t.post(`/api/index/qrLogin${step}`, token).send({ ticket });
const state = async (q: QrTicket) => ((await poll(q)).body.data as QrPollResult).state;
const ticketRow = async (id: string) => (await t.sql.query(`select * from qr_login_tickets where id = $1`, [id])).rows[0];
const sessionsOf = async (username: string) =>
  (await t.sql.query(`select count(*)::int as n from user_tokens k join users u on u.id = k.user_id where u.username = $1`, [username])).rows[0]
    .n as number;

describe('QR sign-in', () => {
  it('happy path: ticket → waiting → scanned (phone sees the desktop) → confirmed: the desktop gets a session of the phone’s account, once', async () => {
    const q = await newTicket({ remember: true });
    expect(q.ticket).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(q.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.ttl_seconds).toBe(QR_LOGIN.ttlSeconds);
    expect((Date.parse(q.expires_at) - Date.now()) / 1000).toBeGreaterThan(110);
    expect((Date.parse(q.expires_at) - Date.now()) / 1000).toBeLessThanOrEqual(121);
    // only the secret's hash is stored
    const row = await ticketRow(q.ticket);
    expect(row.secret_hash.toString('base64url')).not.toContain(q.secret);
    expect(JSON.stringify(row)).not.toContain(q.secret);

    expect((await poll(q)).body).toEqual({ code: Code.Ok, msg: expect.any(String), data: { state: 'waiting', expires_at: q.expires_at } });

    const scan = await phone('Scan', tokens.teacher, q.ticket);
    expect(scan.body.code).toBe(Code.Ok);
    expect(scan.body.data as QrScanResult).toEqual({
      state: 'scanned',
      expires_at: q.expires_at,
      device: { browser: 'Edge 131', os: 'Windows', ip: expect.stringMatching(/127\.0\.0\.1|::1/), requested_at: expect.any(String) },
    });
    expect(await state(q)).toBe('scanned');
    // scanning again from the same account changes nothing
    expect((await phone('Scan', tokens.teacher, q.ticket)).body.code).toBe(Code.Ok);

    const teacherSessions = await sessionsOf('teacher');
    expect((await phone('Confirm', tokens.teacher, q.ticket)).body).toMatchObject({ code: Code.Ok, data: {} });
    // confirming does not open the session yet: the desktop's poll does, from the desktop
    expect(await sessionsOf('teacher')).toBe(teacherSessions);

    const first = await poll(q);
    expect(first.body.code).toBe(Code.Ok);
    const got = first.body.data as QrPollResult;
    expect(got.state).toBe('confirmed');
    expect(got.userinfo).toMatchObject({ token: expect.any(String), id: t.demo.users.teacher, role: Role.Teacher, school_id: t.demo.schoolId });
    // the desktop's "remember me" gives the 24 h session, as the password sign-in does
    expect((Date.parse(got.userinfo!.expires_at) - Date.now()) / 3_600_000).toBeCloseTo(24, 0);
    expect(await sessionsOf('teacher')).toBe(teacherSessions + 1);
    const me = await t.get('/api/index/userInfo', got.userinfo!.token);
    expect(me.body.data).toMatchObject({ id: t.demo.users.teacher, username: 'teacher', role: Role.Teacher });

    // the login log: the same entry as a sign-in, method qr, with the desktop's browser
    const { rows: log } = await t.sql.query(`select action, detail, user_agent from user_activity where user_id = $1 order by id desc limit 1`, [
      t.demo.users.teacher,
    ]);
    expect(log[0]).toEqual({ action: 'login.qr', detail: { method: 'qr', remember: true }, user_agent: DESKTOP_UA });
    const shown = await t.get('/api/index/loginLog', got.userinfo!.token);
    expect(shown.body.data.list[0]).toMatchObject({ action: 'login.qr', detail: { method: 'qr' } });

    // once: the second poll gets nothing, and neither does a second confirmation
    const before = await snapshot(t.sql);
    expect((await poll(q)).body).toEqual({ code: Code.Error, msg: zh('auth.qr_invalid'), data: null });
    expect((await phone('Confirm', tokens.teacher, q.ticket)).body).toEqual({ code: Code.Error, msg: zh('auth.qr_invalid'), data: null });
    expect((await phone('Scan', tokens.teacher, q.ticket)).body.msg).toBe(zh('auth.qr_invalid'));
    expect(await snapshot(t.sql)).toEqual(before);
    expect(await ticketRow(q.ticket)).toMatchObject({ state: 'confirmed', scanned_by: t.demo.users.teacher, consumed_at: expect.any(Date) });
  });

  it('without remember me the session is the 12 h one; a parent signs the desktop in as the parent', async () => {
    const q = await newTicket();
    await phone('Scan', tokens.parent, q.ticket);
    await phone('Confirm', tokens.parent, q.ticket);
    const got = (await poll(q)).body.data as QrPollResult;
    expect(got.userinfo).toMatchObject({ id: t.demo.users.parent, role: Role.Parent });
    expect((Date.parse(got.userinfo!.expires_at) - Date.now()) / 3_600_000).toBeCloseTo(12, 0);
  });

  it('two polls racing after the confirmation: exactly one gets the session', async () => {
    const q = await newTicket();
    await phone('Scan', tokens.adviser, q.ticket);
    await phone('Confirm', tokens.adviser, q.ticket);
    const before = await sessionsOf('adviser');
    const answers = await Promise.all([poll(q), poll(q), poll(q)]);
    const won = answers.filter((a) => a.body.data?.userinfo);
    expect(won).toHaveLength(1);
    for (const a of answers.filter((x) => !x.body.data?.userinfo)) expect(a.body.msg).toBe(zh('auth.qr_invalid'));
    expect(await sessionsOf('adviser')).toBe(before + 1);
  });

  it('expires after 2 minutes: the desktop sees expired, the phone can neither scan nor confirm, nothing is signed in', async () => {
    const waiting = await newTicket();
    const scanned = await newTicket();
    const confirmedLate = await newTicket();
    await phone('Scan', tokens.teacher, scanned.ticket);
    await phone('Scan', tokens.teacher, confirmedLate.ticket);
    await phone('Confirm', tokens.teacher, confirmedLate.ticket);
    // the clock: the tickets were made 2 minutes ago (confirmedLate: more than 30 s past its end, never collected)
    await t.sql.query(`update qr_login_tickets set expires_at = now() - interval '1 second' where id = any($1)`, [[waiting.ticket, scanned.ticket]]);
    await t.sql.query(`update qr_login_tickets set expires_at = now() - interval '31 seconds' where id = $1`, [confirmedLate.ticket]);

    const before = await snapshot(t.sql);
    expect(await state(waiting)).toBe('expired');
    expect(await state(scanned)).toBe('expired');
    expect(await state(confirmedLate)).toBe('expired');
    expect((await phone('Scan', tokens.teacher, waiting.ticket)).body).toEqual({ code: Code.Error, msg: zh('auth.qr_expired'), data: null });
    expect((await phone('Confirm', tokens.teacher, scanned.ticket)).body.msg).toBe(zh('auth.qr_expired'));
    expect((await phone('Cancel', tokens.teacher, scanned.ticket)).body.msg).toBe(zh('auth.qr_expired'));
    expect(await snapshot(t.sql)).toEqual(before);
    expect(await ticketRow(scanned.ticket)).toMatchObject({ state: 'scanned', confirmed_at: null });
  });

  it('a confirmation in the last moment is still collected by the poll in flight (up to 30 s after the end)', async () => {
    const q = await newTicket();
    await phone('Scan', tokens.teacher, q.ticket);
    await phone('Confirm', tokens.teacher, q.ticket);
    await t.sql.query(`update qr_login_tickets set expires_at = now() - interval '5 seconds' where id = $1`, [q.ticket]);
    expect(((await poll(q)).body.data as QrPollResult).userinfo?.id).toBe(t.demo.users.teacher);
  });

  it('another account cannot scan, confirm or cancel a ticket another account scanned', async () => {
    const q = await newTicket();
    await phone('Scan', tokens.teacher, q.ticket);
    const before = await snapshot(t.sql);
    for (const who of ['parent', 'admin', 'adviser', 'operator'] as const) {
      for (const step of ['Scan', 'Confirm', 'Cancel'] as const) {
        expect((await phone(step, tokens[who], q.ticket)).body).toEqual({ code: Code.Error, msg: zh('auth.qr_taken'), data: null });
      }
    }
    expect(await snapshot(t.sql)).toEqual(before);
    expect(await ticketRow(q.ticket)).toMatchObject({ state: 'scanned', scanned_by: t.demo.users.teacher });
    expect(await state(q)).toBe('scanned');
    // the account that scanned it still can
    expect((await phone('Confirm', tokens.teacher, q.ticket)).body.code).toBe(Code.Ok);
    expect(((await poll(q)).body.data as QrPollResult).userinfo?.id).toBe(t.demo.users.teacher);
  });

  it('confirming before scanning is refused: the phone scans first', async () => {
    const q = await newTicket();
    expect((await phone('Confirm', tokens.teacher, q.ticket)).body.msg).toBe(zh('auth.qr_not_scanned'));
    expect(await state(q)).toBe('waiting');
  });

  it('a wrong secret, another ticket’s secret or an unknown ticket gets nothing and changes nothing', async () => {
    const q = await newTicket();
    const other = await newTicket();
    await phone('Scan', tokens.teacher, q.ticket);
    await phone('Confirm', tokens.teacher, q.ticket);
    const before = await snapshot(t.sql);
    const refused = { code: Code.Error, msg: zh('auth.qr_invalid'), data: null };
    expect((await poll(q, other.secret)).body).toEqual(refused);
    expect((await poll(q, 'A'.repeat(43))).body).toEqual(refused);
    expect((await poll({ ...q, ticket: 'B'.repeat(22) })).body).toEqual(refused);
    expect((await phone('Scan', tokens.parent, 'B'.repeat(22))).body).toEqual(refused);
    expect(await snapshot(t.sql)).toEqual(before);
    expect(await ticketRow(q.ticket)).toMatchObject({ state: 'confirmed', consumed_at: null });
    // the right secret still collects it
    expect(((await poll(q)).body.data as QrPollResult).userinfo?.id).toBe(t.demo.users.teacher);
  });

  it('the phone cancels: the desktop sees cancelled, nobody can confirm it afterwards', async () => {
    const q = await newTicket();
    await phone('Scan', tokens.parent, q.ticket);
    expect((await phone('Cancel', tokens.parent, q.ticket)).body).toMatchObject({ code: Code.Ok, data: {} });
    expect(await state(q)).toBe('cancelled');
    expect((await phone('Confirm', tokens.parent, q.ticket)).body.msg).toBe(zh('auth.qr_cancelled'));
    expect((await phone('Scan', tokens.parent, q.ticket)).body.msg).toBe(zh('auth.qr_cancelled'));
    expect(await state(q)).toBe('cancelled');
  });

  describe('disabled and left-job accounts', () => {
    const restore = () => t.sql.query(`update users set status = 1, job_status = 1 where username in ('teacher', 'adviser')`);
    afterEach(restore);

    it('a teacher disabled after scanning cannot confirm (the session ends); the desktop is not signed in', async () => {
      const token = await t.login('teacher');
      const q = await newTicket();
      await phone('Scan', token, q.ticket);
      await t.sql.query(`update users set status = 0 where username = 'teacher'`);
      const before = await snapshot(t.sql);
      expect((await phone('Confirm', token, q.ticket)).body).toMatchObject({ code: Code.Untoken });
      expect(await snapshot(t.sql)).toEqual(before);
      expect(await state(q)).toBe('scanned');
    });

    it('a left-job teacher cannot scan or confirm', async () => {
      const token = await t.login('adviser');
      const q = await newTicket();
      await t.sql.query(`update users set job_status = 2 where username = 'adviser'`);
      expect((await phone('Scan', token, q.ticket)).body).toMatchObject({ code: Code.Untoken });
      expect(await state(q)).toBe('waiting');
    });

    it('an account disabled between the confirmation and the poll: the desktop is told why and gets no session', async () => {
      const token = await t.login('teacher');
      const q = await newTicket();
      await phone('Scan', token, q.ticket);
      await phone('Confirm', token, q.ticket);
      await t.sql.query(`update users set status = 0 where username = 'teacher'`);
      const before = await snapshot(t.sql);
      expect((await poll(q)).body).toEqual({ code: Code.Error, msg: zh('auth.disabled'), data: null });
      await t.sql.query(`update users set job_status = 2, status = 1 where username = 'teacher'`);
      expect((await poll(q)).body).toEqual({ code: Code.Error, msg: zh('auth.left_job'), data: null });
      expect(await snapshot(t.sql)).toEqual(before);
    });
  });

  it('the operator and the admin may sign a desktop in too (the spec limits QR sign-in to no role) and land as themselves', async () => {
    for (const [who, role] of [
      ['operator', Role.Operator],
      ['admin', Role.Admin],
    ] as const) {
      const q = await newTicket();
      expect((await phone('Scan', tokens[who], q.ticket)).body.code).toBe(Code.Ok);
      expect((await phone('Confirm', tokens[who], q.ticket)).body.code).toBe(Code.Ok);
      expect(((await poll(q)).body.data as QrPollResult).userinfo).toMatchObject({ id: t.demo.users[who], role });
    }
  });

  it('the phone’s steps need a signed-in account (401); the desktop’s are public', async () => {
    const q = await newTicket();
    for (const step of ['Scan', 'Confirm', 'Cancel'] as const) {
      expect((await phone(step, undefined, q.ticket)).body).toMatchObject({ code: Code.Untoken });
      expect((await phone(step, 'not-a-token', q.ticket)).body).toMatchObject({ code: Code.Untoken });
    }
    expect(await state(q)).toBe('waiting');
  });

  it('an expired school past its grace period (read-only) still signs a desktop in, as the password does', async () => {
    await t.sql.query(`update schools set service_expires_at = now() - interval '400 days' where id = $1`, [t.demo.schoolId]);
    try {
      const q = await newTicket();
      expect((await phone('Scan', tokens.teacher, q.ticket)).body.code).toBe(Code.Ok);
      expect((await phone('Confirm', tokens.teacher, q.ticket)).body.code).toBe(Code.Ok);
      expect(((await poll(q)).body.data as QrPollResult).userinfo?.id).toBe(t.demo.users.teacher);
    } finally {
      await t.sql.query(`update schools set service_expires_at = now() + interval '1 year' where id = $1`, [t.demo.schoolId]);
    }
  });

  it('bad input: code 100 with a clear message, nothing written', async () => {
    const q = await newTicket();
    const count = async () => (await t.sql.query(`select count(*)::int as n, string_agg(state, ',' order by id) as s from qr_login_tickets`)).rows[0];
    const before = { db: await snapshot(t.sql), tickets: await count() };
    const cases: Array<[string, string | undefined, object, string]> = [
      ['qrLoginTicket', undefined, { remember: 'yes' }, ''],
      ['qrLoginTicket', undefined, { user: 'teacher' }, msg('zh-CN', 'v.unknown_field', { keys: 'user' })],
      ['qrLoginPoll', undefined, {}, zh('auth.v.qr_ticket_invalid')],
      ['qrLoginPoll', undefined, { ticket: q.ticket }, zh('auth.v.qr_secret_invalid')],
      ['qrLoginPoll', undefined, { ticket: q.ticket, secret: q.secret.slice(1) }, zh('auth.v.qr_secret_invalid')],
      ['qrLoginPoll', undefined, { ticket: `${q.ticket}'--`, secret: q.secret }, zh('auth.v.qr_ticket_invalid')],
      ['qrLoginScan', tokens.teacher, {}, zh('auth.v.qr_ticket_invalid')],
      ['qrLoginScan', tokens.teacher, { ticket: 123 }, zh('auth.v.qr_ticket_invalid')],
      ['qrLoginScan', tokens.teacher, { ticket: `https://x.cn/qr_scan?ticket=${q.ticket}` }, zh('auth.v.qr_ticket_invalid')],
      ['qrLoginConfirm', tokens.teacher, { ticket: 'short' }, zh('auth.v.qr_ticket_invalid')],
      ['qrLoginCancel', tokens.teacher, { ticket: q.ticket, extra: 1 }, msg('zh-CN', 'v.unknown_field', { keys: 'extra' })],
    ];
    for (const [action, token, body, message] of cases) {
      const res = await t.post(`/api/index/${action}`, token).send(body);
      expect({ action, body, code: res.body.code }).toEqual({ action, body, code: Code.Error });
      if (message) expect(res.body.msg).toBe(message);
      else expect(res.body.msg).toEqual(expect.any(String));
    }
    expect({ db: await snapshot(t.sql), tickets: await count() }).toEqual(before);
  });

  it('old tickets are removed as new ones are made (a day after they ended)', async () => {
    const q = await newTicket();
    await t.sql.query(`update qr_login_tickets set expires_at = now() - interval '25 hours' where id = $1`, [q.ticket]);
    await newTicket();
    expect(await ticketRow(q.ticket)).toBeUndefined();
  });
});

describe('QR sign-in per-IP limits at their real values', () => {
  let r: TestApp;
  beforeAll(async () => {
    r = await startTestApp({ runJobs: false, env: { RATE_LIMIT_FACTOR: '1' } });
  });
  afterAll(() => r.close());

  it('qrLoginTicket: 10 a minute from one address, then refused before anything is written; polling has its own count', async () => {
    let last: QrTicket | null = null;
    for (let i = 0; i < RATE_LIMITS.qrLoginTicket.limit; i++) {
      const res = await r.post('/api/index/qrLoginTicket').send({});
      expect(res.body.code).toBe(Code.Ok);
      last = res.body.data;
    }
    const n = async () => (await r.sql.query(`select count(*)::int as n from qr_login_tickets`)).rows[0].n;
    const before = await n();
    const refused = await r.post('/api/index/qrLoginTicket').send({});
    expect(refused.body).toEqual({ code: Code.Error, msg: expect.stringMatching(/^操作过于频繁，请 \d+ 秒后再试$/), data: null });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(await n()).toBe(before);
    // 2 minutes of polling every 1.5 s fits well within the poll limit
    expect(RATE_LIMITS.qrLoginPoll.limit).toBeGreaterThanOrEqual((60_000 / QR_LOGIN.pollMs) * 3);
    const p = await r.post('/api/index/qrLoginPoll').send({ ticket: last!.ticket, secret: last!.secret });
    expect(p.body.data.state).toBe('waiting');
  });
});
