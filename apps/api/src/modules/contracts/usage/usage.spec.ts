import { Role, type FlowBoardStudent, type FlowCommand } from '@wantuo/shared';
import type { SchoolCaller } from '../../../core/auth/current-user.decorator';
import { DomainEvents } from '../../../core/events/domain-events';
import { startTestApp, type TestApp } from '../../../../test/harness';
import { FlowService } from '../../flow/flow.service';
import { allocateDays } from './allocate';
import { ContractUsageService } from './usage.service';

let t: TestApp;
let flow: FlowService;
let usage: ContractUsageService;
let kids: number[];
let packageId: number;
let contractNo = 0;

/** days of March 2025, long past */
const D = (n: number) => `2025-03-${String(n).padStart(2, '0')}`;

const as = (role: 'adviser' | 'admin'): SchoolCaller => ({
  id: t.demo.users[role],
  role: role === 'adviser' ? Role.HeadTeacher : Role.Admin,
  schoolId: t.demo.schoolId,
  name: role,
  nickname: role,
  lang: 'zh-CN',
  tokenId: 0,
});

beforeAll(async () => {
  t = await startTestApp({ runJobs: false, demoPeople: true });
  flow = t.app.get(FlowService);
  usage = t.app.get(ContractUsageService);
  kids = (
    await t.sql.query(`select student_id from care_class_students where class_id = $1 order by student_id`, [t.demo.classes!.running])
  ).rows.map((r) => r.student_id);
  packageId = (
    await t.sql.query(
      `insert into contract_packages (school_id, name, kind, length, price_fen) values ($1, '次卡测试', 'sessions', 20, 200000) returning id`,
      [t.demo.schoolId],
    )
  ).rows[0].id;
});
afterAll(() => t.close());

/** A contract row written directly (the contracts actions are tested elsewhere). */
async function contract(studentId: number, kind: string, start: string, end: string, units: number | null, status = 'active'): Promise<number> {
  const { rows } = await t.sql.query(
    `insert into contracts (school_id, no, student_id, package_id, kind, start_day, end_day, units_total, list_price_fen, price_fen, status)
     values ($1, $2, $3, $4, $5, $6, $7, $8, 100000, 100000, $9) returning id`,
    [t.demo.schoolId, `USAGE${++contractNo}`, studentId, packageId, kind, start, end, units, status],
  );
  return rows[0].id;
}

/** A flow command through the real FlowService, then the usage it causes. */
async function run(ids: number[], cmd: FlowCommand, day: string, user = as('admin')) {
  const out = await flow.command(user, ids, cmd, { day, system: cmd.type === 'markLeave' });
  await usage.settled();
  return out.results;
}

async function used(contractId: number): Promise<{ units_used: number; days: string[] }> {
  const { rows } = await t.sql.query(
    `select c.units_used, coalesce(array(select u.day::text from contract_usage u where u.contract_id = c.id order by u.day), '{}') as days from contracts c where c.id = $1`,
    [contractId],
  );
  return rows[0];
}

/** Takes back the student's latest step of the day, of type `type`, as a head teacher does. */
async function voidLast(studentId: number, day: string, type = 'student.entered') {
  const { rows } = await t.sql.query(
    `select event_id from flow_events where student_id = $1 and day = $2 and type = $3 order by version desc limit 1`,
    [studentId, day, type],
  );
  await flow.voidEvent(as('adviser'), { student_id: studentId, event_id: rows[0].event_id, reason: '点错了', date: day });
  await usage.settled();
}

describe('allocateDays', () => {
  it('gives each day to the earliest-starting contract covering it with units left, whatever the input order', () => {
    const a = { id: 2, student_id: 1, start_day: D(1), end_day: D(31), units_total: 2 };
    const b = { id: 1, student_id: 1, start_day: D(2), end_day: '2025-04-30', units_total: 5 };
    expect(allocateDays([b, a], [D(5), D(1), D(3), D(4)])).toEqual([
      { contract_id: 2, day: D(1), student_id: 1 },
      { contract_id: 2, day: D(3), student_id: 1 },
      { contract_id: 1, day: D(4), student_id: 1 },
      { contract_id: 1, day: D(5), student_id: 1 },
    ]);
    // same start: the lower id first; a day no contract covers uses nothing
    expect(allocateDays([{ ...b, start_day: D(1) }, a], ['2025-02-28', D(2)])).toEqual([{ contract_id: 1, day: D(2), student_id: 1 }]);
  });
});

describe('consumption by attendance (flow → contract_usage)', () => {
  it('an entry uses one unit; a second enter the same day uses nothing more; voiding the entry gives it back', async () => {
    const id = kids[0];
    const c = await contract(id, 'days', D(1), D(31), 10);
    await run([id], { type: 'enter' }, D(3));
    expect(await used(c)).toEqual({ units_used: 1, days: [D(3)] });
    const again = await run([id], { type: 'enter' }, D(3));
    expect(again[0].ok).toBe(false);
    expect(await used(c)).toEqual({ units_used: 1, days: [D(3)] });
    // a later step of the day changes nothing
    await run([id], { type: 'dinner' }, D(3));
    expect(await used(c)).toEqual({ units_used: 1, days: [D(3)] });
    await voidLast(id, D(3), 'student.dinner_confirmed'); // the dinner
    expect(await used(c)).toEqual({ units_used: 1, days: [D(3)] });
    await voidLast(id, D(3)); // the entry
    expect(await used(c)).toEqual({ units_used: 0, days: [] });
    await run([id], { type: 'enter' }, D(4));
    expect(await used(c)).toEqual({ units_used: 1, days: [D(4)] });
  });

  it('replaying the same domain event changes nothing', async () => {
    const id = kids[1];
    const c = await contract(id, 'sessions', D(1), D(31), 10);
    await run([id], { type: 'enter' }, D(5));
    const [e] = (
      await t.sql.query(`select global_position from flow_events where student_id = $1 and day = $2 and type = 'student.entered'`, [id, D(5)])
    ).rows;
    const events = t.app.get(DomainEvents);
    const payload = {
      position: Number(e.global_position),
      student_id: id,
      class_id: null,
      day: D(5),
      type: 'student.entered' as const,
      state: 'in_centre' as const,
      at: new Date().toISOString(),
      actor: null,
      school_id: t.demo.schoolId,
    };
    events.emit('flow.committed', payload);
    events.emit('flow.committed', payload);
    await usage.settled();
    expect(usage.last).toMatchObject({ students: 1, inserted: 0, deleted: 0, updated: 0 });
    expect(await used(c)).toEqual({ units_used: 1, days: [D(5)] });
  });

  it('leave days and days outside the period use nothing', async () => {
    const id = kids[2];
    const c = await contract(id, 'days', D(10), D(20), 10);
    await run([id], { type: 'markLeave', leave_id: 1 }, D(11));
    expect(await used(c)).toEqual({ units_used: 0, days: [] });
    await run([id], { type: 'enter' }, D(9));
    await run([id], { type: 'enter' }, D(21));
    expect(await used(c)).toEqual({ units_used: 0, days: [] });
    await run([id], { type: 'enter' }, D(20));
    expect(await used(c)).toEqual({ units_used: 1, days: [D(20)] });
  });

  it('a time-based (month) contract and an unpaid one are never consumed', async () => {
    const id = kids[3];
    const month = await contract(id, 'month', D(1), D(31), null);
    const unpaid = await contract(id, 'days', D(1), D(31), 10, 'unpaid');
    await run([id], { type: 'enter' }, D(6));
    expect(await used(month)).toEqual({ units_used: 0, days: [] });
    expect(await used(unpaid)).toEqual({ units_used: 0, days: [] });
  });

  it('overlapping contracts: the earliest-starting one with units left, re-allocated when an entry is voided', async () => {
    const id = kids[4];
    const first = await contract(id, 'days', D(1), D(31), 2);
    const second = await contract(id, 'sessions', D(2), '2025-04-30', 5);
    for (const day of [D(3), D(4), D(5)]) await run([id], { type: 'enter' }, day);
    expect(await used(first)).toEqual({ units_used: 2, days: [D(3), D(4)] });
    expect(await used(second)).toEqual({ units_used: 1, days: [D(5)] });
    await voidLast(id, D(3));
    expect(await used(first)).toEqual({ units_used: 2, days: [D(4), D(5)] });
    expect(await used(second)).toEqual({ units_used: 0, days: [] });
    // a contract that ended keeps its days; they go to no other contract
    await t.sql.query(`update contracts set status = 'expired' where id = $1`, [first]);
    await run([id], { type: 'enter' }, D(6));
    expect(await used(first)).toEqual({ units_used: 2, days: [D(4), D(5)] });
    expect(await used(second)).toEqual({ units_used: 1, days: [D(6)] });
  });

  it('a batch of 30 students is one recomputation of three statements', async () => {
    const { rows } = await t.sql.query(`insert into students (school_id, name) select $1, '批量' || g from generate_series(1, 30) g returning id`, [
      t.demo.schoolId,
    ]);
    const ids: number[] = rows.map((r) => r.id);
    const contracts = await Promise.all(ids.map((id) => contract(id, 'days', D(1), D(31), 3)));
    const before = usage.batches;
    const results = await run(ids, { type: 'enter' }, D(12));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(usage.batches - before).toBe(1);
    expect(usage.last).toMatchObject({ students: 30, contracts: 30, inserted: 30, deleted: 0, updated: 30, statements: 3 });
    const { rows: counts } = await t.sql.query(`select units_used from contracts where id = any($1) order by id`, [contracts]);
    expect(counts.map((r) => r.units_used)).toEqual(contracts.map(() => 1));
  });

  it('contracts:rebuild gives the live counts back after a series of enters, voids and leave days', async () => {
    const [a, b] = [kids[5], kids[6]];
    const ca = await contract(a, 'days', D(1), D(31), 3);
    const cb = await contract(b, 'sessions', D(1), D(15), 10);
    await run([a, b], { type: 'enter' }, D(13));
    await run([a, b], { type: 'enter' }, D(14));
    await voidLast(b, D(14));
    await run([a], { type: 'markLeave', leave_id: 2 }, D(17));
    await run([a, b], { type: 'enter' }, D(18));
    await run([a], { type: 'enter' }, D(19));
    await run([a], { type: 'enter' }, D(21)); // a fourth day: no units left
    const live = async () =>
      (
        await t.sql.query(
          `select c.id, c.units_used, array(select u.day::text from contract_usage u where u.contract_id = c.id order by u.day) as days
             from contracts c where c.school_id = $1 order by c.id`,
          [t.demo.schoolId],
        )
      ).rows;
    const before = await live();
    expect(before.find((r) => r.id === ca)).toEqual({ id: ca, units_used: 3, days: [D(13), D(14), D(18)] });
    expect(before.find((r) => r.id === cb)).toEqual({ id: cb, units_used: 1, days: [D(13)] });

    // already equal: nothing to do
    expect(await usage.rebuild(t.demo.schoolId)).toMatchObject({ inserted: 0, deleted: 0, updated: 0 });
    // lost and wrong: the rebuild puts it back
    await t.sql.query(`delete from contract_usage where contract_id in (select id from contracts where status = 'active')`);
    await t.sql.query(`insert into contract_usage (contract_id, day, student_id) values ($1, $2, $3)`, [cb, D(2), b]);
    await t.sql.query(`update contracts set units_used = 7 where status = 'active' and kind in ('days', 'sessions')`);
    const done = await usage.rebuild();
    expect(done.inserted).toBeGreaterThan(0);
    expect(await live()).toEqual(before);
  });
});

describe('flowBoard contract_units_left', () => {
  it('shows the fewest units left of the active counted contracts covering the day, null without one', async () => {
    const teacher = await t.login('teacher');
    const board = async (day: string) =>
      (await t.get(`/api/index/flowBoard?date=${day}`, teacher).expect(200)).body.data.students as FlowBoardStudent[];
    const left = (students: FlowBoardStudent[], id: number) => students.find((s) => s.id === id)?.contract_units_left;
    const mar = await board(D(20));
    expect(left(mar, kids[0])).toBe(9); // 10, one used
    expect(left(mar, kids[3])).toBeNull(); // a month contract and an unpaid one
    expect(left(mar, kids[5])).toBe(0);
    expect(left(mar, kids[4])).toBe(4); // the first one expired: the second, 5 less 1
    expect(left(mar, kids[7])).toBeNull();
    expect(left(await board('2025-02-20'), kids[0])).toBeNull();
  });
});

describe('a contract that changes after the student attended', () => {
  it('paid at the desk after its first days: the days already attended are counted at once', async () => {
    const kid = kids[9];
    await run([kid], { type: 'enter' }, D(20));
    await run([kid], { type: 'enter' }, D(21));
    const id = await contract(kid, 'sessions', D(15), '2025-06-30', 10, 'unpaid');
    expect(await used(id)).toEqual({ units_used: 0, days: [] });
    const admin = await t.login('admin');
    const res = await t.post('/api/index/payContractOffline', admin).send({ id, version: 1, payment: { method: 'cash' } });
    expect(res.body.code).toBe(200);
    await usage.settled();
    expect(await used(id)).toEqual({ units_used: 2, days: [D(20), D(21)] });
  });
});
