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
  type StudentListInput,
  type StudentPickupPerson,
  type StudentRow,
  type TeacherStudentRow,
  type StudentSettingInfo,
  type StudentSettingInput,
  type TeacherStudentListInput,
} from '@wantuo/shared';
import type { Updateable } from 'kysely';
import { DataSource } from 'typeorm';
import { AccessRepository } from '../../core/access/access';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import type { DB } from '../../core/database/kysely';
import { schoolTimeZone } from '../../core/database/school-zone';
import type { Queryable } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { Sendable } from '../../core/http/sendable';
import { callerView, type MobileView } from '../privacy/mobile-access';
import { StudentsRepository, type NewPickup } from './students.repository';

export type { ListFilters } from './students.repository';

const nullIfBlank = (v: string | undefined | null) => (v === undefined || v === null || v === '' ? null : v);

/** Groups rows by their student (in the rows' order), without the student id. */
function byStudent<R extends { student_id: number }>(rows: readonly R[]): Map<number, Array<Omit<R, 'student_id'>>> {
  const by = new Map<number, Array<Omit<R, 'student_id'>>>();
  for (const { student_id, ...r } of rows) {
    if (!by.has(student_id)) by.set(student_id, []);
    by.get(student_id)!.push(r);
  }
  return by;
}

@Injectable()
export class StudentsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repo: StudentsRepository,
    private readonly access: AccessRepository,
  ) {}

  // ---------------------------------------------------------------- admin

  /** Newest first; rows and total in one query, guardians of the page in a second. */
  async list(user: SchoolCaller, q: StudentListInput): Promise<Sendable<Page<StudentRow>>> {
    const page = await this.repo.page(user.schoolId, q, q);
    return { ...page, list: await this.withGuardians(this.db, page.list, callerView(user)) };
  }

  /** Every student matching the filters (export), newest first, with guardians (their mobiles as `view` shows them); at most `max`. */
  async listAll(user: SchoolCaller, f: Omit<StudentExportInput, 'format' | 'unmasked'>, view: MobileView, max = 50_000) {
    const list = await this.repo.all(user.schoolId, f, max);
    return this.withGuardians(this.db, list, view);
  }

  /** A parent's own children: students of the parent's school with this account as guardian, archived ones left out. */
  async children(user: SchoolCaller): Promise<{ list: ParentChild[] }> {
    return { list: await this.repo.children(user.schoolId, user.id) };
  }

  /**
   * The admin's student page: the detail (three statements) and, in one more, its contracts (open first, then newest),
   * points balance and teaching classes (as studentTeachingClassList gives them).
   */
  async info(user: SchoolCaller, id: number): Promise<Sendable<StudentInfo>> {
    const student = await this.detail(this.db, user.schoolId, id, callerView(user));
    if (!student) throw new AppError('stu.not_found');
    const more = await this.repo.infoExtras(user.schoolId, id);
    return { ...student, ...more };
  }

  async check(user: SchoolCaller, q: CheckStudentInput): Promise<CheckStudentResult> {
    const id = await this.repo.withGuardianMobile(user.schoolId, q.name, q.mobile);
    return { exists: id !== undefined, student_id: id ?? null };
  }

  /** Creates the student with guardians (linking or creating parent accounts) and pick-up people, in one transaction. */
  async add(user: SchoolCaller, input: AddStudentInput): Promise<Sendable<StudentDetail>> {
    const schoolId = user.schoolId;
    return this.db.transaction(async (em) => {
      await this.repo.lockSchool(em, schoolId);
      const mobiles = input.guardians.map((g) => g.mobile);
      const dup = await this.repo.duplicateMobile(em, schoolId, input.name, mobiles);
      if (dup !== undefined) throw new AppError('stu.duplicate', { name: input.name, mobile: dup });
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
      const studentId = await this.repo.insert(em, {
        school_id: schoolId,
        name: input.name,
        gender: input.gender ?? null,
        birthday: nullIfBlank(input.birthday),
        day_school: nullIfBlank(input.day_school),
        grade: nullIfBlank(input.grade),
        class_name: nullIfBlank(input.class_name),
        photo_url: photo,
        allergies,
        notes: nullIfBlank(input.notes),
        needs_shuttle: input.needs_shuttle ?? false,
        needs_dinner: input.needs_dinner ?? false,
        tutoring_type: nullIfBlank(input.tutoring_type),
      });
      const hasPrimary = input.guardians.some((g) => g.is_primary);
      const links = input.guardians.map((g, i) => ({
        student_id: studentId,
        user_id: parents.get(g.mobile)!,
        relation: g.relation,
        is_primary: hasPrimary ? !!g.is_primary : i === 0,
      }));
      await this.repo.insertGuardians(em, schoolId, links);
      if (input.pickup_people?.length) await this.repo.insertPickups(em, schoolId, studentId, input.pickup_people);
      return (await this.detail(em, schoolId, studentId, callerView(user)))!;
    });
  }

  /** Archives the student: gone from lists and pickers, history stays readable. */
  async archive(user: SchoolCaller, input: DelStudentInput): Promise<DelStudentResult> {
    const archived = await this.repo.archive(user.schoolId, input.id, input.version ?? null);
    if (archived) return { id: archived.id, status: StudentStatus.Archived, version: archived.version };
    const current = await this.repo.state(user.schoolId, input.id);
    if (!current) throw new AppError('stu.not_found');
    if (current.status === StudentStatus.Archived) throw new AppError('stu.already_archived');
    throw new AppError('error.conflict');
  }

  /** Grades and their classes among the school's active students. */
  async grades(user: SchoolCaller): Promise<SchoolGradeResult> {
    return this.repo.grades(user.schoolId);
  }

  async settingInfo(user: SchoolCaller, id: number): Promise<StudentSettingInfo> {
    await this.assertVisible(this.db, user, id);
    const row = (await this.repo.setting(user.schoolId, id))!;
    const pickup_people = (await this.pickups(this.db, [id], callerView(user))).get(id) ?? [];
    return { ...row, pickup_people };
  }

  /** Saves care settings (and, for the admin, the profile) on the version the caller read. */
  async saveSetting(user: SchoolCaller, input: StudentSettingInput): Promise<Sendable<StudentDetail>> {
    const schoolId = user.schoolId;
    const profileKeys = ['name', 'gender', 'birthday', 'day_school', 'grade', 'class_name', 'photo_url', 'notes'] as const;
    if (user.role !== Role.Admin && profileKeys.some((k) => input[k] !== undefined)) throw new AppError('stu.profile_admin_only');
    return this.db.transaction(async (em) => {
      await this.assertVisible(em, user, input.id);
      await this.assertConsents(em, schoolId, input);
      const changes: Updateable<DB['students']> = {};
      if (input.name !== undefined) changes.name = input.name;
      if (input.gender !== undefined) changes.gender = input.gender;
      for (const k of ['birthday', 'day_school', 'grade', 'class_name', 'photo_url', 'notes', 'allergies', 'tutoring_type'] as const) {
        if (input[k] !== undefined) changes[k] = nullIfBlank(input[k]);
      }
      if (input.needs_shuttle !== undefined) changes.needs_shuttle = input.needs_shuttle;
      if (input.needs_dinner !== undefined) changes.needs_dinner = input.needs_dinner;
      const updated = await this.repo.update(em, schoolId, input.id, input.version, changes);
      if (!updated) throw new AppError('error.conflict');
      if (input.pickup_people) await this.replacePickups(em, schoolId, input.id, input.pickup_people);
      return (await this.detail(em, schoolId, input.id, callerView(user)))!;
    });
  }

  // ---------------------------------------------------------------- teachers

  async teacherList(user: SchoolCaller, q: TeacherStudentListInput): Promise<Page<TeacherStudentRow>> {
    return this.repo.teacherPage(user.schoolId, user.id, q, q);
  }

  async teacherInfo(user: SchoolCaller, id: number): Promise<Sendable<StudentDetail>> {
    await this.assertVisible(this.db, user, id);
    return (await this.detail(this.db, user.schoolId, id, callerView(user)))!;
  }

  // ---------------------------------------------------------------- helpers (also used by the import)

  /** One advisory lock per school for student writes: duplicate checks and parent creation do not race. */
  async lockSchool(em: Queryable, schoolId: number): Promise<void> {
    await this.repo.lockSchool(em, schoolId);
  }

  /**
   * The parent accounts of the school for these mobiles: existing ones are linked, new ones created (no password,
   * parents sign in with SMS codes). A mobile used by a staff account of the school is refused.
   */
  async ensureParents(em: Queryable, schoolId: number, people: Array<{ mobile: string; name: string }>): Promise<Map<string, number>> {
    const byMobile = new Map<string, string>();
    for (const p of people) if (!byMobile.has(p.mobile)) byMobile.set(p.mobile, p.name);
    const mobiles = [...byMobile.keys()];
    const existing = await this.repo.usersByMobile(em, schoolId, mobiles);
    const staff = existing.find((u) => u.role !== Role.Parent);
    if (staff) throw new AppError('stu.mobile_not_parent', { mobile: staff.mobile ?? '' });
    const known = new Set(existing.map((u) => u.mobile));
    const fresh = mobiles.filter((m) => !known.has(m)).map((m) => ({ mobile: m, name: byMobile.get(m)! }));
    // user names are unique across schools: p<mobile>, or with a random suffix when another school has it
    if (fresh.length) await this.repo.insertParents(em, schoolId, fresh);
    const all = await this.repo.usersByMobile(em, schoolId, mobiles);
    const map = new Map(all.filter((u) => u.role === Role.Parent).map((u) => [u.mobile!, u.id]));
    const missing = mobiles.find((m) => !map.has(m));
    if (missing) throw new AppError('stu.mobile_not_parent', { mobile: missing });
    return map;
  }

  /**
   * The photo and health consents a student inserted now starts with: the columns' defaults (null in production, so
   * nothing needing a consent is stored at enrolment or import before a guardian consents).
   */
  async newStudentConsents(em: Queryable): Promise<{ photo: boolean; health: boolean }> {
    return this.repo.newStudentConsents(em);
  }

  /**
   * The consent rules of a student write (docs/modules/privacy.md): a health note or a photo the write would store
   * anew (non-blank and not the one stored) needs the child's health or photo consent to be true. The student's row is
   * locked, so a withdrawal waits for the write or the write sees it. Clearing is always allowed; a note stored before
   * consents existed stays as it is.
   */
  private async assertConsents(em: Queryable, schoolId: number, input: Pick<StudentSettingInput, 'id' | 'allergies' | 'photo_url'>) {
    const allergies = nullIfBlank(input.allergies);
    const photo = nullIfBlank(input.photo_url);
    if (allergies === null && photo === null) return;
    const row = await this.repo.consentsForUpdate(em, schoolId, input.id);
    if (!row) throw new AppError('stu.not_found');
    if (allergies !== null && allergies !== row.allergies && row.health_consent !== true)
      throw new AppError('privacy.health_consent_required', { name: row.name });
    if (photo !== null && photo !== row.photo_url && row.photo_consent !== true)
      throw new AppError('privacy.photo_consent_required', { name: row.name });
  }

  /**
   * Answers not-found unless the caller may see the student (admin: the school; teacher: responsible; parent: own
   * child; AccessRepository); else the school's time zone.
   */
  async assertVisible(em: Queryable, user: SchoolCaller, id: number, activeOnly = false): Promise<string> {
    await this.access.requireStudents(user, [id], new AppError('stu.not_found'), { activeOnly, on: em });
    return schoolTimeZone(em, user.schoolId);
  }

  /**
   * The student with care class, guardians and pick-up people (their mobiles as `view` shows them; three statements),
   * or null outside the school.
   */
  async detail(em: Queryable, schoolId: number, id: number, view: MobileView): Promise<Sendable<StudentDetail> | null> {
    const row = await this.repo.detail(em, schoolId, id);
    if (!row) return null;
    const [withGuardians] = await this.withGuardians(em, [row], view);
    return { ...withGuardians, pickup_people: (await this.pickups(em, [id], view)).get(id) ?? [] };
  }

  /** The rows, each with its student's guardians (one statement). */
  private async withGuardians<R extends { id: number }>(
    em: Queryable,
    list: R[],
    view: MobileView,
  ): Promise<Array<R & { guardians: StudentGuardian[] }>> {
    if (!list.length) return [];
    const by = byStudent(
      await this.repo.guardians(
        em,
        list.map((s) => s.id),
        view,
      ),
    );
    return list.map((s) => ({ ...s, guardians: by.get(s.id) ?? [] }));
  }

  private async pickups(em: Queryable, ids: number[], view: MobileView): Promise<Map<number, StudentPickupPerson[]>> {
    return byStudent(await this.repo.pickups(em, ids, view));
  }

  /**
   * The given list replaces the student's pick-up people: items with id are kept (edited), others removed or added. A
   * kept person's mobile sent back masked as the caller was shown it (fullMobile) keeps the stored number.
   */
  private async replacePickups(em: Queryable, schoolId: number, studentId: number, list: StudentSettingInput['pickup_people'] & object) {
    const kept = list.filter((p) => p.id);
    if (kept.length) {
      const rows = await this.repo.updatePickups(em, schoolId, studentId, kept);
      if (rows.length !== kept.length) throw new AppError('stu.pickup_not_found');
    }
    await this.repo.removePickups(
      em,
      schoolId,
      studentId,
      kept.map((p) => p.id!),
    );
    const fresh: NewPickup[] = list.filter((p) => !p.id);
    if (fresh.length) await this.repo.insertPickups(em, schoolId, studentId, fresh);
  }
}
