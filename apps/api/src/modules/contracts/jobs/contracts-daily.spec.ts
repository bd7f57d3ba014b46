import { DEFAULT_VALID_MONTHS, TERM_MONTHS, addDays, contractTerms, localDay, renewalStartDay, type PackageKind } from '@wantuo/shared';
import { JobRegistry } from '../../../core/jobs/job-registry';
import { JobsService } from '../../../core/jobs/jobs.service';
import type { JobPayloads } from '../../../core/jobs/jobs.types';
import { eventually, startTestApp, type TestApp } from '../../../../test/harness';
import { MessagesClock } from '../../messages/guardian-messages.service';
import { WechatOa } from '../../wechat/oa-client';
import { ContractsDaily, END_DAY_SQL, TERM_MONTHS_SQL } from './contracts-daily';

/** A WeChat message handed over: sent, or already delivered (the sandbox's push can come before the poll looks). */
const SENT = new Set(['sent', 'delivered']);

let t: TestApp;
let schoolId: number;
let daily: ContractsDaily;
let seq = 0;
/** the guardians' messages' clock (GuardianMessages): each run's time, so a message due at the run goes at once and a held one waits its hours */
let clockAt = new Date();

beforeAll(async () => {
  // listening: a bound guardian's message goes to the API's own WeChat sandbox
  t = await startTestApp({ runJobs: true, redis: false, listen: true });
  schoolId = t.demo.schoolId;
  daily = t.app.get(ContractsDaily);
  t.app.get(MessagesClock).now = () => clockAt;
  await t.sql.query(`update schools set timezone = 'Asia/Shanghai' where id = $1`, [schoolId]);
});
afterAll(() => t.close());

/** A Shanghai wall-clock time (UTC+8) as an instant. */
const shanghai = (iso: string) => new Date(`${iso}+08:00`);
const runJob = (at: Date) => {
  clockAt = at;
  return t.app.get(JobRegistry).run('contracts.daily', { at: at.toISOString() });
};
/** The job's service, at `at`. */
const run = (at: Date) => {
  clockAt = at;
  return daily.run(at);
};

async function addPackage(kind: PackageKind, length: number, price_fen: number, opts: { valid_months?: number; school?: number } = {}) {
  const { rows } = await t.sql.query(
    `insert into contract_packages (school_id, name, kind, length, valid_months, price_fen) values ($1, $2, $3, $4, $5, $6) returning id`,
    [opts.school ?? schoolId, `套餐${++seq}`, kind, length, opts.valid_months ?? null, price_fen],
  );
  return rows[0].id as number;
}

/** A student with one guardian (a parent account with its own mobile); returns ids and the mobile. */
async function addStudent(school = schoolId) {
  const n = ++seq;
  const mobile = `1370000${String(n).padStart(4, '0')}`;
  const {
    rows: [s],
  } = await t.sql.query(`insert into students (school_id, name) values ($1, $2) returning id`, [school, `合同生${n}`]);
  const {
    rows: [u],
  } = await t.sql.query(`insert into users (school_id, role, username, name, nickname, mobile) values ($1, 6, $2, $3, $3, $4) returning id`, [
    school,
    `cparent${n}`,
    `家长${n}`,
    mobile,
  ]);
  await t.sql.query(`insert into student_guardians (school_id, student_id, user_id, relation, is_primary) values ($1, $2, $3, '母亲', true)`, [
    school,
    s.id,
    u.id,
  ]);
  return { studentId: s.id as number, guardianId: u.id as number, mobile, name: `合同生${n}` };
}

interface ContractOpts {
  kind?: PackageKind;
  start: string;
  end: string;
  units_total?: number | null;
  units_used?: number;
  status?: string;
  auto_renew?: boolean;
  package_id?: number;
  school?: number;
}
/** A contract signed straight in SQL (the job only reads what a signing stores). */
async function addContract(o: ContractOpts) {
  const school = o.school ?? schoolId;
  const kind = o.kind ?? 'month';
  const pkg = o.package_id ?? (await addPackage(kind, kind === 'days' || kind === 'sessions' ? (o.units_total ?? 20) : 1, 100_000, { school }));
  const st = await addStudent(school);
  const { rows } = await t.sql.query(
    `insert into contracts (school_id, no, student_id, package_id, kind, start_day, end_day, units_total, units_used, list_price_fen, price_fen,
                            paid_fen, status, auto_renew, guardian_id)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, 100000, 100000, 100000, $10, $11, $12) returning id`,
    [
      school,
      `HTTEST${++seq}`,
      st.studentId,
      pkg,
      kind,
      o.start,
      o.end,
      o.units_total ?? null,
      o.units_used ?? 0,
      o.status ?? 'active',
      o.auto_renew ?? false,
      st.guardianId,
    ],
  );
  return { id: rows[0].id as number, packageId: pkg, ...st };
}

async function outbox(mobile: string, template: string) {
  const { rows } = await t.sql.query(`select content, params from sms_outbox where mobile = $1 and template = $2 order by id`, [mobile, template]);
  return rows as Array<{ content: string; params: Record<string, string> }>;
}
/** Waits for n texts of a template to a mobile, then a little longer to be sure no more arrive. */
async function expectTexts(mobile: string, template: string, n: number) {
  if (n > 0) await eventually(async () => ((await outbox(mobile, template)).length >= n ? true : null));
  await new Promise((r) => setTimeout(r, 150));
  const all = await outbox(mobile, template);
  expect(all).toHaveLength(n);
  return all;
}
const events = async (id: number) =>
  (await t.sql.query(`select type, data from contract_events where contract_id = $1 order by id`, [id])).rows as Array<{
    type: string;
    data: Record<string, unknown>;
  }>;
const status = async (id: number) => (await t.sql.query(`select status from contracts where id = $1`, [id])).rows[0].status as string;

/** Twice in a row, then six at once (through the job and the service), all at the same time of day. */
async function runManyTimes(at: Date) {
  await runJob(at);
  await runJob(new Date(at.getTime() + 3_600_000));
  await Promise.all([runJob(at), runJob(at), runJob(at), run(at), run(at), run(at)]);
}

it('the SQL terms of a renewal equal contractTerms for every package kind, month ends included', async () => {
  const packages: Array<{ kind: PackageKind; length: number; valid_months: number | null }> = [
    { kind: 'term', length: 1, valid_months: null },
    { kind: 'term', length: 2, valid_months: null },
    { kind: 'month', length: 1, valid_months: null },
    { kind: 'month', length: 6, valid_months: null },
    { kind: 'month', length: 13, valid_months: null },
    { kind: 'days', length: 20, valid_months: null },
    { kind: 'days', length: 60, valid_months: 3 },
    { kind: 'sessions', length: 10, valid_months: null },
    { kind: 'sessions', length: 40, valid_months: 1 },
  ];
  const starts = [
    '2027-01-31',
    '2027-08-31',
    '2027-03-31',
    '2027-05-31',
    '2027-12-31',
    '2028-02-29',
    '2028-01-30',
    '2027-02-28',
    '2027-03-01',
    '2027-09-15',
  ];
  // the job's own fragments, with its parameter numbers ($4 TERM_MONTHS, $5 DEFAULT_VALID_MONTHS; $3 unused here)
  const { rows } = await t.sql.query(
    `select p.kind, p.length, p.valid_months, to_char(st.d, 'YYYY-MM-DD') as start_day,
            to_char(${END_DAY_SQL('st.d', TERM_MONTHS_SQL)}, 'YYYY-MM-DD') as end_day,
            case when p.kind in ('days', 'sessions') then p.length end as units_total
       from jsonb_to_recordset($1::jsonb) as p(kind text, length int, valid_months int)
       cross join unnest($2::date[]) as st(d) where $3::int is null`,
    [JSON.stringify(packages), starts, null, TERM_MONTHS, DEFAULT_VALID_MONTHS],
  );
  expect(rows).toHaveLength(packages.length * starts.length);
  for (const r of rows) {
    const expected = contractTerms({ kind: r.kind, length: r.length, valid_months: r.valid_months }, r.start_day);
    expect({ start_day: r.start_day, end_day: r.end_day, units_total: r.units_total }).toEqual(expected);
  }
  // a month end really is clamped: one month from Jan 31 ends Feb 27, six from Aug 31 end Feb 28 (Feb 29 in a leap year)
  expect(rows.find((r) => r.kind === 'month' && r.length === 1 && r.start_day === '2027-01-31').end_day).toBe('2027-02-27');
  expect(rows.find((r) => r.kind === 'month' && r.length === 6 && r.start_day === '2027-08-31').end_day).toBe('2028-02-28');
});

it('reminds each contract entering "expiring" once, however often and however concurrently the job runs', async () => {
  const today = '2027-03-10';
  const byDays = await addContract({ start: '2027-02-25', end: '2027-03-20' }); // 10 days left
  const byUnits = await addContract({ kind: 'sessions', start: '2027-01-01', end: '2027-06-30', units_total: 10, units_used: 8 }); // 2 left
  const lastDay = await addContract({ start: '2027-02-11', end: today }); // ends today: still expiring, not expired
  const notYet = await addContract({ start: '2027-03-01', end: '2027-03-31' }); // 21 days left
  const unpaid = await addContract({ start: '2027-02-25', end: '2027-03-20', status: 'unpaid' });
  const cancelled = await addContract({ start: '2027-02-25', end: '2027-03-20', status: 'cancelled' });

  // before 08:00 in the school's day nothing happens yet
  expect(await run(shanghai(`${today}T07:59:00`))).toMatchObject({ reminded: [], renewed: [], expired: 0 });
  await runManyTimes(shanghai(`${today}T08:05:00`));

  for (const c of [byDays, byUnits, lastDay]) {
    const [text] = await expectTexts(c.mobile, 'contract.expiring', 1);
    expect(text.content).toContain(c.name);
    expect(text.content).toContain('联系机构');
    expect(text.content).toContain('家长端');
    expect((await events(c.id)).filter((e) => e.type === 'reminded')).toHaveLength(1);
    expect(await status(c.id)).toBe('active');
  }
  expect((await outbox(byDays.mobile, 'contract.expiring'))[0].content).toContain('2027年3月20日');
  expect((await outbox(byUnits.mobile, 'contract.expiring'))[0].params.units).toBe('2');
  expect((await outbox(byUnits.mobile, 'contract.expiring'))[0].content).toContain('剩余 2 次');
  expect((await outbox(byDays.mobile, 'contract.expiring'))[0].params.units).toBe('');
  for (const c of [notYet, unpaid, cancelled]) {
    await expectTexts(c.mobile, 'contract.expiring', 0);
    expect(await events(c.id)).toEqual([]);
  }
  const { rows } = await t.sql.query(`select contract_id, kind from contract_reminders where contract_id = any($1) order by contract_id`, [
    [byDays.id, byUnits.id, lastDay.id, notYet.id, unpaid.id, cancelled.id],
  ]);
  expect(rows).toEqual([byDays.id, byUnits.id, lastDay.id].sort((a, b) => a - b).map((id) => ({ contract_id: id, kind: 'expiring' })));

  // later days: the reminded ones are not reminded again; the one that now enters "expiring" is, once
  await runManyTimes(shanghai('2027-03-18T09:00:00'));
  await expectTexts(notYet.mobile, 'contract.expiring', 1);
  for (const c of [byDays, byUnits]) await expectTexts(c.mobile, 'contract.expiring', 1);
});

it('marks contracts past their end or out of units expired, once, with an event', async () => {
  const past = await addContract({ start: '2027-01-01', end: '2027-04-09' });
  const usedUp = await addContract({ kind: 'days', start: '2027-01-01', end: '2027-09-30', units_total: 20, units_used: 20 });
  const running = await addContract({ start: '2027-04-01', end: '2027-06-30' });
  const unpaidPast = await addContract({ start: '2027-01-01', end: '2027-04-01', status: 'unpaid' });
  await runManyTimes(shanghai('2027-04-10T10:00:00'));
  for (const c of [past, usedUp]) {
    expect(await status(c.id)).toBe('expired');
    expect((await events(c.id)).map((e) => e.type)).toEqual(['expired']);
    // an expired contract gets no "expiring" text
    await expectTexts(c.mobile, 'contract.expiring', 0);
  }
  const { rows } = await t.sql.query(`select expired_at from contracts where id = $1`, [past.id]);
  expect(rows[0].expired_at).toEqual(shanghai('2027-04-10T10:00:00'));
  expect(await status(running.id)).toBe('active');
  expect(await status(unpaidPast.id)).toBe('unpaid');
});

it('creates one unpaid renewal per auto-renew contract at the package’s current price and terms, and texts how to pay', async () => {
  const today = '2027-05-20';
  const cases: Array<{ kind: PackageKind; length: number; valid_months?: number; end: string; units_total?: number; units_used?: number }> = [
    { kind: 'term', length: 1, end: '2027-05-31' }, // starts June 1st: five months
    { kind: 'month', length: 1, end: '2027-05-30' }, // starts May 31: ends June 29 (clamped June 30 - 1)
    { kind: 'days', length: 20, end: '2027-09-30', units_total: 20, units_used: 18 }, // expiring by units: starts Oct 1
    { kind: 'sessions', length: 12, valid_months: 2, end: '2027-05-19', units_total: 12, units_used: 5 }, // ended yesterday: starts today
  ];
  const made = [];
  for (const c of cases) {
    const pkg = await addPackage(c.kind, c.length, 90_000, { valid_months: c.valid_months });
    const contract = await addContract({
      kind: c.kind,
      start: '2027-01-01',
      end: c.end,
      units_total: c.units_total ?? null,
      units_used: c.units_used,
      auto_renew: true,
      package_id: pkg,
    });
    // the package's price changed since the signing: the renewal takes the current one
    await t.sql.query(`update contract_packages set price_fen = 123400 where id = $1`, [pkg]);
    made.push({ ...c, ...contract, pkg });
  }
  // an auto-renew contract whose package is no longer sold, and one not expiring yet, are not renewed
  const disabledPkg = await addPackage('month', 1, 50_000);
  const disabled = await addContract({ start: '2027-01-01', end: '2027-05-25', auto_renew: true, package_id: disabledPkg });
  await t.sql.query(`update contract_packages set active = false where id = $1`, [disabledPkg]);
  const later = await addContract({ start: '2027-01-01', end: '2027-07-31', auto_renew: true });

  await runManyTimes(shanghai(`${today}T08:30:00`));

  for (const c of made) {
    const { rows } = await t.sql.query(
      `select id, no, status, to_char(start_day, 'YYYY-MM-DD') as start_day, to_char(end_day, 'YYYY-MM-DD') as end_day, units_total,
              list_price_fen::int, price_fen::int, paid_fen::int, auto_renew, guardian_id, student_id, package_id, kind
         from contracts where renewed_from = $1`,
      [c.id],
    );
    expect(rows).toHaveLength(1);
    const r = rows[0];
    const terms = contractTerms({ kind: c.kind, length: c.length, valid_months: c.valid_months ?? null }, renewalStartDay(c.end, today));
    expect(r).toMatchObject({
      status: 'unpaid',
      ...terms,
      list_price_fen: 123_400,
      price_fen: 123_400,
      paid_fen: 0,
      guardian_id: c.guardianId,
      student_id: c.studentId,
      package_id: c.pkg,
      kind: c.kind,
    });
    expect(r.no).toMatch(/^HT20270520R\d{9}$/);
    expect((await events(c.id)).map((e) => e.type)).toEqual(c.end < today ? ['renewed', 'expired'] : ['renewed']);
    expect((await events(r.id)).map((e) => e.type).sort()).toEqual(['renewed', 'signed']);
    const [text] = await expectTexts(c.mobile, 'contract.renewed', 1);
    expect(text.content).toContain(c.name);
    expect(text.content).toContain('1234 元');
    expect(text.content).toContain('家长端');
    // the renewal's text says how to pay: no separate "expiring" text
    await expectTexts(c.mobile, 'contract.expiring', 0);
  }
  expect(made.map((c) => renewalStartDay(c.end, today))).toEqual(['2027-06-01', '2027-05-31', '2027-10-01', today]);
  expect(await status(made[3].id)).toBe('expired');
  for (const c of [disabled, later]) {
    expect((await t.sql.query(`select 1 from contracts where renewed_from = $1`, [c.id])).rowCount).toBe(0);
    await expectTexts(c.mobile, 'contract.renewed', 0);
  }
  // the disabled package's contract is still reminded (the guardian contacts the centre)
  await expectTexts(disabled.mobile, 'contract.expiring', 1);

  // days later: the renewals are unpaid, not active: nothing more is renewed or texted
  await runManyTimes(shanghai('2027-05-28T12:00:00'));
  for (const c of made) {
    expect((await t.sql.query(`select 1 from contracts where renewed_from = $1`, [c.id])).rowCount).toBe(1);
    await expectTexts(c.mobile, 'contract.renewed', 1);
  }
});

it('counts each school’s own local day', async () => {
  const {
    rows: [la],
  } = await t.sql.query(`insert into schools (name, timezone) values ('洛杉矶中心', 'America/Los_Angeles') returning id`);
  const end = '2027-08-09';
  const sh = await addContract({ start: '2027-07-01', end });
  const us = await addContract({ start: '2027-07-01', end, school: la.id });
  // 2027-08-10 01:00 UTC: 09:00 on Aug 10 in Shanghai (past the end), 18:00 on Aug 9 in Los Angeles (its last day)
  await runManyTimes(new Date('2027-08-10T01:00:00Z'));
  expect(await status(sh.id)).toBe('expired');
  expect(await status(us.id)).toBe('active');
  await expectTexts(us.mobile, 'contract.expiring', 1);

  // the next morning in Los Angeles, before 08:00 there: not yet; after: expired
  const usBefore = await addContract({ start: '2027-07-01', end: '2027-08-20', school: la.id });
  await run(new Date('2027-08-10T14:30:00Z')); // 07:30 Aug 10 in Los Angeles
  expect(await status(us.id)).toBe('active');
  await expectTexts(usBefore.mobile, 'contract.expiring', 0);
  await runManyTimes(new Date('2027-08-10T15:30:00Z')); // 08:30
  expect(await status(us.id)).toBe('expired');
  await expectTexts(usBefore.mobile, 'contract.expiring', 1);
  expect(addDays(end, 1)).toBe('2027-08-10');
});

/** Twice in a row and three at once, all at that very time (runManyTimes' later run would cross a school's 08:00 here). */
async function runAtOnly(at: Date) {
  await runJob(at);
  await Promise.all([runJob(at), run(at), run(at)]);
}

it('at China’s midnight (16:00 UTC) each school keeps its own day: Shanghai waits for its 08:00, Tokyo and London go by theirs', async () => {
  // the instants are written in UTC and the days are the schools' local dates: the same in any process TZ
  const zone = async (name: string, timezone: string) =>
    (await t.sql.query(`insert into schools (name, timezone) values ($1, $2) returning id`, [name, timezone])).rows[0].id as number;
  const tokyo = await zone('东京中心', 'Asia/Tokyo');
  const london = await zone('伦敦中心', 'Europe/London');
  const day = '2027-10-14';
  const next = addDays(day, 1);
  const make = async (school: number) => ({
    endsToday: await addContract({ start: '2027-09-15', end: day, school }), // its last day: expiring, then expired the next day
    endedYesterday: await addContract({ start: '2027-09-14', end: addDays(day, -1), school }),
    renews: await addContract({ start: '2027-09-15', end: day, auto_renew: true, school }),
    endsTomorrow: await addContract({ start: '2027-09-16', end: next, school }),
  });
  const sh = await make(schoolId);
  const tk = await make(tokyo);
  const uk = await make(london);
  const renewal = async (id: number) =>
    (
      await t.sql.query(
        `select no, to_char(start_day, 'YYYY-MM-DD') as start_day, to_char(created_at at time zone 'UTC', 'HH24:MI') as at from contracts where renewed_from = $1`,
        [id],
      )
    ).rows;

  // 15:30 UTC on Oct 14: 23:30 on Oct 14 in Shanghai and 16:30 in London (their day: Oct 14), 00:30 on Oct 15 in Tokyo (not due)
  const enqueued = jest.spyOn(t.app.get(JobsService), 'enqueue');
  await runAtOnly(new Date(`${day}T15:30:00Z`));
  const heldJobs = enqueued.mock.calls.filter(([name]) => name === 'messages.send');
  enqueued.mockRestore();
  for (const s of [sh, uk]) {
    expect(await status(s.endedYesterday.id)).toBe('expired');
    expect(await status(s.endsToday.id)).toBe('active');
    // renewed on its last day: from the day after its end, numbered with the school's day
    expect(await renewal(s.renews.id)).toEqual([{ no: expect.stringMatching(/^HT20271014R\d{9}$/), start_day: next, at: '15:30' }]);
  }
  for (const c of [uk.endsToday, uk.endsTomorrow]) await expectTexts(c.mobile, 'contract.expiring', 1);
  await expectTexts(uk.renews.mobile, 'contract.renewed', 1);
  // 23:30 in Shanghai is in the quiet hours: its guardians' texts wait for 07:00 (one delayed `messages.send` job, 7.5 hours)
  for (const c of [sh.endsToday, sh.endsTomorrow]) await expectTexts(c.mobile, 'contract.expiring', 0);
  await expectTexts(sh.renews.mobile, 'contract.renewed', 0);
  expect(heldJobs).toHaveLength(1);
  const [, held, heldOpts] = heldJobs[0] as [string, JobPayloads['messages.send'], { delayMs?: number }];
  expect(heldOpts.delayMs).toBe(7.5 * 3_600_000);
  expect(held.items.map((i) => [i.user_id, i.kind]).sort()).toEqual(
    [
      [sh.endsToday.guardianId, 'contract.expiring'],
      [sh.endsTomorrow.guardianId, 'contract.expiring'],
      [sh.renews.guardianId, 'contract.renewed'],
    ].sort(),
  );
  for (const c of Object.values(tk)) expect(await events(c.id)).toEqual([]);

  // 16:30 UTC: 00:30 on Oct 15 in Shanghai (its new day, before its 08:00: nothing yet), 17:30 on Oct 14 in London
  const late = await addContract({ start: '2027-09-16', end: addDays(next, 3), auto_renew: true }); // in Shanghai, expiring from Oct 15 on
  const ukLate = await addContract({ start: '2027-09-16', end: addDays(day, 2), school: london });
  await runAtOnly(new Date(`${day}T16:30:00Z`));
  expect(await status(sh.endsToday.id)).toBe('active');
  expect(await renewal(late.id)).toEqual([]);
  await expectTexts(late.mobile, 'contract.expiring', 0);
  expect(await status(uk.endsToday.id)).toBe('active'); // still Oct 14 in London: its last day
  await expectTexts(ukLate.mobile, 'contract.expiring', 1);

  // 07:00 in Shanghai (23:00 UTC): the held job writes and sends its texts
  clockAt = new Date(`${day}T23:00:00Z`);
  await t.app.get(JobRegistry).run('messages.send', held);
  for (const c of [sh.endsToday, sh.endsTomorrow]) await expectTexts(c.mobile, 'contract.expiring', 1);
  await expectTexts(sh.renews.mobile, 'contract.renewed', 1);

  // 23:30 UTC, still Oct 14 in UTC: 08:30 on Oct 15 in Tokyo (due: its day is Oct 15), 07:30 in Shanghai, 00:30 in London
  await runAtOnly(new Date(`${day}T23:30:00Z`));
  for (const c of [tk.endedYesterday, tk.endsToday, tk.renews]) expect(await status(c.id)).toBe('expired');
  expect(await renewal(tk.renews.id)).toEqual([{ no: expect.stringMatching(/^HT20271015R\d{9}$/), start_day: next, at: '23:30' }]);
  expect(await status(tk.endsTomorrow.id)).toBe('active');
  await expectTexts(tk.endsTomorrow.mobile, 'contract.expiring', 1);
  await expectTexts(tk.endsToday.mobile, 'contract.expiring', 0); // past its end when first seen: expired, not reminded
  for (const s of [sh, uk]) expect(await status(s.endsToday.id)).toBe('active');
  expect(await renewal(late.id)).toEqual([]);

  // 00:30 UTC on Oct 15: 08:30 in Shanghai (due, its day Oct 15), 01:30 in London (not yet)
  await runAtOnly(new Date(`${next}T00:30:00Z`));
  expect(await status(sh.endsToday.id)).toBe('expired');
  expect(await status(sh.renews.id)).toBe('expired');
  expect(await status(sh.endsTomorrow.id)).toBe('active');
  expect(await renewal(late.id)).toEqual([{ no: expect.stringMatching(/^HT20271015R\d{9}$/), start_day: addDays(next, 4), at: '00:30' }]);
  expect(await status(uk.endsToday.id)).toBe('active');
  expect(await status(uk.renews.id)).toBe('active');

  // 08:30 in London (07:30 UTC, summer time): its Oct 15 too
  await runAtOnly(new Date(`${next}T07:30:00Z`));
  for (const c of [uk.endsToday, uk.renews]) expect(await status(c.id)).toBe('expired');
  for (const s of [sh, tk, uk]) {
    expect(await status(s.endsTomorrow.id)).toBe('active');
    await expectTexts(s.endsTomorrow.mobile, 'contract.expiring', 1);
    expect((await events(s.endedYesterday.id)).map((e) => e.type)).toEqual(['expired']);
    expect(await renewal(s.renews.id)).toHaveLength(1);
  }
});

it('a guardian bound to the official account gets the expiring reminder and the renewal in WeChat (linked to /parent_contracts), not by SMS', async () => {
  const bind = async (userId: number) => {
    const wx = await t.post('/api/dev/wechat/users').send({ name: `微信家长${++seq}`, subscribed: true });
    const openid = wx.body.data.openid as string;
    await t.sql.query(`insert into wechat_bindings (user_id, school_id, appid, openid) values ($1, $2, $3, $4)`, [
      userId,
      schoolId,
      t.app.get(WechatOa).appid,
      openid,
    ]);
    return openid;
  };
  // yesterday's noon in Shanghai: in the past, as the WeChat sender sends no message before its time
  const day = addDays(localDay(new Date(), 'Asia/Shanghai'), -1);
  const end = addDays(day, 5);
  const expiring = await addContract({ start: addDays(day, -20), end });
  const renews = await addContract({ start: addDays(day, -20), end, auto_renew: true });
  const unbound = await addContract({ start: addDays(day, -20), end });
  const openids = [await bind(expiring.guardianId), await bind(renews.guardianId)];
  await runAtOnly(shanghai(`${day}T12:00:00`));
  const [y, m, d] = end.split('-').map(Number);

  const wechat = async (userId: number) =>
    (await t.sql.query(`select kind, state, url, dedupe_key from wechat_messages where user_id = $1 order by id`, [userId])).rows;
  const sent = async (userId: number) =>
    eventually(async () => {
      const w = await wechat(userId);
      return w.length && w.every((r) => SENT.has(r.state)) ? w : null;
    });
  expect(await sent(expiring.guardianId)).toEqual([
    {
      kind: 'contract.expiring',
      state: expect.stringMatching(/^(sent|delivered)$/),
      url: `${t.config.webPublicUrl}/m/parent_contracts`,
      dedupe_key: `gm:contract-expiring-${expiring.id}-${y}年${m}月${d}日`,
    },
  ]);
  const { rows: renewal } = await t.sql.query(`select id from contracts where renewed_from = $1`, [renews.id]);
  expect(await sent(renews.guardianId)).toEqual([
    {
      kind: 'contract.renewed',
      state: expect.stringMatching(/^(sent|delivered)$/),
      url: `${t.config.webPublicUrl}/m/parent_contracts`,
      dedupe_key: `gm:contract-renewed-${renewal[0].id}`,
    },
  ]);
  for (const openid of openids) {
    const log = await eventually(async () => {
      const r = await t.get(`/api/dev/wechat/messages?openid=${openid}`);
      const list = (r.body.data.list ?? r.body.data) as unknown[];
      return list.length ? list : null;
    });
    expect(log).toHaveLength(1);
  }
  await expectTexts(expiring.mobile, 'contract.expiring', 0);
  await expectTexts(renews.mobile, 'contract.renewed', 0);
  // the unbound guardian by SMS, as before
  await expectTexts(unbound.mobile, 'contract.expiring', 1);
  expect(await wechat(unbound.guardianId)).toEqual([]);
});
