import { Code, maskMobile, STUDENT_IMPORT_COLUMNS } from '@wantuo/shared';
import { Workbook } from 'exceljs';
import type { Response } from 'supertest';
import { DEMO_PASSWORD, snapshot, startTestApp, type TestApp } from '../../../test/harness';
import { sql } from 'kysely';
import { kdb } from '../../core/database/kysely';
import type { Queryable } from '../../core/database/sql-kit';
import { maskedMobile } from './mobile-access';

/**
 * Least access and the consent rules on writes (issue 37): whose mobiles a caller sees whole (privacy/mobile-access.ts),
 * callGuardian, masked and logged exports, and the photo and health consents every staff write of them checks.
 */
let t: TestApp;
let admin: string, teacher: string, adviser: string, parent: string;
/** 阳光一班 (adviser heads it, teacher has its shuttle and tutor duties) and 阳光二班 (another head teacher's) */
let running: number, second: number;
/** children of 阳光一班: `onDuty` gets a student_days row of today; `idle` does not */
let onDuty: number, idle: number;
/** a child of 阳光二班, where the adviser holds a shuttle duty but is not the head */
let dutyOnly: number;
let today: string;

const api = (a: string) => `/api/index/${a}`;
const DENIED = { code: Code.Error, msg: '当前账号没有权限执行此操作' };
const FULL = /^1\d{10}$/;
const MASKED = /^1\d{2}\*{4}\d{4}$/;

beforeAll(async () => {
  t = await startTestApp({ runJobs: false, redis: false, demoPeople: true });
  [admin, teacher, adviser, parent] = await Promise.all([t.login('admin'), t.login('teacher'), t.login('adviser'), t.login('parent')]);
  ({ running, second } = t.demo.classes!);
  const of = async (cls: number) =>
    (
      await t.sql.query(
        `select s.id from students s join care_class_students c on c.student_id = s.id where c.class_id = $1 and s.status = 1 order by s.id`,
        [cls],
      )
    ).rows.map((r) => r.id as number);
  [onDuty, idle] = await of(running);
  [dutyOnly] = await of(second);
  today = (await t.sql.query(`select to_char((now() at time zone timezone)::date, 'YYYY-MM-DD') as d from schools where id = $1`, [t.demo.schoolId]))
    .rows[0].d;
  await t.sql.query(`insert into duty_assignments (school_id, class_id, teacher_id, duty) values ($1, $2, $3, 'shuttle')`, [
    t.demo.schoolId,
    second,
    t.demo.users.adviser,
  ]);
});
afterAll(() => t.close());

/** Whether the classes meet today: every weekday, or none (so only a student_days row puts a child on today's roster). */
const classesMeet = (meet: boolean) =>
  t.sql.query(`update class_times set weekdays = $2 where school_id = $1`, [t.demo.schoolId, meet ? [1, 2, 3, 4, 5, 6, 7] : []]);
const onRoster = (student: number, classId: number) =>
  t.sql.query(
    `insert into student_days (school_id, student_id, day, class_id, state, version, last_position) values ($1, $2, $3::date, $4, 'expected', 1, 0)
     on conflict do nothing`,
    [t.demo.schoolId, student, today, classId],
  );

type Contact = { mobile: string };
const mobilesOf = (d: { guardians?: Contact[]; pickup_people?: Contact[] }) =>
  [...(d.guardians ?? []), ...(d.pickup_people ?? [])].map((c) => c.mobile);
const info = async (token: string, id: number, action = 'teacherStudentInfo') => {
  const res = await t.get(api(`${action}?id=${id}`), token);
  expect(res.body.code).toBe(Code.Ok);
  return res.body.data;
};
const board = async (token: string) => {
  const res = await t.get(api('flowBoard'), token);
  expect(res.body.code).toBe(Code.Ok);
  return new Map<number, string[]>(
    (res.body.data.students as Array<{ id: number; pickup_people: Contact[] }>).map((s) => [s.id, s.pickup_people.map((p) => p.mobile)]),
  );
};
const allMatch = (list: string[], re: RegExp) => list.length > 0 && list.every((m) => re.test(m));

describe('masked mobiles', () => {
  beforeAll(async () => {
    await classesMeet(false);
    await onRoster(onDuty, running);
  });
  afterAll(() => classesMeet(true));

  it('the SQL mask is maskMobile', async () => {
    const masked = async (m: string | null) => {
      const q = sql`select ${maskedMobile(sql<string | null>`${m}::text`)} as m`.compile(kdb({} as Queryable)); // compiled only: run on the test's client
      return (await t.sql.query(q.sql, [...q.parameters])).rows[0].m;
    };
    for (const m of ['13800000001', '1390000', '12345', '']) expect(await masked(m)).toBe(m === '' ? '****' : maskMobile(m));
    expect(await masked(null)).toBeNull();
  });

  it('a teacher sees them masked, and whole for the children on duty today', async () => {
    const list = await t.get(api('teacherStudentList?limit=100'), teacher);
    expect(list.body.code).toBe(Code.Ok);
    const rows = list.body.data.list as Array<{ id: number }>;
    expect(rows.length).toBeGreaterThan(2);
    // the list carries what its screen shows: no contacts, birthday or photo (the drawer reads them, one child, logged)
    for (const r of rows) for (const k of ['guardians', 'pickup_people', 'birthday', 'photo_url']) expect(r).not.toHaveProperty(k);
    for (const r of rows) expect(allMatch(mobilesOf(await info(teacher, r.id)), r.id === onDuty ? FULL : MASKED)).toBe(true);

    const mine = await info(teacher, onDuty);
    expect(allMatch(mobilesOf(mine), FULL)).toBe(true);
    expect(mine.pickup_people.length).toBeGreaterThan(0);
    const other = await info(teacher, idle);
    expect(allMatch(mobilesOf(other), MASKED)).toBe(true);
    // the masked number is the stored one's mask
    const stored = (await t.sql.query(`select mobile from pickup_people where student_id = $1 and deleted_at is null order by id`, [idle])).rows;
    expect(other.pickup_people.map((p: Contact) => p.mobile)).toEqual(stored.map((r) => maskMobile(r.mobile)));
    // the consents, so the screen can say why a photo or a note cannot be saved
    expect(other).toMatchObject({ photo_consent: true, health_consent: true });

    const b = await board(teacher);
    expect(allMatch(b.get(onDuty)!, FULL)).toBe(true);
    expect(allMatch(b.get(idle)!, MASKED)).toBe(true);
  });

  it('a duty covering only another child does not unmask this one', async () => {
    const zhao = (await t.sql.query(`select id from users where username = 'demo_zhao'`)).rows[0].id;
    await t.sql.query(`delete from duty_assignments where teacher_id = $1`, [zhao]);
    await t.sql.query(`insert into duty_assignments (school_id, class_id, student_id, teacher_id, duty) values ($1, $2, $3, $4, 'tutor')`, [
      t.demo.schoolId,
      running,
      idle,
      zhao,
    ]);
    await onRoster(idle, running);
    const token = (await t.post(api('login')).send({ account: 'demo_zhao', password: DEMO_PASSWORD })).body.data.userinfo.token;
    const rows = (await t.get(api('teacherStudentList?limit=100'), token)).body.data.list as Array<{ id: number }>;
    expect(rows.map((r) => r.id)).toEqual([idle]);
    expect(allMatch(mobilesOf(await info(token, idle)), FULL)).toBe(true);
    // the class-wide duty of the teacher does not cover a child who is not on today's roster
    await t.sql.query(`delete from student_days where student_id = $1 and day = $2::date`, [idle, today]);
    // without today's row the child is not on today's roster: masked again
    expect(allMatch(mobilesOf(await info(teacher, idle)), MASKED)).toBe(true);
  });

  it('a head teacher sees their class whole, other children by the duty rule', async () => {
    const own = await info(adviser, idle, 'studentSettingInfo');
    expect(allMatch(mobilesOf(own), FULL)).toBe(true);
    expect(own).toMatchObject({ photo_consent: true, health_consent: true });
    expect(allMatch(mobilesOf(await info(adviser, idle)), FULL)).toBe(true);
    const duty = await info(adviser, dutyOnly, 'studentSettingInfo');
    expect(allMatch(mobilesOf(duty), MASKED)).toBe(true);
    const b = await board(adviser);
    expect(allMatch(b.get(idle)!, FULL)).toBe(true);
    expect(allMatch(b.get(dutyOnly)!, MASKED)).toBe(true);
    // on the roster today, the duty unmasks
    await onRoster(dutyOnly, second);
    expect(allMatch(mobilesOf(await info(adviser, dutyOnly, 'studentSettingInfo')), FULL)).toBe(true);
    await t.sql.query(`delete from student_days where student_id = $1 and day = $2::date`, [dutyOnly, today]);
  });

  it('a care form saved back with the masked numbers keeps the stored ones; a masked number is no new number', async () => {
    const before = (await t.sql.query(`select id, mobile from pickup_people where student_id = $1 and deleted_at is null order by id`, [dutyOnly]))
      .rows;
    const form = await info(adviser, dutyOnly, 'studentSettingInfo');
    const people = form.pickup_people.map((p: { id: number; name: string; relation: string; mobile: string }) => ({
      id: p.id,
      name: p.name,
      relation: p.relation,
      mobile: p.mobile,
    }));
    expect(
      allMatch(
        people.map((p: Contact) => p.mobile),
        MASKED,
      ),
    ).toBe(true);
    const saved = await t
      .post(api('studentSetting'), adviser)
      .send({ id: dutyOnly, version: form.version, needs_dinner: true, pickup_people: people });
    expect(saved.body.code).toBe(Code.Ok);
    expect(allMatch(mobilesOf(saved.body.data), MASKED)).toBe(true);
    const after = (await t.sql.query(`select id, mobile from pickup_people where student_id = $1 and deleted_at is null order by id`, [dutyOnly]))
      .rows;
    expect(after).toEqual(before);

    const snap = await snapshot(t.sql);
    const version = saved.body.data.version;
    // a new person with a masked number, or a kept one with another mask: refused, nothing written
    const fresh = await t
      .post(api('studentSetting'), adviser)
      .send({ id: dutyOnly, version, pickup_people: [...people, { name: '王阿姨', relation: '保姆', mobile: '138****0001' }] });
    expect(fresh.body.code).toBe(Code.Error);
    const wrong = await t
      .post(api('studentSetting'), adviser)
      .send({ id: dutyOnly, version, pickup_people: [{ ...people[0], mobile: '100****0000' }, ...people.slice(1)] });
    expect(wrong.body.code).toBe(Code.Error);
    expect(await snapshot(t.sql)).toEqual(snap);
  });

  it('the admin sees every mobile whole', async () => {
    expect(allMatch(mobilesOf(await info(admin, idle, 'studentInfo')), FULL)).toBe(true);
    expect(allMatch(mobilesOf(await info(admin, dutyOnly, 'studentSettingInfo')), FULL)).toBe(true);
    const list = (await t.get(api('studentList?limit=100'), admin)).body.data.list as Array<{ guardians: Contact[] }>;
    expect(allMatch(list.flatMap(mobilesOf), FULL)).toBe(true);
    const b = await board(admin);
    expect(allMatch([...b.values()].flat(), FULL)).toBe(true);
  });

  it('a class meeting today puts its children on the roster: the teacher sees them whole', async () => {
    await classesMeet(true);
    const rows = (await t.get(api('teacherStudentList?limit=100'), teacher)).body.data.list as Array<{ id: number }>;
    const all = await Promise.all(rows.map((r) => info(teacher, r.id)));
    expect(allMatch(all.flatMap(mobilesOf), FULL)).toBe(true);
    // a holiday of the school calendar: nobody's class meets
    await t.sql.query(`insert into school_calendar_days (school_id, day, kind, note) values ($1, $2::date, 'holiday', '测试假日')`, [
      t.demo.schoolId,
      today,
    ]);
    expect(allMatch(mobilesOf(await info(teacher, idle)), MASKED)).toBe(true);
    expect(allMatch(mobilesOf(await info(teacher, onDuty)), FULL)).toBe(true);
    await t.sql.query(`delete from school_calendar_days where school_id = $1 and day = $2::date`, [t.demo.schoolId, today]);
    await classesMeet(false);
  });
});

// ---------------------------------------------------------------------------------------------------------------- calls

const logged = async (what: string) =>
  (await t.sql.query(`select actor_role, student_ids, what, action from child_access_log where $1 = any(what) order by id`, [what])).rows as Array<{
    actor_role: number;
    student_ids: number[];
    what: string[];
    action: string;
  }>;

describe('callGuardian', () => {
  const call = (body: Record<string, unknown>, token = teacher) => t.post(api('callGuardian'), token).send(body);
  let guardian: { id: number; name: string; mobile: string };
  let pickup: { id: number; name: string; mobile: string };
  beforeAll(async () => {
    guardian = (
      await t.sql.query(`select u.id, u.name, u.mobile from student_guardians g join users u on u.id = g.user_id where g.student_id = $1 limit 1`, [
        idle,
      ])
    ).rows[0];
    pickup = (
      await t.sql.query(`select id, name, mobile from pickup_people where student_id = $1 and deleted_at is null order by id limit 1`, [idle])
    ).rows[0];
  });

  it('gives staff who may see the child the whole number, and logs the call', async () => {
    const mark = (await logged('call')).length;
    const g = await call({ student_id: idle, user_id: guardian.id });
    expect(g.body).toMatchObject({ code: Code.Ok, data: { mobile: guardian.mobile, name: guardian.name } });
    expect(g.body.data.mobile).toMatch(FULL);
    const p = await call({ student_id: idle, pickup_person_id: pickup.id }, adviser);
    expect(p.body.data).toEqual({ mobile: pickup.mobile, name: pickup.name });
    const a = await call({ student_id: dutyOnly, pickup_person_id: (await info(admin, dutyOnly, 'studentInfo')).pickup_people[0].id }, admin);
    expect(a.body.code).toBe(Code.Ok);
    const rows = (await logged('call')).slice(mark);
    expect(rows).toEqual([
      { actor_role: 2, student_ids: [idle], what: ['call', 'guardians'], action: 'callGuardian' },
      { actor_role: 5, student_ids: [idle], what: ['call', 'pickup'], action: 'callGuardian' },
      { actor_role: 1, student_ids: [dutyOnly], what: ['call', 'pickup'], action: 'callGuardian' },
    ]);
  });

  it('refuses bad input, writing nothing', async () => {
    const before = [await snapshot(t.sql), (await logged('call')).length];
    for (const body of [
      { student_id: idle, user_id: guardian.id, pickup_person_id: pickup.id },
      { student_id: idle },
      { student_id: 'x', user_id: guardian.id },
      { user_id: guardian.id },
      { student_id: idle, user_id: guardian.id, extra: 1 },
    ]) {
      expect((await call(body)).body.code).toBe(Code.Error);
    }
    expect((await call({ student_id: idle, user_id: guardian.id, pickup_person_id: pickup.id })).body.msg).toBe('请选择一位监护人或接送人');
    expect([await snapshot(t.sql), (await logged('call')).length]).toEqual(before);
  });

  it('refuses parents, other schools, children the teacher is not responsible for, and other children’s contacts', async () => {
    const before = (await logged('call')).length;
    expect((await call({ student_id: idle, user_id: guardian.id }, parent)).body).toMatchObject(DENIED);
    const other = await t.otherSchool();
    expect((await call({ student_id: idle, user_id: guardian.id }, other.adminToken)).body.msg).toBe('未找到该学生');
    // the teacher has no duty in 阳光二班
    const stranger = (await t.sql.query(`select user_id from student_guardians where student_id = $1 limit 1`, [dutyOnly])).rows[0].user_id;
    expect((await call({ student_id: dutyOnly, user_id: stranger })).body.msg).toBe('未找到该学生');
    // a guardian or pick-up person of another child, a removed pick-up person
    expect((await call({ student_id: idle, user_id: stranger }, admin)).body.msg).toBe('未找到该联系人');
    const theirs = (await t.sql.query(`select id from pickup_people where student_id = $1 limit 1`, [dutyOnly])).rows[0].id;
    expect((await call({ student_id: idle, pickup_person_id: theirs }, admin)).body.msg).toBe('未找到该联系人');
    await t.sql.query(`update pickup_people set deleted_at = now() where id = $1`, [pickup.id]);
    expect((await call({ student_id: idle, pickup_person_id: pickup.id }, admin)).body.msg).toBe('未找到该联系人');
    await t.sql.query(`update pickup_people set deleted_at = null where id = $1`, [pickup.id]);
    expect((await logged('call')).length).toBe(before);
  });
});

// ---------------------------------------------------------------------------------------------------------------- exports

/** binary answers (xlsx) collected as a Buffer */
const binary = (res: Response, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};
async function cells(buf: Buffer): Promise<string[]> {
  const wb = new Workbook();
  await wb.xlsx.load(buf as unknown as ArrayBuffer);
  const out: string[] = [];
  wb.worksheets[0].eachRow((row) => out.push(...(row.values as unknown[]).slice(1).map((v) => (v === null || v === undefined ? '' : String(v)))));
  return out;
}

describe('exports', () => {
  const active = async () =>
    (await t.sql.query(`select id from students where school_id = $1 and status = 1 order by id`, [t.demo.schoolId])).rows.map((r) => r.id as number);

  it('studentExport masks mobiles by default, the admin may ask for them whole; each export is one row of the log', async () => {
    const mark = (await logged('export')).length;
    const masked = await t.get(api('studentExport?format=xlsx'), admin).buffer(true).parse(binary);
    expect(masked.status).toBe(200);
    const text = (await cells(masked.body as Buffer)).join('\n');
    expect(text).toMatch(/139\*{4}\d{4}/);
    expect(text).not.toMatch(/1\d{10}/);
    const csv = await t.get(api('studentExport?format=csv&unmasked=0'), admin).buffer(true).parse(binary);
    expect((csv.body as Buffer).toString('utf8')).not.toMatch(/1\d{10}/);

    const whole = await t.get(api('studentExport?format=xlsx&unmasked=1'), admin).buffer(true).parse(binary);
    const all = (await cells(whole.body as Buffer)).join('\n');
    expect(all).toMatch(/139000\d{5}/);
    expect(all).not.toContain('****');

    const rows = (await logged('export')).slice(mark);
    expect(rows).toHaveLength(3);
    for (const r of rows) {
      expect(r).toMatchObject({ actor_role: 1, action: 'studentExport', what: ['export', 'profile', 'guardians', 'health'] });
      expect([...r.student_ids].sort((a, b) => a - b)).toEqual(await active());
    }
  });

  it('the unmasked export is the admin’s: others refused, a bad flag refused, nothing logged', async () => {
    const mark = (await logged('export')).length;
    for (const token of [teacher, adviser, parent]) {
      expect((await t.get(api('studentExport?format=xlsx&unmasked=1'), token)).body).toMatchObject(DENIED);
    }
    const bad = await t.get(api('studentExport?format=xlsx&unmasked=yes'), admin);
    expect(bad.body).toMatchObject({ code: Code.Error, msg: '是否显示完整手机号只能是 1 或 0' });
    expect((await logged('export')).length).toBe(mark);
  });

  it('the other exports naming children are logged too', async () => {
    const mark = (await logged('export')).length;
    const contracts = await t.get(api('contractExport'), admin).buffer(true).parse(binary);
    expect(contracts.status).toBe(200);
    const exam = await t
      .post(api('addExam'), admin)
      .send({ name: '隐私测验', subject: '数学', exam_day: '2026-11-20', full_mark: 100, class_ids: [running] });
    expect(exam.body.code).toBe(Code.Ok);
    const scores = await t
      .get(api(`examScoreExport?exam_id=${exam.body.data.id}`), teacher)
      .buffer(true)
      .parse(binary);
    expect(scores.status).toBe(200);
    const rows = (await logged('export')).slice(mark);
    expect(rows.map((r) => [r.action, r.actor_role, r.what])).toEqual([
      ['contractExport', 1, ['export', 'profile', 'guardians']],
      ['examScoreExport', 2, ['export', 'profile']],
    ]);
    const { rows: contracted } = await t.sql.query(`select distinct student_id from contracts where school_id = $1 order by 1`, [t.demo.schoolId]);
    expect([...rows[0].student_ids].sort((a, b) => a - b)).toEqual(contracted.map((r) => r.student_id));
    expect(rows[1].student_ids).toEqual(expect.arrayContaining([onDuty, idle]));
  });
});

// ---------------------------------------------------------------------------------------------------------------- consents

describe('photos and health notes need the guardians’ consent', () => {
  const PHOTO = '/uploads/2026/01/child.jpg';
  const setConsents = (id: number, photo: boolean | null, health: boolean | null) =>
    t.sql.query(`update students set photo_consent = $2, health_consent = $3 where id = $1`, [id, photo, health]);
  const version = async (id: number) => (await t.sql.query(`select version from students where id = $1`, [id])).rows[0].version as number;
  const nameOf = async (id: number) => (await t.sql.query(`select name from students where id = $1`, [id])).rows[0].name as string;
  const comments = async () => Number((await t.sql.query(`select count(*) from daily_comment_versions`)).rows[0].count);
  let mobileNo = 0;
  const guardians = () => [{ name: '新妈妈', mobile: `1361111${String(++mobileNo).padStart(4, '0')}`, relation: '母亲' }];

  beforeAll(async () => {
    // production's defaults: a new student has no consent yet (the test template starts them granted)
    await t.sql.query(`alter table students alter column photo_consent drop default, alter column health_consent drop default`);
  });
  afterAll(() => t.sql.query(`alter table students alter column photo_consent set default true, alter column health_consent set default true`));

  it('addStudent stores no allergy and no photo before a guardian consents', async () => {
    const before = await snapshot(t.sql);
    const allergy = await t.post(api('addStudent'), admin).send({ name: '新同学', allergies: '芒果过敏', guardians: guardians() });
    expect(allergy.body).toMatchObject({ code: Code.Error, msg: '监护人未同意保存新同学的健康备注，不能保存' });
    const photo = await t.post(api('addStudent'), admin).send({ name: '新同学', photo_url: PHOTO, guardians: guardians() });
    expect(photo.body).toMatchObject({ code: Code.Error, msg: '监护人未同意使用新同学的照片，不能上传' });
    expect(await snapshot(t.sql)).toEqual(before);
    const plain = await t.post(api('addStudent'), admin).send({ name: '新同学', allergies: ' ', guardians: guardians() });
    expect(plain.body.data).toMatchObject({ allergies: null, photo_url: null, photo_consent: null, health_consent: null });
  });

  it('studentSetting refuses a new allergy or photo without the consent, keeps what was stored, allows clearing', async () => {
    const name = await nameOf(idle);
    await setConsents(idle, null, null);
    await t.sql.query(`update students set allergies = '花生过敏', photo_url = null where id = $1`, [idle]);
    const before = await snapshot(t.sql);
    for (const [token, body, msg] of [
      [adviser, { allergies: '芒果过敏' }, `监护人未同意保存${name}的健康备注，不能保存`],
      [admin, { photo_url: PHOTO }, `监护人未同意使用${name}的照片，不能上传`],
    ] as const) {
      const res = await t.post(api('studentSetting'), token).send({ id: idle, version: await version(idle), ...body });
      expect(res.body).toMatchObject({ code: Code.Error, msg });
    }
    await setConsents(idle, false, false);
    expect((await t.post(api('studentSetting'), adviser).send({ id: idle, version: await version(idle), allergies: '芒果过敏' })).body.code).toBe(
      Code.Error,
    );
    expect(await snapshot(t.sql)).toEqual(before);
    // the note stored before consents existed is saved back unchanged with the other settings; clearing it is allowed
    await setConsents(idle, null, null);
    const kept = await t
      .post(api('studentSetting'), adviser)
      .send({ id: idle, version: await version(idle), allergies: '花生过敏', needs_dinner: true });
    expect(kept.body.data).toMatchObject({ allergies: '花生过敏', needs_dinner: true, health_consent: null });
    const cleared = await t.post(api('studentSetting'), adviser).send({ id: idle, version: await version(idle), allergies: '' });
    expect(cleared.body.data.allergies).toBeNull();
    // with the consents: saved
    await setConsents(idle, true, true);
    const ok = await t.post(api('studentSetting'), admin).send({ id: idle, version: await version(idle), allergies: '芒果过敏', photo_url: PHOTO });
    expect(ok.body.data).toMatchObject({ allergies: '芒果过敏', photo_url: PHOTO, photo_consent: true, health_consent: true });
  });

  it('studentImport names each row whose allergy has no consent, and imports nothing', async () => {
    const header = [...STUDENT_IMPORT_COLUMNS];
    const row = (name: string, allergies: string, mobile: string) =>
      header.map((c) => ({ 姓名: name, 过敏信息: allergies, 监护人姓名: '导入家长', 监护人手机: mobile, 与学生关系: '母亲' })[c as string] ?? '');
    const csv = Buffer.from(
      `\ufeff${[header, row('导入甲', '', '13622220001'), row('导入乙', '海鲜过敏', '13622220002')].map((r) => r.join(',')).join('\r\n')}\r\n`,
    );
    const before = await snapshot(t.sql);
    const dry = await t.post(api('studentImport'), admin).field('dry_run', '1').attach('file', csv, 'students.csv');
    expect(dry.body.data).toMatchObject({
      valid: 1,
      problems: [{ row: 3, column: '过敏信息', message: '监护人未同意保存导入乙的健康备注，不能保存' }],
    });
    const real = await t.post(api('studentImport'), admin).field('dry_run', '0').attach('file', csv, 'students.csv');
    expect(real.body.code).toBe(Code.Error);
    expect(await snapshot(t.sql)).toEqual(before);
  });

  it('saveDailyComment takes no new photo of a child without the photo consent', async () => {
    const name = await nameOf(onDuty);
    await setConsents(onDuty, false, true);
    const before = [await snapshot(t.sql), await comments()];
    const refused = await t.post(api('saveDailyComment'), teacher).send({ student_id: onDuty, text: '今天很棒', photos: [PHOTO], version: 0 });
    expect(refused.body).toMatchObject({ code: Code.Error, msg: `监护人未同意使用${name}的照片，不能上传` });
    expect([await snapshot(t.sql), await comments()]).toEqual(before);
    // without a photo the comment is saved
    const text = await t.post(api('saveDailyComment'), teacher).send({ student_id: onDuty, text: '今天很棒', version: 0 });
    expect(text.body.code).toBe(Code.Ok);
    // with the consent, photos are attached; a photo already stored stays when the consent is withdrawn later
    await setConsents(onDuty, true, true);
    const photo = await t.post(api('saveDailyComment'), teacher).send({ student_id: onDuty, text: '今天很棒', photos: [PHOTO], version: 1 });
    expect(photo.body).toMatchObject({ code: Code.Ok, data: { photos: [PHOTO] } });
    await setConsents(onDuty, false, true);
    const edit = await t.post(api('saveDailyComment'), teacher).send({ student_id: onDuty, text: '今天非常棒', photos: [PHOTO], version: 2 });
    expect(edit.body.code).toBe(Code.Ok);
    const another = await t
      .post(api('saveDailyComment'), teacher)
      .send({ student_id: onDuty, text: '今天非常棒', photos: [PHOTO, '/uploads/2026/01/b.jpg'], version: 3 });
    expect(another.body.code).toBe(Code.Error);
  });
});
