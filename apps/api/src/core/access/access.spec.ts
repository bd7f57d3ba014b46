import { Role } from '@wantuo/shared';
import { startTestApp, type TestApp } from '../../../test/harness';
import { schoolCaller } from '../auth/current-user.decorator';
import { AppError } from '../http/app-error';
import { AccessRepository, type AccessCaller } from './access';

/**
 * The one access check (issue 38): for each role, which students, care classes and contracts of the school it may
 * touch; another school's ids are never touched; `require…` throws the module's own error unless all are.
 */
describe('AccessRepository', () => {
  let t: TestApp;
  let access: AccessRepository;
  let school: number;
  let other: number;
  const ids = { headed: 0, duty: 0, unrelated: 0, foreign: 0, headedClass: 0, dutyClass: 0, otherClass: 0, contract: 0, foreignContract: 0 };
  let callers: Record<'admin' | 'teacher' | 'adviser' | 'parent', AccessCaller>;

  beforeAll(async () => {
    t = await startTestApp();
    access = t.app.get(AccessRepository);
    school = t.demo.schoolId;
    other = (await t.otherSchool()).schoolId;
    const u = t.demo.users;
    callers = {
      admin: { id: u.admin, role: Role.Admin, schoolId: school },
      teacher: { id: u.teacher, role: Role.Teacher, schoolId: school },
      adviser: { id: u.adviser, role: Role.HeadTeacher, schoolId: school },
      parent: { id: u.parent, role: Role.Parent, schoolId: school },
    };
    const one = async (text: string, params: unknown[]) => (await t.sql.query(text, params)).rows[0].id as number;
    const student = (s: number, name: string) => one(`insert into students (school_id, name) values ($1, $2) returning id`, [s, name]);
    ids.headed = await student(school, '甲');
    ids.duty = await student(school, '乙');
    ids.unrelated = await student(school, '丙');
    ids.foreign = await student(other, '丁');
    const klass = (s: number, name: string, head: number | null) =>
      one(`insert into care_classes (school_id, name, capacity, head_teacher_id) values ($1, $2, 30, $3) returning id`, [s, name, head]);
    ids.headedClass = await klass(school, '一班', u.adviser);
    ids.dutyClass = await klass(school, '二班', null);
    ids.otherClass = await klass(other, '外校班', null);
    const join = (c: number, s: number, st: number) =>
      t.sql.query(`insert into care_class_students (school_id, class_id, student_id) values ($1, $2, $3)`, [s, c, st]);
    await join(ids.headedClass, school, ids.headed);
    await join(ids.dutyClass, school, ids.duty);
    await t.sql.query(`insert into duty_assignments (school_id, class_id, teacher_id, duty) values ($1, $2, $3, 'tutor')`, [
      school,
      ids.dutyClass,
      u.teacher,
    ]);
    await t.sql.query(`insert into student_guardians (school_id, student_id, user_id, relation) values ($1, $2, $3, '妈妈')`, [
      school,
      ids.headed,
      u.parent,
    ]);
    const pkg = (s: number) =>
      one(`insert into contract_packages (school_id, name, kind, length, price_fen) values ($1, '月卡', 'month', 1, 100000) returning id`, [s]);
    const contract = async (s: number, st: number, no: string) =>
      one(
        `insert into contracts (school_id, no, student_id, package_id, kind, start_day, end_day, list_price_fen, price_fen, status)
         values ($1, $2, $3, $4, 'month', '2026-12-01', '2026-12-31', 100000, 100000, 'unpaid') returning id`,
        [s, no, st, await pkg(s)],
      );
    ids.contract = await contract(school, ids.headed, 'AC-1');
    ids.foreignContract = await contract(other, ids.foreign, 'AC-2');
  });
  afterAll(() => t?.close());

  const sorted = (s: Set<number>) => [...s].sort((a, b) => a - b);
  const all = () => [ids.headed, ids.duty, ids.unrelated, ids.foreign];

  it.each([
    ['admin', () => [ids.headed, ids.duty, ids.unrelated]],
    ['adviser', () => [ids.headed]],
    ['teacher', () => [ids.duty]],
    ['parent', () => [ids.headed]],
  ] as const)('students: the %s touches only its own (never another school’s)', async (who, expected) => {
    expect(sorted(await access.students(callers[who], all()))).toEqual(expected().sort((a, b) => a - b));
  });

  it.each([
    ['admin', () => [ids.headedClass, ids.dutyClass]],
    ['adviser', () => [ids.headedClass]],
    ['teacher', () => [ids.dutyClass]],
    ['parent', () => []],
  ] as const)('care classes: the %s touches only its own', async (who, expected) => {
    const got = await access.careClasses(callers[who], [ids.headedClass, ids.dutyClass, ids.otherClass]);
    expect(sorted(got)).toEqual(expected().sort((a, b) => a - b));
  });

  it.each([
    ['admin', () => [ids.contract]],
    ['adviser', () => []],
    ['teacher', () => []],
    ['parent', () => [ids.contract]],
  ] as const)('contracts: the %s touches only its own', async (who, expected) => {
    expect(sorted(await access.contracts(callers[who], [ids.contract, ids.foreignContract]))).toEqual(expected());
  });

  it('an operator (no school role) touches nothing; empty lists answer empty without a query', async () => {
    const operator: AccessCaller = { id: t.demo.users.operator, role: Role.Operator, schoolId: school };
    expect((await access.students(operator, all())).size).toBe(0);
    expect((await access.students(callers.admin, [])).size).toBe(0);
  });

  it('require… throws the module’s own error unless every id may be touched (duplicates counted once)', async () => {
    const error = new AppError('stu.not_found');
    await expect(access.requireStudents(callers.admin, [ids.headed, ids.headed, ids.duty], error)).resolves.toBeUndefined();
    await expect(access.requireStudents(callers.admin, [ids.headed, ids.foreign], error)).rejects.toBe(error);
    await expect(access.requireCareClasses(callers.teacher, [ids.headedClass], error)).rejects.toBe(error);
    await expect(access.requireContracts(callers.parent, [ids.contract], error)).resolves.toBeUndefined();
  });

  it('activeOnly leaves out an archived student', async () => {
    await t.sql.query(`update students set status = 0 where id = $1`, [ids.unrelated]);
    expect(await access.students(callers.admin, [ids.unrelated], { activeOnly: true })).toEqual(new Set());
    expect(await access.students(callers.admin, [ids.unrelated])).toEqual(new Set([ids.unrelated]));
  });
});

describe('schoolCaller', () => {
  const user = { id: 1, role: Role.Admin, name: '', nickname: '', lang: 'zh-CN' as const, tokenId: 1 };
  it('narrows a user of a school; a user without one (the operator) is answered forbidden', () => {
    expect(schoolCaller({ ...user, schoolId: 3 }).schoolId).toBe(3);
    expect(() => schoolCaller({ ...user, role: Role.Operator, schoolId: null })).toThrow(new AppError('auth.forbidden'));
  });
});
