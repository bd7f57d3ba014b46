import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  Role,
  StudentStatus,
  STUDENT_INFO_MAX_CLASSES,
  STUDENT_INFO_MAX_CONTRACTS,
  type ParentChild,
  type SchoolGradeResult,
  type StudentCareClass,
  type StudentListInput,
  type StudentRow,
  type StudentSettingInput,
  type TeachingClass,
} from '@wantuo/shared';
import { sql, type ExpressionBuilder, type Insertable, type Updateable } from 'kysely';
import { DataSource } from 'typeorm';
import { responsibleFor } from '../../core/access/access';
import { kdb, pageRows, type DB } from '../../core/database/kysely';
import { escapeLike, type PageQuery, type Queryable } from '../../core/database/sql-kit';
import { maskedMobile, mobileOf, type MobileView } from '../privacy/mobile-access';
import { CLASS_COLUMNS, CLASS_JOINS } from '../teaching/teaching-sql';
import { schoolTodayRow, studentContracts } from './student-sql';

export type ListFilters = Omit<StudentListInput, 'page' | 'limit'>;

type StudentsEb = ExpressionBuilder<DB & { s: DB['students'] }, 's'>;
type WithClassEb = ExpressionBuilder<DB & { s: DB['students']; ccs: DB['care_class_students']; cc: DB['care_classes'] }, 's' | 'ccs' | 'cc'>;

/** The student list filters over `s` (the student) of the school. */
const listed = (schoolId: number, f: ListFilters) => (eb: StudentsEb) => {
  const conds = [eb('s.school_id', '=', schoolId), eb('s.status', '=', f.status ?? StudentStatus.Active)];
  if (f.keyword) {
    const kw = escapeLike(f.keyword);
    const name = eb('s.name', 'like', `%${kw}%`);
    if (/^\d{3,11}$/.test(f.keyword)) {
      // a hashed subplan: the guardians' students are found once, not probed per student
      conds.push(
        eb.or([
          name,
          eb(
            's.id',
            'in',
            eb
              .selectFrom('users as ku')
              .innerJoin('student_guardians as kg', 'kg.user_id', 'ku.id')
              .select('kg.student_id')
              .where('ku.school_id', '=', schoolId)
              .where('ku.role', '=', Role.Parent)
              .where('ku.deleted_at', 'is', null)
              .where('ku.mobile', 'like', `${kw}%`),
          ),
        ]),
      );
    } else {
      conds.push(name);
    }
  }
  if (f.grade) conds.push(eb('s.grade', '=', f.grade));
  if (f.class_name) conds.push(eb('s.class_name', '=', f.class_name));
  if (f.day_school) conds.push(eb('s.day_school', '=', f.day_school));
  if (f.class_id) {
    const classId = f.class_id;
    conds.push(
      eb.exists(
        eb
          .selectFrom('care_class_students as fc')
          .select(sql.lit(1).as('one'))
          .whereRef('fc.student_id', '=', 's.id')
          .where('fc.class_id', '=', classId),
      ),
    );
  }
  return eb.and(conds);
};

/** Students with their care class (`s` the student, `ccs` its membership, `cc` its class). */
const withCareClass = (on: Queryable) =>
  kdb(on)
    .selectFrom('students as s')
    .leftJoin('care_class_students as ccs', 'ccs.student_id', 's.id')
    .leftJoin('care_classes as cc', (j) => j.onRef('cc.id', '=', 'ccs.class_id').on('cc.deleted_at', 'is', null));

const gender = (eb: WithClassEb) => sql<StudentRow['gender']>`${eb.ref('s.gender')}::int`.as('gender');
const status = (eb: WithClassEb) => sql<StudentRow['status']>`${eb.ref('s.status')}::int`.as('status');
const careClass = (eb: WithClassEb) =>
  sql<StudentRow['care_class']>`case when ${eb.ref('cc.id')} is null then null else json_build_object('id', ${eb.ref('cc.id')}, 'name', ${eb.ref(
    'cc.name',
  )}) end`.as('care_class');

/** The columns of a student row (StudentRow without its guardians). */
const rowColumns = (eb: WithClassEb) =>
  [
    's.id',
    's.name',
    gender(eb),
    sql<string | null>`to_char(${eb.ref('s.birthday')}, 'YYYY-MM-DD')`.as('birthday'),
    's.day_school',
    's.grade',
    's.class_name',
    's.photo_url',
    's.allergies',
    's.needs_shuttle',
    's.needs_dinner',
    's.tutoring_type',
    status(eb),
    's.archived_at',
    's.version',
    's.created_at',
  ] as const;

/** teacherStudentList's row (TeacherStudentRow): what the teachers' lists show, nothing more. */
const teacherColumns = (eb: WithClassEb) =>
  [
    's.id',
    's.name',
    gender(eb),
    's.day_school',
    's.grade',
    's.class_name',
    's.allergies',
    's.needs_shuttle',
    's.needs_dinner',
    's.tutoring_type',
    status(eb),
    's.version',
    careClass(eb),
  ] as const;

/** A pick-up person to insert. */
export interface NewPickup {
  name: string;
  relation: string;
  mobile: string;
  photo_url?: string;
}

/** The SQL of the students module's student rows (issue 38): every statement typed by the schema. */
@Injectable()
export class StudentsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** A page of the school's students `f` selects, newest first, with the total (one statement). */
  page(schoolId: number, f: ListFilters, q: PageQuery) {
    const total = kdb(this.db)
      .selectFrom('students as s')
      .select((eb) => sql<number>`${eb.fn.countAll()}::int`.as('total'))
      .where(listed(schoolId, f));
    const list = withCareClass(this.db)
      .select((eb) => [...rowColumns(eb), careClass(eb)])
      .where(listed(schoolId, f))
      .orderBy('s.id', 'desc');
    return pageRows(this.db, total, list, q);
  }

  /** Every student `f` selects (the export), newest first, at most `max`. */
  all(schoolId: number, f: ListFilters, max: number) {
    return withCareClass(this.db)
      .select((eb) => [...rowColumns(eb), careClass(eb)])
      .where(listed(schoolId, f))
      .orderBy('s.id', 'desc')
      .limit(sql.lit(Math.trunc(max)))
      .execute();
  }

  /** A page of the active students the teacher is responsible for, by name (one statement). */
  teacherPage(schoolId: number, teacherId: number, f: { keyword?: string; class_id?: number }, q: PageQuery) {
    const filter = (eb: WithClassEb) =>
      eb.and([
        eb('s.school_id', '=', schoolId),
        eb('s.status', '=', StudentStatus.Active),
        responsibleFor(eb, eb.ref('s.id'), teacherId),
        ...(f.keyword ? [eb('s.name', 'like', `%${escapeLike(f.keyword)}%`)] : []),
        ...(f.class_id ? [eb('ccs.class_id', '=', f.class_id)] : []),
      ]);
    const total = withCareClass(this.db)
      .select((eb) => sql<number>`${eb.fn.countAll()}::int`.as('total'))
      .where(filter);
    const list = withCareClass(this.db).select(teacherColumns).where(filter).orderBy('s.name').orderBy('s.id');
    return pageRows(this.db, total, list, q);
  }

  /** A parent's own active children of the school, youngest last (by birthday, then id). */
  children(schoolId: number, userId: number) {
    return kdb(this.db)
      .selectFrom('student_guardians as g')
      .innerJoin('students as s', (j) =>
        j.onRef('s.id', '=', 'g.student_id').on('s.school_id', '=', schoolId).on('s.status', '=', StudentStatus.Active),
      )
      .leftJoin('care_class_students as cs', 'cs.student_id', 's.id')
      .leftJoin('care_classes as c', (j) => j.onRef('c.id', '=', 'cs.class_id').on('c.deleted_at', 'is', null))
      .leftJoin('users as h', 'h.id', 'c.head_teacher_id')
      .select((eb) => [
        's.id',
        's.name',
        sql<ParentChild['gender']>`${eb.ref('s.gender')}::int`.as('gender'),
        's.day_school',
        's.grade',
        's.class_name',
        's.photo_url',
        'g.relation',
        sql<ParentChild['care_class']>`case when ${eb.ref('c.id')} is null then null else json_build_object('id', ${eb.ref('c.id')}, 'name', ${eb.ref(
          'c.name',
        )}, 'head_teacher_name', ${eb.ref('h.name')}) end`.as('care_class'),
      ])
      .where('g.user_id', '=', userId)
      .orderBy(sql`s.birthday nulls last`)
      .orderBy('s.id')
      .execute();
  }

  /**
   * The rest of the admin's student page in one statement: its points balance, contracts (open first, then newest)
   * and their count, and teaching classes (as studentTeachingClassList gives them).
   */
  async infoExtras(schoolId: number, id: number) {
    const k = kdb(this.db);
    const row = await k
      .selectFrom(schoolTodayRow(k, schoolId))
      .select((eb) => [
        sql<number>`coalesce(${eb.selectFrom('points_accounts as a').select('a.balance').where('a.student_id', '=', id)}, 0)::int`.as(
          'points_balance',
        ),
        eb
          .selectFrom('contracts as c')
          .select((c) => sql<number>`${c.fn.countAll()}::int`.as('n'))
          .where('c.student_id', '=', id)
          .where('c.school_id', '=', schoolId)
          .as('contracts_total'),
        studentContracts(eb, id, schoolId, { openOnly: false, limit: STUDENT_INFO_MAX_CONTRACTS }).as('contracts'),
        // the teaching classes' columns are the teaching module's (CLASS_COLUMNS)
        sql<TeachingClass[]>`coalesce((select json_agg(to_jsonb(y) - 'ord' order by y.ord) from (
           select ${sql.raw(CLASS_COLUMNS)}, row_number() over (order by c.status desc, c.id desc) as ord
             from teaching_class_students m join teaching_classes c on c.id = m.class_id ${sql.raw(CLASS_JOINS)}
            where m.student_id = ${id} and c.school_id = ${schoolId} and c.deleted_at is null
            order by ord limit ${sql.lit(STUDENT_INFO_MAX_CLASSES)}) y), '[]'::json)`.as('teaching_classes'),
      ])
      .executeTakeFirstOrThrow();
    // the count and the aggregate always answer a row (coalesce makes no contracts an empty array): never null
    return { ...row, contracts_total: row.contracts_total ?? 0, contracts: row.contracts ?? [] };
  }

  /** The first active student of the school with this name and a guardian with this mobile. */
  async withGuardianMobile(schoolId: number, name: string, mobile: string): Promise<number | undefined> {
    const r = await kdb(this.db)
      .selectFrom('students as s')
      .select('s.id')
      .where('s.school_id', '=', schoolId)
      .where('s.status', '=', StudentStatus.Active)
      .where('s.name', '=', name)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('student_guardians as g')
            .innerJoin('users as u', 'u.id', 'g.user_id')
            .select(sql.lit(1).as('one'))
            .whereRef('g.student_id', '=', 's.id')
            .where('u.mobile', '=', mobile),
        ),
      )
      .orderBy('s.id')
      .limit(1)
      .executeTakeFirst();
    return r?.id;
  }

  /** A guardian mobile of `mobiles` an active student of the school with this name already has. */
  async duplicateMobile(em: Queryable, schoolId: number, name: string, mobiles: string[]): Promise<string | undefined> {
    const r = await kdb(em)
      .selectFrom('students as s')
      .innerJoin('student_guardians as g', 'g.student_id', 's.id')
      .innerJoin('users as u', 'u.id', 'g.user_id')
      .select('u.mobile')
      .where('s.school_id', '=', schoolId)
      .where('s.status', '=', StudentStatus.Active)
      .where('s.name', '=', name)
      .where('u.mobile', '=', sql<string>`any(${mobiles})`)
      .limit(1)
      .executeTakeFirst();
    return r ? (r.mobile ?? '') : undefined;
  }

  /** The (name, guardian mobile) pairs of the list that active students of the school already have. */
  duplicates(em: Queryable, schoolId: number, names: string[], mobiles: string[]) {
    return kdb(em)
      .selectFrom('students as s')
      .innerJoin('student_guardians as g', 'g.student_id', 's.id')
      .innerJoin('users as u', 'u.id', 'g.user_id')
      .select(['s.name', 'u.mobile'])
      .distinct()
      .where('s.school_id', '=', schoolId)
      .where('s.status', '=', StudentStatus.Active)
      .where(sql<boolean>`(s.name, u.mobile) in (select * from unnest(${names}::text[], ${mobiles}::text[]))`)
      .execute();
  }

  async insert(em: Queryable, row: Insertable<DB['students']>): Promise<number> {
    const r = await kdb(em).insertInto('students').values(row).returning('id').executeTakeFirstOrThrow();
    return r.id;
  }

  /** `n` fresh student ids, ascending (the import inserts its rows with them). */
  async nextIds(em: Queryable, n: number): Promise<number[]> {
    const rows = await kdb(em)
      .selectFrom(sql<{ g: number }>`generate_series(1, ${n})`.as('g'))
      .select(sql<number>`nextval(pg_get_serial_sequence('students', 'id'))::int`.as('id'))
      .orderBy(sql.lit(1))
      .execute();
    return rows.map((r) => r.id);
  }

  /** The import's students (their ids from nextIds), in one statement. */
  async insertMany(
    em: Queryable,
    schoolId: number,
    rows: ReadonlyArray<{
      id: number;
      name: string;
      gender: number | null;
      birthday: string | null;
      day_school: string | null;
      grade: string | null;
      class_name: string | null;
      allergies: string | null;
      notes: string | null;
      needs_shuttle: boolean;
      needs_dinner: boolean;
    }>,
  ): Promise<void> {
    await kdb(em)
      .insertInto('students')
      .columns([
        'id',
        'school_id',
        'name',
        'gender',
        'birthday',
        'day_school',
        'grade',
        'class_name',
        'allergies',
        'notes',
        'needs_shuttle',
        'needs_dinner',
      ])
      .expression(
        sql`select x.id, ${schoolId}::int, x.name, x.gender, x.birthday, x.day_school, x.grade, x.class_name, x.allergies, x.notes, x.needs_shuttle, x.needs_dinner
           from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(id int, name text, gender smallint, birthday date, day_school text, grade text,
                class_name text, allergies text, notes text, needs_shuttle boolean, needs_dinner boolean)`,
      )
      .execute();
  }

  /** Links the guardians to the student. */
  async insertGuardians(
    em: Queryable,
    schoolId: number,
    links: ReadonlyArray<{ student_id: number; user_id: number; relation: string; is_primary: boolean }>,
  ): Promise<void> {
    await kdb(em)
      .insertInto('student_guardians')
      .columns(['school_id', 'student_id', 'user_id', 'relation', 'is_primary'])
      .expression(
        sql`select ${schoolId}::int, x.student_id, x.user_id, x.relation, x.is_primary
              from jsonb_to_recordset(${JSON.stringify(links)}::jsonb) as x(student_id int, user_id int, relation text, is_primary boolean)`,
      )
      .execute();
  }

  /** Archives an active student of the school (on `version` when given); undefined when none was. */
  archive(schoolId: number, id: number, version: number | null) {
    return kdb(this.db)
      .updateTable('students')
      .set((eb) => ({
        status: StudentStatus.Archived,
        archived_at: sql`now()`,
        updated_at: sql`now()`,
        version: eb('version', '+', 1),
      }))
      .where('id', '=', id)
      .where('school_id', '=', schoolId)
      .where('status', '=', StudentStatus.Active)
      .$if(version !== null, (q) => q.where('version', '=', version!))
      .returning(['id', 'version'])
      .executeTakeFirst();
  }

  /** The student's status and version. */
  state(schoolId: number, id: number) {
    return kdb(this.db)
      .selectFrom('students')
      .select(['status', 'version'])
      .where('id', '=', id)
      .where('school_id', '=', schoolId)
      .executeTakeFirst();
  }

  /** Grades and their classes among the school's active students. */
  async grades(schoolId: number): Promise<SchoolGradeResult> {
    const rows = await kdb(this.db)
      .selectFrom('students')
      .select((eb) => [
        'grade',
        sql<string[]>`coalesce(array_agg(distinct ${eb.ref('class_name')} order by ${eb.ref('class_name')}) filter (where ${eb.ref(
          'class_name',
        )} is not null), '{}')`.as('classes'),
      ])
      .where('school_id', '=', schoolId)
      .where('status', '=', StudentStatus.Active)
      .where('grade', 'is not', null)
      .groupBy('grade')
      .orderBy('grade')
      .execute();
    return rows as SchoolGradeResult;
  }

  /** The care settings of a student of the school. */
  setting(schoolId: number, id: number) {
    return kdb(this.db)
      .selectFrom('students')
      .select(['id', 'name', 'needs_shuttle', 'needs_dinner', 'tutoring_type', 'allergies', 'photo_consent', 'health_consent', 'version'])
      .where('id', '=', id)
      .where('school_id', '=', schoolId)
      .executeTakeFirst();
  }

  /** Writes `changes` on the version read (and moves it on); the id, or undefined when the version moved. */
  update(em: Queryable, schoolId: number, id: number, version: number, changes: Updateable<DB['students']>) {
    return kdb(em)
      .updateTable('students')
      .set((eb) => ({ ...changes, updated_at: sql`now()`, version: eb('version', '+', 1) }))
      .where('id', '=', id)
      .where('school_id', '=', schoolId)
      .where('version', '=', version)
      .returning('id')
      .executeTakeFirst();
  }

  /** The student's name, health note, photo and consents, locked (a consent withdrawal waits for the write). */
  consentsForUpdate(em: Queryable, schoolId: number, id: number) {
    return kdb(em)
      .selectFrom('students')
      .select(['name', 'allergies', 'photo_url', 'photo_consent', 'health_consent'])
      .where('id', '=', id)
      .where('school_id', '=', schoolId)
      .forUpdate()
      .executeTakeFirst();
  }

  /** The photo and health consents a student inserted now starts with: the columns' defaults. */
  newStudentConsents(em: Queryable) {
    return kdb(em)
      .selectFrom(
        sql<{ column_name: string; column_default: string | null; table_schema: string; table_name: string }>`information_schema.columns`.as(
          'columns',
        ),
      )
      .select([
        sql<boolean>`coalesce(bool_or(column_name = 'photo_consent' and column_default = 'true'), false)`.as('photo'),
        sql<boolean>`coalesce(bool_or(column_name = 'health_consent' and column_default = 'true'), false)`.as('health'),
      ])
      .where(sql<boolean>`table_schema = current_schema()`)
      .where('table_name', '=', 'students')
      .where('column_name', 'in', ['photo_consent', 'health_consent'])
      .executeTakeFirstOrThrow();
  }

  /** One advisory lock per school for student writes: duplicate checks and parent creation do not race. */
  async lockSchool(em: Queryable, schoolId: number): Promise<void> {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`students:${schoolId}`}, 0))`.execute(kdb(em));
  }

  /** The school's live accounts with these mobiles. */
  usersByMobile(em: Queryable, schoolId: number, mobiles: string[]) {
    return kdb(em)
      .selectFrom('users')
      .select(['id', 'mobile', 'role'])
      .where('school_id', '=', schoolId)
      .where('mobile', '=', sql<string>`any(${mobiles})`)
      .where('deleted_at', 'is', null)
      .execute();
  }

  /** The mobiles of `mobiles` a live staff account of the school has. */
  staffMobiles(em: Queryable, schoolId: number, mobiles: string[]) {
    return kdb(em)
      .selectFrom('users')
      .select('mobile')
      .where('school_id', '=', schoolId)
      .where('mobile', '=', sql<string>`any(${mobiles})`)
      .where('deleted_at', 'is', null)
      .where('role', '<>', Role.Parent)
      .execute();
  }

  /**
   * New parent accounts (no password: parents sign in with SMS codes). User names are unique across schools:
   * p<mobile>, or with a random suffix when another school has it.
   */
  async insertParents(em: Queryable, schoolId: number, people: ReadonlyArray<{ mobile: string; name: string }>): Promise<void> {
    await kdb(em)
      .insertInto('users')
      .columns(['school_id', 'role', 'username', 'name', 'nickname', 'mobile'])
      .expression(
        sql`select ${schoolId}::int, ${sql.lit(Role.Parent)},
                case when exists (select 1 from users o where lower(o.username) = 'p' || x.mobile)
                     then 'p' || x.mobile || '_' || substr(md5(random()::text || x.mobile), 1, 8) else 'p' || x.mobile end,
                x.name, x.name, x.mobile
           from jsonb_to_recordset(${JSON.stringify(people)}::jsonb) as x(mobile text, name text)`,
      )
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  /** The names of these accounts. */
  userNames(em: Queryable, ids: number[]) {
    return kdb(em)
      .selectFrom('users')
      .select(['id', 'name'])
      .where('id', '=', sql<number>`any(${ids})`)
      .execute();
  }

  /** The student of the school with its care class (and head teacher), without guardians and pick-up people. */
  detail(em: Queryable, schoolId: number, id: number) {
    return withCareClass(em)
      .leftJoin('users as ht', 'ht.id', 'cc.head_teacher_id')
      .select((eb) => [
        ...rowColumns(eb),
        sql<StudentCareClass | null>`case when ${eb.ref('cc.id')} is null then null else json_build_object('id', ${eb.ref('cc.id')}, 'name', ${eb.ref(
          'cc.name',
        )}, 'head_teacher_id', ${eb.ref('cc.head_teacher_id')}, 'head_teacher_name', ${eb.ref('ht.name')}) end`.as('care_class'),
        's.notes',
        's.updated_at',
        's.guardians_version',
        's.photo_consent',
        's.health_consent',
      ])
      .where('s.id', '=', id)
      .where('s.school_id', '=', schoolId)
      .executeTakeFirst();
  }

  /** The guardians of these students (their mobiles as `view` shows them), primary first, then by when linked. */
  guardians(em: Queryable, ids: number[], view: MobileView) {
    return kdb(em)
      .selectFrom('student_guardians as g')
      .innerJoin('users as u', 'u.id', 'g.user_id')
      .select((eb) => [
        'g.student_id',
        'g.user_id',
        'u.name',
        mobileOf(eb, view, eb.ref('u.mobile'), eb.ref('g.student_id')).as('mobile'),
        'g.relation',
        'g.is_primary',
      ])
      .where('g.student_id', '=', sql<number>`any(${ids})`)
      .orderBy('g.student_id')
      .orderBy('g.is_primary', 'desc')
      .orderBy('g.created_at')
      .orderBy('g.user_id')
      .execute();
  }

  /** The live pick-up people of these students (their mobiles as `view` shows them). */
  pickups(em: Queryable, ids: number[], view: MobileView) {
    return kdb(em)
      .selectFrom('pickup_people as pp')
      .select((eb) => [
        'pp.id',
        'pp.student_id',
        'pp.name',
        'pp.relation',
        mobileOf(eb, view, eb.ref('pp.mobile'), eb.ref('pp.student_id')).as('mobile'),
        'pp.photo_url',
      ])
      .where('pp.student_id', '=', sql<number>`any(${ids})`)
      .where('pp.deleted_at', 'is', null)
      .orderBy('pp.student_id')
      .orderBy('pp.id')
      .execute();
  }

  /** Adds pick-up people to the student, in the list's order. */
  async insertPickups(em: Queryable, schoolId: number, studentId: number, list: readonly NewPickup[]): Promise<void> {
    await kdb(em)
      .insertInto('pickup_people')
      .columns(['school_id', 'student_id', 'name', 'relation', 'mobile', 'photo_url'])
      .expression(
        sql`select ${schoolId}::int, ${studentId}::int, x.name, x.relation, x.mobile, nullif(x.photo_url, '')
         from jsonb_array_elements(${JSON.stringify(list)}::jsonb) with ordinality as e(v, ord),
              jsonb_to_record(e.v) as x(name text, relation text, mobile text, photo_url text)
        order by e.ord`,
      )
      .execute();
  }

  /**
   * Edits the student's kept pick-up people: a mobile sent back masked as the caller was shown it keeps the stored
   * number. The ids edited.
   */
  updatePickups(em: Queryable, schoolId: number, studentId: number, kept: NonNullable<StudentSettingInput['pickup_people']>) {
    return kdb(em)
      .updateTable('pickup_people as p')
      .from(
        sql<{
          id: number;
          name: string;
          relation: string;
          mobile: string;
          photo_url: string | null;
        }>`(select * from jsonb_to_recordset(${JSON.stringify(kept)}::jsonb) as r(id int, name text, relation text, mobile text, photo_url text))`.as(
          'x',
        ),
      )
      .set((eb) => ({
        name: eb.ref('x.name'),
        relation: eb.ref('x.relation'),
        photo_url: sql`nullif(${eb.ref('x.photo_url')}, '')`,
        mobile: sql`case when strpos(${eb.ref('x.mobile')}, '****') > 0 then ${eb.ref('p.mobile')} else ${eb.ref('x.mobile')} end`,
      }))
      .whereRef('p.id', '=', 'x.id')
      .where('p.student_id', '=', studentId)
      .where('p.school_id', '=', schoolId)
      .where('p.deleted_at', 'is', null)
      .where((eb) => eb.or([sql<boolean>`strpos(${eb.ref('x.mobile')}, '****') = 0`, eb('x.mobile', '=', maskedMobile(eb.ref('p.mobile')))]))
      .returning('p.id')
      .execute();
  }

  /** Removes the student's live pick-up people but `kept`. */
  async removePickups(em: Queryable, schoolId: number, studentId: number, kept: number[]): Promise<void> {
    await kdb(em)
      .updateTable('pickup_people')
      .set({ deleted_at: sql`now()` })
      .where('student_id', '=', studentId)
      .where('school_id', '=', schoolId)
      .where('deleted_at', 'is', null)
      .where(sql<boolean>`not (id = any(${kept}))`)
      .execute();
  }
}

export type StudentDetailRow = NonNullable<Awaited<ReturnType<StudentsRepository['detail']>>>;
