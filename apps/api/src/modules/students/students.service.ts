import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  Role,
  StudentStatus,
  type AddStudentInput,
  type CheckStudentInput,
  type CheckStudentResult,
  type DelStudentInput,
  type DelStudentResult,
  type Page,
  type ParentChild,
  type SchoolGradeResult,
  type StudentDetail,
  type StudentExportInput,
  type StudentGuardian,
  type StudentInfo,
  STUDENT_INFO_MAX_CLASSES,
  STUDENT_INFO_MAX_CONTRACTS,
  type StudentListInput,
  type StudentPickupPerson,
  type StudentRow,
  type TeacherStudentRow,
  type StudentSettingInfo,
  type StudentSettingInput,
  type TeacherStudentListInput,
} from '@wantuo/shared';
import { DataSource, type EntityManager } from 'typeorm';
import { escapeLike, offsetOf, pageOf, SCHOOL_TODAY, totalOf } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { callerView, maskedMobileSql, mobileSql, paramList, type MobileView } from '../privacy/mobile-access';
import { CLASS_COLUMNS, CLASS_JOINS } from '../teaching/teaching-sql';
import { studentContractsJson } from './student-sql';

/** The columns of a student row (`s` the student, `cc` its care class). */
const ROW_COLUMNS = `s.id, s.name, s.gender::int as gender, to_char(s.birthday, 'YYYY-MM-DD') as birthday, s.day_school, s.grade,
  s.class_name, s.photo_url, s.allergies, s.needs_shuttle, s.needs_dinner, s.tutoring_type, s.status::int as status,
  s.archived_at, s.version, s.created_at,
  case when cc.id is null then null else json_build_object('id', cc.id, 'name', cc.name) end as care_class`;

/** teacherStudentList's row (TeacherStudentRow): what the teachers' lists show, nothing more. */
const TEACHER_ROW_COLUMNS = `s.id, s.name, s.gender::int as gender, s.day_school, s.grade, s.class_name, s.allergies, s.needs_shuttle,
  s.needs_dinner, s.tutoring_type, s.status::int as status, s.version,
  case when cc.id is null then null else json_build_object('id', cc.id, 'name', cc.name) end as care_class`;

const CARE_CLASS_JOIN = `left join care_class_students ccs on ccs.student_id = s.id
  left join care_classes cc on cc.id = ccs.class_id and cc.deleted_at is null`;

/**
 * Students a teacher ($me) is responsible for: of a care class the teacher heads, or has a duty in
 * (a duty for the whole class, or for that student).
 */
export const RESPONSIBLE = (me: string) => `exists (
  select 1 from care_class_students r join care_classes rc on rc.id = r.class_id and rc.deleted_at is null
   where r.student_id = s.id
     and (rc.head_teacher_id = ${me}
          or exists (select 1 from duty_assignments d
                      where d.class_id = rc.id and d.teacher_id = ${me} and (d.student_id is null or d.student_id = s.id))))`;

export type ListFilters = Omit<StudentListInput, 'page' | 'limit'>;

/** where-clause and parameters of the student list filters; parameters start at $2 ($1 is the school). */
export function listWhere(f: ListFilters): { where: string; params: unknown[] } {
  const params: unknown[] = [];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length + 1}`;
  };
  const conds = ['s.school_id = $1', `s.status = ${p(f.status ?? StudentStatus.Active)}`];
  if (f.keyword) {
    const kw = escapeLike(f.keyword);
    const name = p(`%${kw}%`);
    if (/^\d{3,11}$/.test(f.keyword)) {
      const mob = p(`${kw}%`);
      // a hashed subplan: the guardians' students are found once, not probed per student
      conds.push(`(s.name like ${name} or s.id in (select kg.student_id from users ku join student_guardians kg on kg.user_id = ku.id
        where ku.school_id = $1 and ku.role = 6 and ku.deleted_at is null and ku.mobile like ${mob}))`);
    } else {
      conds.push(`s.name like ${name}`);
    }
  }
  if (f.grade) conds.push(`s.grade = ${p(f.grade)}`);
  if (f.class_name) conds.push(`s.class_name = ${p(f.class_name)}`);
  if (f.day_school) conds.push(`s.day_school = ${p(f.day_school)}`);
  if (f.class_id) conds.push(`exists (select 1 from care_class_students fc where fc.student_id = s.id and fc.class_id = ${p(f.class_id)})`);
  return { where: conds.join(' and '), params };
}

const nullIfBlank = (v: string | undefined | null) => (v === undefined || v === null || v === '' ? null : v);

@Injectable()
export class StudentsService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  // ---------------------------------------------------------------- admin

  /** Newest first; rows and total in one query, guardians of the page in a second. */
  async list(user: SessionUser, q: StudentListInput): Promise<Page<StudentRow>> {
    const { where, params } = listWhere(q);
    const n = params.length + 2;
    const rows: Array<StudentRow & { total: number }> = await this.db.query(
      `select c.total, p.*
         from (select count(*)::int as total from students s where ${where}) c
         left join lateral (
           select ${ROW_COLUMNS}
             from students s ${CARE_CLASS_JOIN}
            where ${where}
            order by s.id desc
            limit $${n} offset $${n + 1}
         ) p on true`,
      [user.schoolId, ...params, q.limit, offsetOf(q)],
    );
    const list = rows.filter((r) => r.id !== null).map(({ total: _, ...r }) => r as StudentRow);
    await this.attachGuardians(this.db.manager, list, callerView(user));
    return pageOf(list, totalOf(rows), q);
  }

  /** Every student matching the filters (export), newest first, with guardians (their mobiles as `view` shows them); at most `max`. */
  async listAll(user: SessionUser, f: Omit<StudentExportInput, 'format' | 'unmasked'>, view: MobileView, max = 50_000): Promise<StudentRow[]> {
    const { where, params } = listWhere(f);
    const list: StudentRow[] = await this.db.query(
      `select ${ROW_COLUMNS} from students s ${CARE_CLASS_JOIN} where ${where} order by s.id desc limit ${max}`,
      [user.schoolId, ...params],
    );
    await this.attachGuardians(this.db.manager, list, view);
    return list;
  }

  /** A parent's own children: students of the parent's school with this account as guardian, archived ones left out. */
  async children(user: SessionUser): Promise<{ list: ParentChild[] }> {
    const list: ParentChild[] = await this.db.query(
      `select s.id, s.name, s.gender::int as gender, s.day_school, s.grade, s.class_name, s.photo_url, g.relation,
              case when c.id is null then null else json_build_object('id', c.id, 'name', c.name, 'head_teacher_name', h.name) end as care_class
         from student_guardians g
         join students s on s.id = g.student_id and s.school_id = $2 and s.status = 1
         left join care_class_students cs on cs.student_id = s.id
         left join care_classes c on c.id = cs.class_id and c.deleted_at is null
         left join users h on h.id = c.head_teacher_id
        where g.user_id = $1
        order by s.birthday nulls last, s.id`,
      [user.id, user.schoolId],
    );
    return { list };
  }

  /**
   * The admin's student page: the detail (three statements) and, in one more, its contracts (open first, then newest),
   * points balance and teaching classes (as studentTeachingClassList gives them).
   */
  async info(user: SessionUser, id: number): Promise<StudentInfo> {
    const student = await this.detail(this.db.manager, user.schoolId!, id, callerView(user));
    if (!student) throw new AppError('stu.not_found');
    const [more]: Array<Pick<StudentInfo, 'contracts' | 'contracts_total' | 'points_balance' | 'teaching_classes'>> = await this.db.query(
      `select coalesce((select a.balance from points_accounts a where a.student_id = $2), 0)::int as points_balance,
              (select count(*)::int from contracts c where c.student_id = $2 and c.school_id = $1) as contracts_total,
              ${studentContractsJson('$2', '$1', { openOnly: false, limit: STUDENT_INFO_MAX_CONTRACTS })} as contracts,
              coalesce((select json_agg(to_jsonb(y) - 'ord' order by y.ord) from (
                 select ${CLASS_COLUMNS}, row_number() over (order by c.status desc, c.id desc) as ord
                   from teaching_class_students m join teaching_classes c on c.id = m.class_id ${CLASS_JOINS}
                  where m.student_id = $2 and c.school_id = $1 and c.deleted_at is null
                  order by ord limit ${STUDENT_INFO_MAX_CLASSES}) y), '[]'::json) as teaching_classes
         from ${SCHOOL_TODAY} d`,
      [user.schoolId, id],
    );
    return { ...student, ...more };
  }

  async check(user: SessionUser, q: CheckStudentInput): Promise<CheckStudentResult> {
    const [row]: Array<{ id: number }> = await this.db.query(
      `select s.id from students s
        where s.school_id = $1 and s.status = 1 and s.name = $2
          and exists (select 1 from student_guardians g join users u on u.id = g.user_id where g.student_id = s.id and u.mobile = $3)
        order by s.id limit 1`,
      [user.schoolId, q.name, q.mobile],
    );
    return { exists: !!row, student_id: row?.id ?? null };
  }

  /** Creates the student with guardians (linking or creating parent accounts) and pick-up people, in one transaction. */
  async add(user: SessionUser, input: AddStudentInput): Promise<StudentDetail> {
    const schoolId = user.schoolId!;
    return this.db.transaction(async (em) => {
      await this.lockSchool(em, schoolId);
      const mobiles = input.guardians.map((g) => g.mobile);
      const [dup]: Array<{ mobile: string }> = await em.query(
        `select u.mobile from students s join student_guardians g on g.student_id = s.id join users u on u.id = g.user_id
          where s.school_id = $1 and s.status = 1 and s.name = $2 and u.mobile = any($3) limit 1`,
        [schoolId, input.name, mobiles],
      );
      if (dup) throw new AppError('stu.duplicate', { name: input.name, mobile: dup.mobile });
      const allergies = nullIfBlank(input.allergies);
      const photo = nullIfBlank(input.photo_url);
      if (allergies !== null || photo !== null) {
        // a new student's consents are the columns' defaults (null in production: no guardian has been asked yet)
        const consents = await this.newStudentConsents(em);
        if (allergies !== null && !consents.health) throw new AppError('privacy.health_consent_required', { name: input.name });
        if (photo !== null && !consents.photo) throw new AppError('privacy.photo_consent_required', { name: input.name });
      }
      const parents = await this.ensureParents(
        em,
        schoolId,
        input.guardians.map((g) => ({ mobile: g.mobile, name: g.name })),
      );
      const [student]: Array<{ id: number }> = await em.query(
        `insert into students (school_id, name, gender, birthday, day_school, grade, class_name, photo_url, allergies, notes,
                               needs_shuttle, needs_dinner, tutoring_type)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) returning id`,
        [
          schoolId,
          input.name,
          input.gender ?? null,
          nullIfBlank(input.birthday),
          nullIfBlank(input.day_school),
          nullIfBlank(input.grade),
          nullIfBlank(input.class_name),
          photo,
          allergies,
          nullIfBlank(input.notes),
          input.needs_shuttle ?? false,
          input.needs_dinner ?? false,
          nullIfBlank(input.tutoring_type),
        ],
      );
      const hasPrimary = input.guardians.some((g) => g.is_primary);
      const links = input.guardians.map((g, i) => ({
        user_id: parents.get(g.mobile)!,
        relation: g.relation,
        is_primary: hasPrimary ? !!g.is_primary : i === 0,
      }));
      await em.query(
        `insert into student_guardians (school_id, student_id, user_id, relation, is_primary)
         select $1, $2, x.user_id, x.relation, x.is_primary from jsonb_to_recordset($3::jsonb) as x(user_id int, relation text, is_primary boolean)`,
        [schoolId, student.id, JSON.stringify(links)],
      );
      if (input.pickup_people?.length) await this.insertPickups(em, schoolId, student.id, input.pickup_people);
      return (await this.detail(em, schoolId, student.id, callerView(user)))!;
    });
  }

  /** Archives the student: gone from lists and pickers, history stays readable. */
  async archive(user: SessionUser, input: DelStudentInput): Promise<DelStudentResult> {
    const [rows]: [Array<{ id: number; version: number }>, number] = await this.db.query(
      `update students set status = 0, archived_at = now(), updated_at = now(), version = version + 1
        where id = $1 and school_id = $2 and status = 1 and ($3::int is null or version = $3)
        returning id, version`,
      [input.id, user.schoolId, input.version ?? null],
    );
    if (rows[0]) return { id: rows[0].id, status: StudentStatus.Archived, version: rows[0].version };
    const [current]: Array<{ status: number; version: number }> = await this.db.query(
      `select status, version from students where id = $1 and school_id = $2`,
      [input.id, user.schoolId],
    );
    if (!current) throw new AppError('stu.not_found');
    if (current.status === StudentStatus.Archived) throw new AppError('stu.already_archived');
    throw new AppError('error.conflict');
  }

  /** Grades and their classes among the school's active students. */
  async grades(user: SessionUser): Promise<SchoolGradeResult> {
    return this.db.query(
      `select grade, coalesce(array_agg(distinct class_name order by class_name) filter (where class_name is not null), '{}') as classes
         from students where school_id = $1 and status = 1 and grade is not null
        group by grade order by grade`,
      [user.schoolId],
    );
  }

  async settingInfo(user: SessionUser, id: number): Promise<StudentSettingInfo> {
    await this.assertVisible(this.db.manager, user, id);
    const [row]: StudentSettingInfo[] = await this.db.query(
      `select id, name, needs_shuttle, needs_dinner, tutoring_type, allergies, photo_consent, health_consent, version
         from students where id = $1 and school_id = $2`,
      [id, user.schoolId],
    );
    row.pickup_people = await this.pickups(this.db.manager, [id], callerView(user)).then((m) => m.get(id) ?? []);
    return row;
  }

  /** Saves care settings (and, for the admin, the profile) on the version the caller read. */
  async saveSetting(user: SessionUser, input: StudentSettingInput): Promise<StudentDetail> {
    const schoolId = user.schoolId!;
    const profileKeys = ['name', 'gender', 'birthday', 'day_school', 'grade', 'class_name', 'photo_url', 'notes'] as const;
    if (user.role !== Role.Admin && profileKeys.some((k) => input[k] !== undefined)) throw new AppError('stu.profile_admin_only');
    return this.db.transaction(async (em) => {
      await this.assertVisible(em, user, input.id);
      await this.assertConsents(em, schoolId, input);
      const sets: string[] = [];
      const params: unknown[] = [input.id, schoolId, input.version];
      const set = (col: string, v: unknown) => {
        params.push(v);
        sets.push(`${col} = $${params.length}`);
      };
      if (input.name !== undefined) set('name', input.name);
      if (input.gender !== undefined) set('gender', input.gender);
      for (const k of ['birthday', 'day_school', 'grade', 'class_name', 'photo_url', 'notes', 'allergies', 'tutoring_type'] as const) {
        if (input[k] !== undefined) set(k, nullIfBlank(input[k]));
      }
      if (input.needs_shuttle !== undefined) set('needs_shuttle', input.needs_shuttle);
      if (input.needs_dinner !== undefined) set('needs_dinner', input.needs_dinner);
      const [rows]: [Array<{ id: number }>, number] = await em.query(
        `update students set ${[...sets, 'updated_at = now()', 'version = version + 1'].join(', ')}
          where id = $1 and school_id = $2 and version = $3 returning id`,
        params,
      );
      if (!rows[0]) throw new AppError('error.conflict');
      if (input.pickup_people) await this.replacePickups(em, schoolId, input.id, input.pickup_people);
      return (await this.detail(em, schoolId, input.id, callerView(user)))!;
    });
  }

  // ---------------------------------------------------------------- teachers

  async teacherList(user: SessionUser, q: TeacherStudentListInput): Promise<Page<TeacherStudentRow>> {
    const params: unknown[] = [user.schoolId, user.id];
    const conds = ['s.school_id = $1', 's.status = 1', RESPONSIBLE('$2')];
    if (q.keyword) {
      params.push(`%${escapeLike(q.keyword)}%`);
      conds.push(`s.name like $${params.length}`);
    }
    if (q.class_id) {
      params.push(q.class_id);
      conds.push(`ccs.class_id = $${params.length}`);
    }
    const where = conds.join(' and ');
    const n = params.length + 1;
    const rows: Array<TeacherStudentRow & { total: number }> = await this.db.query(
      `select c.total, p.*
         from (select count(*)::int as total from students s ${CARE_CLASS_JOIN} where ${where}) c
         left join lateral (
           select ${TEACHER_ROW_COLUMNS} from students s ${CARE_CLASS_JOIN}
            where ${where}
            order by s.name, s.id
            limit $${n} offset $${n + 1}
         ) p on true`,
      [...params, q.limit, offsetOf(q)],
    );
    const list = rows.filter((r) => r.id !== null).map(({ total: _, ...r }) => r as TeacherStudentRow);
    return pageOf(list, totalOf(rows), q);
  }

  async teacherInfo(user: SessionUser, id: number): Promise<StudentDetail> {
    await this.assertVisible(this.db.manager, user, id);
    return (await this.detail(this.db.manager, user.schoolId!, id, callerView(user)))!;
  }

  // ---------------------------------------------------------------- helpers (also used by the import)

  /** One advisory lock per school for student writes: duplicate checks and parent creation do not race. */
  async lockSchool(em: EntityManager, schoolId: number): Promise<void> {
    await em.query(`select pg_advisory_xact_lock(hashtextextended('students:' || $1, 0))`, [schoolId]);
  }

  /**
   * The parent accounts of the school for these mobiles: existing ones are linked, new ones created (no password,
   * parents sign in with SMS codes). A mobile used by a staff account of the school is refused.
   */
  async ensureParents(em: EntityManager, schoolId: number, people: Array<{ mobile: string; name: string }>): Promise<Map<string, number>> {
    const byMobile = new Map<string, string>();
    for (const p of people) if (!byMobile.has(p.mobile)) byMobile.set(p.mobile, p.name);
    const mobiles = [...byMobile.keys()];
    const existing: Array<{ id: number; mobile: string; role: number }> = await em.query(
      `select id, mobile, role from users where school_id = $1 and mobile = any($2) and deleted_at is null`,
      [schoolId, mobiles],
    );
    const staff = existing.find((u) => u.role !== Role.Parent);
    if (staff) throw new AppError('stu.mobile_not_parent', { mobile: staff.mobile });
    const known = new Set(existing.map((u) => u.mobile));
    const fresh = mobiles.filter((m) => !known.has(m)).map((m) => ({ mobile: m, name: byMobile.get(m)! }));
    if (fresh.length) {
      // user names are unique across schools: p<mobile>, or with a random suffix when another school has it
      await em.query(
        `insert into users (school_id, role, username, name, nickname, mobile)
         select $1, 6,
                case when exists (select 1 from users o where lower(o.username) = 'p' || x.mobile)
                     then 'p' || x.mobile || '_' || substr(md5(random()::text || x.mobile), 1, 8) else 'p' || x.mobile end,
                x.name, x.name, x.mobile
           from jsonb_to_recordset($2::jsonb) as x(mobile text, name text)
         on conflict do nothing`,
        [schoolId, JSON.stringify(fresh)],
      );
    }
    const all: Array<{ id: number; mobile: string; role: number }> = await em.query(
      `select id, mobile, role from users where school_id = $1 and mobile = any($2) and deleted_at is null`,
      [schoolId, mobiles],
    );
    const map = new Map(all.filter((u) => u.role === Role.Parent).map((u) => [u.mobile, u.id]));
    const missing = mobiles.find((m) => !map.has(m));
    if (missing) throw new AppError('stu.mobile_not_parent', { mobile: missing });
    return map;
  }

  /**
   * The photo and health consents a student inserted now starts with: the columns' defaults (null in production, so
   * nothing needing a consent is stored at enrolment or import before a guardian consents).
   */
  async newStudentConsents(em: EntityManager): Promise<{ photo: boolean; health: boolean }> {
    const [row]: Array<{ photo: boolean; health: boolean }> = await em.query(
      `select coalesce(bool_or(column_name = 'photo_consent' and column_default = 'true'), false) as photo,
              coalesce(bool_or(column_name = 'health_consent' and column_default = 'true'), false) as health
         from information_schema.columns
        where table_schema = current_schema() and table_name = 'students' and column_name in ('photo_consent', 'health_consent')`,
    );
    return row;
  }

  /**
   * The consent rules of a student write (docs/modules/privacy.md): a health note or a photo the write would store
   * anew (non-blank and not the one stored) needs the child's health or photo consent to be true. The student's row is
   * locked, so a withdrawal waits for the write or the write sees it. Clearing is always allowed; a note stored before
   * consents existed stays as it is.
   */
  private async assertConsents(em: EntityManager, schoolId: number, input: Pick<StudentSettingInput, 'id' | 'allergies' | 'photo_url'>) {
    const allergies = nullIfBlank(input.allergies);
    const photo = nullIfBlank(input.photo_url);
    if (allergies === null && photo === null) return;
    const [row]: Array<{
      name: string;
      allergies: string | null;
      photo_url: string | null;
      photo_consent: boolean | null;
      health_consent: boolean | null;
    }> = await em.query(
      `select name, allergies, photo_url, photo_consent, health_consent from students where id = $1 and school_id = $2 for update`,
      [input.id, schoolId],
    );
    if (!row) throw new AppError('stu.not_found');
    if (allergies !== null && allergies !== row.allergies && row.health_consent !== true)
      throw new AppError('privacy.health_consent_required', { name: row.name });
    if (photo !== null && photo !== row.photo_url && row.photo_consent !== true)
      throw new AppError('privacy.photo_consent_required', { name: row.name });
  }

  /**
   * Answers not-found unless the caller may see the student (admin: the school; teacher: responsible; parent: own
   * child); else the school's time zone.
   */
  async assertVisible(em: EntityManager, user: SessionUser, id: number, activeOnly = false): Promise<string> {
    const rule =
      user.role === Role.Admin
        ? '$3::int is not null'
        : user.role === Role.Parent
          ? `exists (select 1 from student_guardians g where g.student_id = s.id and g.user_id = $3)`
          : RESPONSIBLE('$3');
    const [row]: Array<{ timezone: string }> = await em.query(
      `select sc.timezone from students s join schools sc on sc.id = s.school_id
        where s.id = $1 and s.school_id = $2 and ${rule} ${activeOnly ? 'and s.status = 1' : ''}`,
      [id, user.schoolId, user.id],
    );
    if (!row) throw new AppError('stu.not_found');
    return row.timezone;
  }

  /**
   * The student with care class, guardians and pick-up people (their mobiles as `view` shows them; three statements),
   * or null outside the school.
   */
  async detail(em: EntityManager, schoolId: number, id: number, view: MobileView): Promise<StudentDetail | null> {
    const [row]: StudentDetail[] = await em.query(
      `select ${ROW_COLUMNS.replace(
        "json_build_object('id', cc.id, 'name', cc.name)",
        "json_build_object('id', cc.id, 'name', cc.name, 'head_teacher_id', cc.head_teacher_id, 'head_teacher_name', ht.name)",
      )}, s.notes, s.updated_at, s.guardians_version, s.photo_consent, s.health_consent
         from students s ${CARE_CLASS_JOIN} left join users ht on ht.id = cc.head_teacher_id
        where s.id = $1 and s.school_id = $2`,
      [id, schoolId],
    );
    if (!row) return null;
    await this.attachGuardians(em, [row], view);
    row.pickup_people = (await this.pickups(em, [id], view)).get(id) ?? [];
    return row;
  }

  private async attachGuardians(em: EntityManager, list: Array<{ id: number; guardians: StudentGuardian[] }>, view: MobileView): Promise<void> {
    if (!list.length) return;
    const { params, p } = paramList([list.map((s) => s.id)]);
    const rows: Array<StudentGuardian & { student_id: number }> = await em.query(
      `select g.student_id, g.user_id, u.name, ${mobileSql(view, 'u.mobile', 'g.student_id', p)} as mobile, g.relation, g.is_primary
         from student_guardians g join users u on u.id = g.user_id
        where g.student_id = any($1)
        order by g.student_id, g.is_primary desc, g.created_at, g.user_id`,
      params,
    );
    const by = new Map<number, StudentGuardian[]>();
    for (const { student_id, ...g } of rows) {
      if (!by.has(student_id)) by.set(student_id, []);
      by.get(student_id)!.push(g);
    }
    for (const s of list) s.guardians = by.get(s.id) ?? [];
  }

  private async pickups(em: EntityManager, ids: number[], view: MobileView): Promise<Map<number, StudentPickupPerson[]>> {
    const { params, p } = paramList([ids]);
    const rows: Array<StudentPickupPerson & { student_id: number }> = await em.query(
      `select pp.id, pp.student_id, pp.name, pp.relation, ${mobileSql(view, 'pp.mobile', 'pp.student_id', p)} as mobile, pp.photo_url
         from pickup_people pp
        where pp.student_id = any($1) and pp.deleted_at is null order by pp.student_id, pp.id`,
      params,
    );
    const by = new Map<number, StudentPickupPerson[]>();
    for (const { student_id, ...p } of rows) {
      if (!by.has(student_id)) by.set(student_id, []);
      by.get(student_id)!.push(p);
    }
    return by;
  }

  private async insertPickups(
    em: EntityManager,
    schoolId: number,
    studentId: number,
    list: Array<{ name: string; relation: string; mobile: string; photo_url?: string }>,
  ) {
    await em.query(
      `insert into pickup_people (school_id, student_id, name, relation, mobile, photo_url)
       select $1, $2, x.name, x.relation, x.mobile, nullif(x.photo_url, '')
         from jsonb_array_elements($3::jsonb) with ordinality as e(v, ord),
              jsonb_to_record(e.v) as x(name text, relation text, mobile text, photo_url text)
        order by e.ord`,
      [schoolId, studentId, JSON.stringify(list)],
    );
  }

  /**
   * The given list replaces the student's pick-up people: items with id are kept (edited), others removed or added. A
   * kept person's mobile sent back masked as the caller was shown it (fullMobileSql) keeps the stored number.
   */
  private async replacePickups(em: EntityManager, schoolId: number, studentId: number, list: StudentSettingInput['pickup_people'] & object) {
    const kept = list.filter((p) => p.id);
    if (kept.length) {
      const [rows]: [unknown[], number] = await em.query(
        `update pickup_people p set name = x.name, relation = x.relation, photo_url = nullif(x.photo_url, ''),
                mobile = case when strpos(x.mobile, '****') > 0 then p.mobile else x.mobile end
           from jsonb_to_recordset($3::jsonb) as x(id int, name text, relation text, mobile text, photo_url text)
          where p.id = x.id and p.student_id = $1 and p.school_id = $2 and p.deleted_at is null
            and (strpos(x.mobile, '****') = 0 or x.mobile = ${maskedMobileSql('p.mobile')})
          returning p.id`,
        [studentId, schoolId, JSON.stringify(kept)],
      );
      if (rows.length !== kept.length) throw new AppError('stu.pickup_not_found');
    }
    await em.query(
      `update pickup_people set deleted_at = now() where student_id = $1 and school_id = $2 and deleted_at is null and not (id = any($3))`,
      [studentId, schoolId, kept.map((p) => p.id)],
    );
    const fresh = list.filter((p) => !p.id);
    if (fresh.length) await this.insertPickups(em, schoolId, studentId, fresh);
  }
}
