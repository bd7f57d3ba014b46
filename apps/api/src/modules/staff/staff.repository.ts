import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { JobStatus, Role, type StaffDuty, type StaffPick, type StaffRow } from '@wantuo/shared';
import { sql, type ExpressionBuilder, type UpdateObject } from 'kysely';
import { DataSource } from 'typeorm';
import { kdb, pageRows, type DB } from '../../core/database/kysely';
import type { PageQuery, Queryable } from '../../core/database/sql-kit';

type UsersEb = ExpressionBuilder<DB, 'users'>;

/** The columns of a staff account; never the password hash. */
const columns = (eb: UsersEb) =>
  [
    'users.id',
    'users.username',
    'users.name',
    'users.nickname',
    'users.mobile',
    'users.email',
    sql<StaffRow['role']>`${eb.ref('users.role')}::int`.as('role'),
    eb.ref('users.duties').$castTo<StaffDuty[]>().as('duties'),
    sql<StaffRow['gender']>`${eb.ref('users.gender')}::int`.as('gender'),
    'users.remark',
    sql<StaffRow['job_status']>`${eb.ref('users.job_status')}::int`.as('job_status'),
    'users.left_at',
    'users.last_login_at',
    'users.version',
    'users.created_at',
  ] as const;

const pickColumns = (eb: UsersEb) =>
  [
    'users.id',
    'users.name',
    'users.nickname',
    'users.mobile',
    sql<StaffPick['role']>`${eb.ref('users.role')}::int`.as('role'),
    eb.ref('users.duties').$castTo<StaffDuty[]>().as('duties'),
  ] as const;

/** keyword matches part of the name, nickname, user name or mobile (case-insensitive, no pattern characters) */
const keyword = (kw: string | null) => (eb: UsersEb) =>
  kw === null
    ? eb.val(true)
    : eb.or([
        sql<boolean>`strpos(lower(${eb.ref('users.name')}), lower(${kw})) > 0`,
        sql<boolean>`strpos(lower(${eb.ref('users.nickname')}), lower(${kw})) > 0`,
        sql<boolean>`strpos(lower(${eb.ref('users.username')}), lower(${kw})) > 0`,
        sql<boolean>`strpos(coalesce(${eb.ref('users.mobile')}, ''), ${kw}) > 0`,
      ]);

const hasDuty = (eb: UsersEb, duty: StaffDuty) => sql<boolean>`${duty} = any(${eb.ref('users.duties')})`;

/** Which on-job staff each duty picker lists. */
const PICKERS = {
  /** the head teacher of a care class: head teachers, and teachers with the head duty */
  head: (eb: UsersEb) => eb.or([eb('users.role', '=', Role.HeadTeacher), hasDuty(eb, 'head')]),
  shuttle: (eb: UsersEb) => hasDuty(eb, 'shuttle'),
  tutor: (eb: UsersEb) => hasDuty(eb, 'tutor'),
} as const;
export type Picker = keyof typeof PICKERS;

/** The profile fields a write changes. */
export interface StaffChanges {
  name?: string;
  nickname?: string;
  mobile?: string;
  role?: StaffRow['role'];
  duties?: readonly StaffDuty[];
  gender?: StaffRow['gender'];
  email?: string | null;
  remark?: string | null;
}

/** The SQL of the staff module (issue 38): every statement typed by the schema. */
@Injectable()
export class StaffRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** A page of the school's staff of `roles`, by job status then newest, with the total (one statement). */
  page(schoolId: number, roles: Role[], jobStatus: number | null, kw: string | null, q: PageQuery) {
    const k = kdb(this.db);
    const filter = (eb: UsersEb) =>
      eb.and([
        eb('users.school_id', '=', schoolId),
        eb('users.deleted_at', 'is', null),
        eb('users.role', 'in', roles),
        ...(jobStatus === null ? [] : [eb('users.job_status', '=', jobStatus)]),
        keyword(kw)(eb),
      ]);
    const total = k
      .selectFrom('users')
      .select((eb) => sql<number>`${eb.fn.countAll()}::int`.as('total'))
      .where(filter);
    const list = k.selectFrom('users').select(columns).where(filter).orderBy('users.job_status').orderBy('users.id', 'desc');
    return pageRows(this.db, total, list, q);
  }

  /** One profile of the school: `self`, or a teacher or head teacher. */
  profile(schoolId: number, id: number, self: number) {
    return kdb(this.db)
      .selectFrom('users')
      .select(columns)
      .where('users.id', '=', id)
      .where('users.school_id', '=', schoolId)
      .where('users.deleted_at', 'is', null)
      .where((eb) => eb.or([eb('users.id', '=', self), eb('users.role', 'in', [Role.Teacher, Role.HeadTeacher])]))
      .executeTakeFirst();
  }

  async usernameTaken(em: Queryable, username: string): Promise<boolean> {
    const r = await kdb(em)
      .selectFrom('users')
      .select(sql.lit(1).as('one'))
      .where(sql<string>`lower(username)`, '=', sql<string>`lower(${username})`)
      .executeTakeFirst();
    return r !== undefined;
  }

  insert(
    em: Queryable,
    row: {
      school_id: number | null;
      role: Role;
      username: string;
      name: string;
      nickname: string;
      mobile: string;
      email: string | null;
      password_hash: string;
      duties: readonly string[];
      gender: number | null;
      remark: string | null;
    },
  ) {
    return kdb(em)
      .insertInto('users')
      .values({ ...row, duties: sql<string[]>`${[...row.duties]}::varchar[]` })
      .returning(columns)
      .executeTakeFirstOrThrow();
  }

  /** Applies the changes (and moves the version on); `version`: only on that version. */
  update(em: Queryable, id: number, version: number | null, c: StaffChanges) {
    const set: UpdateObject<DB, 'users'> = {};
    if (c.name !== undefined) set.name = c.name;
    if (c.nickname !== undefined) set.nickname = c.nickname;
    if (c.mobile !== undefined) set.mobile = c.mobile;
    if (c.role !== undefined) set.role = c.role;
    if (c.duties !== undefined) set.duties = sql<string[]>`${[...c.duties]}::varchar[]`;
    if (c.gender !== undefined) set.gender = c.gender;
    if (c.email !== undefined) set.email = c.email;
    if (c.remark !== undefined) set.remark = c.remark;
    return kdb(em)
      .updateTable('users')
      .set((eb) => ({ ...set, version: eb('users.version', '+', 1), updated_at: sql`now()` }))
      .where('users.id', '=', id)
      .$if(version !== null, (b) => b.where('users.version', '=', version!).where('users.deleted_at', 'is', null))
      .returning(columns)
      .executeTakeFirst();
  }

  /** The classes (not deleted) a teacher heads, and those where they hold each duty. */
  holdsOf(em: Queryable, schoolId: number, teacherId: number) {
    const k = kdb(em);
    return k
      .selectFrom('care_classes as c')
      .select((eb) => [
        sql<'class_head' | StaffDuty>`'class_head'`.as('duty'),
        sql<string>`string_agg(${eb.ref('c.name')}, '、' order by ${eb.ref('c.id')})`.as('classes'),
      ])
      .where('c.school_id', '=', schoolId)
      .where('c.head_teacher_id', '=', teacherId)
      .where('c.deleted_at', 'is', null)
      .having((eb) => eb.fn.countAll(), '>', 0)
      .unionAll(
        k
          .selectFrom('duty_assignments as d')
          .innerJoin('care_classes as c', (j) => j.onRef('c.id', '=', 'd.class_id').on('c.deleted_at', 'is', null))
          .select((eb) => [
            eb.ref('d.duty').$castTo<'class_head' | StaffDuty>().as('duty'),
            sql<string>`string_agg(distinct ${eb.ref('c.name')}, '、')`.as('classes'),
          ])
          .where('d.school_id', '=', schoolId)
          .where('d.teacher_id', '=', teacherId)
          .groupBy('d.duty'),
      )
      .execute();
  }

  async softDelete(em: Queryable, id: number, version: number): Promise<void> {
    await kdb(em)
      .updateTable('users')
      .set((eb) => ({ deleted_at: sql`now()`, updated_at: sql`now()`, version: eb('version', '+', 1) }))
      .where('id', '=', id)
      .where('version', '=', version)
      .execute();
  }

  async setPassword(em: Queryable, id: number, passwordHash: string, version: number): Promise<void> {
    await kdb(em)
      .updateTable('users')
      .set((eb) => ({
        password_hash: passwordHash,
        failed_logins: 0,
        locked_until: null,
        updated_at: sql`now()`,
        version: eb('version', '+', 1),
      }))
      .where('id', '=', id)
      .where('version', '=', version)
      .execute();
  }

  /** The caller's own account's version, locked. */
  ownVersion(em: Queryable, id: number, schoolId: number | null) {
    return kdb(em)
      .selectFrom('users')
      .select('version')
      .where('id', '=', id)
      .where('school_id', '=', schoolId)
      .where('deleted_at', 'is', null)
      .forUpdate()
      .executeTakeFirst();
  }

  /** A page of the on-job staff a picker lists, by name, with the total (one statement). */
  picker(schoolId: number | null, kind: Picker, kw: string | null, q: PageQuery) {
    const k = kdb(this.db);
    const filter = (eb: UsersEb) =>
      eb.and([
        eb('users.school_id', '=', schoolId),
        eb('users.deleted_at', 'is', null),
        eb('users.status', '=', 1),
        eb('users.job_status', '=', JobStatus.OnJob),
        eb('users.role', 'in', [Role.Teacher, Role.HeadTeacher]),
        PICKERS[kind](eb),
        keyword(kw)(eb),
      ]);
    const total = k
      .selectFrom('users')
      .select((eb) => sql<number>`${eb.fn.countAll()}::int`.as('total'))
      .where(filter);
    const list = k.selectFrom('users').select(pickColumns).where(filter).orderBy('users.name').orderBy('users.id');
    return pageRows(this.db, total, list, q);
  }

  /** The staff account an admin action works on, locked for the transaction. */
  target(em: Queryable, schoolId: number | null, id: number) {
    return kdb(em)
      .selectFrom('users')
      .select(columns)
      .where('users.id', '=', id)
      .where('users.school_id', '=', schoolId)
      .where('users.deleted_at', 'is', null)
      .where('users.role', 'in', [Role.Admin, Role.Teacher, Role.HeadTeacher])
      .forUpdate()
      .executeTakeFirst();
  }

  setJob(em: Queryable, id: number, version: number, status: JobStatus) {
    return kdb(em)
      .updateTable('users')
      .set((eb) => ({
        job_status: status,
        left_at: status === JobStatus.Left ? sql`now()` : null,
        updated_at: sql`now()`,
        version: eb('users.version', '+', 1),
      }))
      .where('users.id', '=', id)
      .where('users.version', '=', version)
      .returning(columns)
      .executeTakeFirstOrThrow();
  }

  async revokeTokens(em: Queryable, userId: number): Promise<void> {
    await kdb(em)
      .updateTable('user_tokens')
      .set({ revoked_at: sql`now()` })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .execute();
  }

  /** Locks (school, mobile) for the transaction. */
  async lockMobile(em: Queryable, schoolId: number, mobile: string): Promise<void> {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`staff-mobile:${schoolId}:${mobile}`}, 0))`.execute(kdb(em));
  }

  /** The name of another live account of the school with the mobile. */
  async mobileHolder(on: Queryable, schoolId: number | null, mobile: string | undefined, exceptId: number | null): Promise<string | undefined> {
    const r = await kdb(on)
      .selectFrom('users')
      .select('name')
      .where('school_id', '=', schoolId)
      .where('mobile', '=', mobile ?? null)
      .where('deleted_at', 'is', null)
      .$if(exceptId !== null, (b) => b.where('id', '<>', exceptId!))
      .limit(1)
      .executeTakeFirst();
    return r?.name;
  }

  async emailTaken(em: Queryable, email: string, exceptId: number | null): Promise<boolean> {
    const r = await kdb(em)
      .selectFrom('users')
      .select(sql.lit(1).as('one'))
      .where(sql<string>`lower(email)`, '=', sql<string>`lower(${email})`)
      .$if(exceptId !== null, (b) => b.where('id', '<>', exceptId!))
      .limit(1)
      .executeTakeFirst();
    return r !== undefined;
  }

  /** Serialises the choice of a user name from `base`; then the lower-cased names taken from it. */
  async usernamesFrom(em: Queryable, base: string): Promise<string[]> {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`staff-username:${base.toLowerCase()}`}, 0))`.execute(kdb(em));
    const rows = await kdb(em)
      .selectFrom('users')
      .select(sql<string>`lower(username)`.as('name'))
      .where((eb) =>
        eb.or([eb(sql<string>`lower(username)`, '=', sql<string>`lower(${base})`), sql<boolean>`lower(username) like lower(${base}) || '\\_%'`]),
      )
      .execute();
    return rows.map((r) => r.name);
  }
}

/** A staff account as the repository selects it: the answer StaffRow, its times still Dates. */
export type StaffAccount = NonNullable<Awaited<ReturnType<StaffRepository['target']>>>;
