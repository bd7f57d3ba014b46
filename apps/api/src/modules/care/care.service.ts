import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  type AddAfterSchoolCareInput,
  type AddWantuoStudentInput,
  type AddWantuoStudentResult,
  type AllotTeacherInput,
  type CareClass,
  type CareClassInfo,
  type CareClassStudent,
  type CareStudent,
  type ClassTimeOption,
  type ClassListQuery,
  type DelClassInput,
  type DelWantuoStudentInput,
  type DelWantuoStudentPreview,
  type DelWantuoStudentQuery,
  type DelWantuoStudentResult,
  type Duty,
  type DutyAssignment,
  type EditAfterSchoolCareInput,
  type Page,
  type SelectWantuoStudentQuery,
  type StartAndEndInput,
  type TeacherWantuoInfo,
  type TeacherWantuoStudentQuery,
  type WantuoStudentQuery,
} from '@wantuo/shared';
import { DataSource } from 'typeorm';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { containsPattern, pageOf, type Queryable } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { Sendable } from '../../core/http/sendable';
import { CareRepository } from './care.repository';

/**
 * After-school-care classes: the admin creates and runs them, fills them with students (one class per student,
 * capacity enforced) and assigns duty teachers; a head teacher manages the students of the class they head.
 */
@Injectable()
export class CareService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repo: CareRepository,
  ) {}

  /** Classes newest first, searchable by name and filterable by status; rows and total in one query. */
  async list(user: SchoolCaller, q: ClassListQuery): Promise<Sendable<Page<CareClass>>> {
    return this.repo.page(user.schoolId, containsPattern(q.name), q.status ?? null, q);
  }

  /** One class with its class-level duty teachers. */
  async info(user: SchoolCaller, id: number): Promise<Sendable<CareClassInfo>> {
    const row = await this.repo.class(user.schoolId, id);
    if (!row) throw new AppError('care.class_not_found');
    const duties = await this.repo.classDuties(id);
    return { ...row, duties };
  }

  /** The students of a class (paged, searchable by name) with their per-student duties. */
  async students(user: SchoolCaller, classId: number, q: Omit<WantuoStudentQuery, 'id'>): Promise<Sendable<Page<CareClassStudent>>> {
    const school = user.schoolId;
    if (!(await this.repo.classExists(school, classId))) throw new AppError('care.class_not_found');
    const page = await this.repo.members(school, classId, containsPattern(q.name), q);
    const list = page.list.map((r) => ({ ...r, duties: [] as DutyAssignment[], class_times: [] as ClassTimeOption[] }));
    if (list.length) {
      const duties = await this.repo.studentDuties(
        classId,
        list.map((s) => s.id),
      );
      const byStudent = new Map(list.map((s) => [s.id, s]));
      for (const d of duties) byStudent.get(d.student_id!)?.duties.push(d);
      // the students' own time slots (addStudentClassTime)
      const slots = await this.repo.studentSlots(
        school,
        list.map((s) => s.id),
      );
      for (const { student_id, ...slot } of slots) byStudent.get(student_id)?.class_times.push(slot);
    }
    return { ...page, list };
  }

  /** Active students of the school that are in no care class, by name. */
  async selectable(user: SchoolCaller, q: SelectWantuoStudentQuery): Promise<Page<CareStudent>> {
    return this.repo.selectable(user.schoolId, containsPattern(q.name), q);
  }

  async create(user: SchoolCaller, input: AddAfterSchoolCareInput): Promise<Sendable<CareClassInfo>> {
    const school = user.schoolId;
    const id = await this.db.transaction(async (em) => {
      if (input.head_teacher_id) await this.checkTeacher(em, school, input.head_teacher_id);
      if (input.class_time_id) await this.checkSlot(em, school, input.class_time_id);
      const id = await this.repo.insertClass(em, {
        school_id: school,
        name: input.name,
        head_teacher_id: input.head_teacher_id ?? null,
        class_time_id: input.class_time_id ?? null,
        capacity: input.capacity,
        fee_fen: input.fee_fen ?? 0,
      });
      await this.syncHead(em, school, id, input.head_teacher_id ?? null);
      return id;
    });
    return this.info(user, id);
  }

  /**
   * Edits a class on the version the caller read. An absent head_teacher_id or class_time_id keeps the current one,
   * null clears it; the capacity cannot go below the headcount.
   */
  async edit(user: SchoolCaller, input: EditAfterSchoolCareInput): Promise<Sendable<CareClassInfo>> {
    const school = user.schoolId;
    await this.db.transaction(async (em) => {
      const current = await this.lockClass(em, school, input.id);
      if (current.version !== input.version) throw new AppError('error.conflict');
      const head = input.head_teacher_id === undefined ? current.head_teacher_id : input.head_teacher_id;
      const slot = input.class_time_id === undefined ? current.class_time_id : input.class_time_id;
      if (head && head !== current.head_teacher_id) await this.checkTeacher(em, school, head);
      if (slot && slot !== current.class_time_id) await this.checkSlot(em, school, slot);
      const headcount = await this.repo.headcount(em, input.id);
      if (input.capacity < headcount) throw new AppError('care.capacity_below_headcount', { headcount });
      await this.repo.updateClass(em, input.id, {
        name: input.name,
        head_teacher_id: head,
        class_time_id: slot,
        capacity: input.capacity,
        fee_fen: input.fee_fen,
      });
      if (head !== current.head_teacher_id) await this.syncHead(em, school, input.id, head);
    });
    return this.info(user, input.id);
  }

  /**
   * Adds students to a class, all or none: they must be active students of the school in no care class, and the
   * class must have room for all of them. `asHead`: only the class the caller heads.
   */
  async addStudents(user: SchoolCaller, input: AddWantuoStudentInput, asHead: boolean): Promise<AddWantuoStudentResult> {
    const school = user.schoolId;
    return this.db.transaction(async (em) => {
      const cls = await this.lockClass(em, school, input.class_id, asHead ? user.id : undefined);
      // locks the students: two requests adding the same student to two classes wait on each other
      const found = await this.repo.lockActiveStudents(em, school, input.student_ids);
      if (found.length !== input.student_ids.length) {
        const ok = new Set(found.map((s) => s.id));
        throw new AppError('care.students_not_found', { ids: input.student_ids.filter((id) => !ok.has(id)).join(', ') });
      }
      const taken = await this.repo.firstInClass(em, input.student_ids);
      if (taken) throw new AppError('care.student_in_class', { student: taken.student, class: taken.class });
      const headcount = await this.repo.headcount(em, cls.id);
      const count = input.student_ids.length;
      if (headcount + count > cls.capacity) {
        throw new AppError('care.capacity_exceeded', { capacity: cls.capacity, headcount, room: Math.max(0, cls.capacity - headcount), count });
      }
      await this.repo.addMembers(em, school, cls.id, input.student_ids);
      return { class_id: cls.id, added: count, headcount: headcount + count, capacity: cls.capacity };
    });
  }

  /** What removing a student from a class affects: the student's own duty assignments in it. */
  async removePreview(user: SchoolCaller, q: DelWantuoStudentQuery): Promise<DelWantuoStudentPreview> {
    const school = user.schoolId;
    const row = await this.repo.memberOf(school, q.class_id, q.student_id);
    if (!row) throw new AppError('care.class_not_found');
    if (row.student_name === null) throw new AppError('care.student_not_in_class');
    const duties = await this.repo.studentDuties(q.class_id, q.student_id);
    // what stays with the student after the removal: open contracts and dinner bookings from the school's today on
    const kept = await this.repo.kept(school, q.student_id);
    return { class_id: q.class_id, class_name: row.class_name, student_id: q.student_id, student_name: row.student_name, duties, ...kept };
  }

  /** Removes a student from a class with the student's duty assignments in it. `asHead`: only the caller's class. */
  async removeStudent(user: SchoolCaller, input: DelWantuoStudentInput, asHead: boolean): Promise<DelWantuoStudentResult> {
    const school = user.schoolId;
    return this.db.transaction(async (em) => {
      const cls = await this.lockClass(em, school, input.class_id, asHead ? user.id : undefined);
      if (!(await this.repo.removeMember(em, cls.id, input.student_id))) throw new AppError('care.student_not_in_class');
      const duties = await this.repo.removeStudentDuties(em, cls.id, input.student_id);
      return { class_id: cls.id, student_id: input.student_id, removed_duties: duties, headcount: await this.repo.headcount(em, cls.id) };
    });
  }

  /** Soft-deletes a class that has no students. */
  async del(user: SchoolCaller, input: DelClassInput): Promise<{ id: number }> {
    const school = user.schoolId;
    return this.db.transaction(async (em) => {
      await this.lockClass(em, school, input.id);
      const count = await this.repo.headcount(em, input.id);
      if (count > 0) throw new AppError('care.class_has_students', { count });
      await this.repo.deleteClass(em, input.id);
      return { id: input.id };
    });
  }

  /** Starts (1) or stops (0) a class on the version the caller read. */
  async setStatus(user: SchoolCaller, input: StartAndEndInput): Promise<Sendable<CareClassInfo>> {
    const school = user.schoolId;
    if (!(await this.repo.setStatus(school, input.id, input.version, input.status))) {
      const found = await this.repo.classExists(school, input.id);
      throw new AppError(found ? 'error.conflict' : 'care.class_not_found');
    }
    return this.info(user, input.id);
  }

  /**
   * Assigns (or with `remove` removes) the teacher of a duty of a class or of one of its students; one teacher per
   * (class, student, duty). The class's 'head' duty is also its head_teacher_id.
   */
  async allotTeacher(
    user: SchoolCaller,
    input: AllotTeacherInput,
  ): Promise<{ class_id: number; student_id: number | null; duty: Duty; assignment: DutyAssignment | null }> {
    const school = user.schoolId;
    const studentId = input.student_id ?? null;
    return this.db.transaction(async (em) => {
      const cls = await this.lockClass(em, school, input.class_id);
      if (studentId !== null && !(await this.repo.isMember(em, cls.id, studentId))) throw new AppError('care.student_not_in_class');
      const base = { class_id: cls.id, student_id: studentId, duty: input.duty };
      if (input.remove) {
        await this.repo.removeDuty(em, cls.id, studentId, input.duty);
        if (input.duty === 'head' && cls.head_teacher_id !== null) await this.repo.setHead(em, cls.id, null);
        return { ...base, assignment: null };
      }
      const teacherId = input.teacher_id!;
      const teacherName = await this.checkTeacher(em, school, teacherId);
      const id = await this.repo.assignDuty(em, { schoolId: school, classId: cls.id, studentId, teacherId, duty: input.duty });
      if (input.duty === 'head' && cls.head_teacher_id !== teacherId) await this.repo.setHead(em, cls.id, teacherId);
      return { ...base, assignment: { id, duty: input.duty, teacher_id: teacherId, teacher_name: teacherName, student_id: studentId } };
    });
  }

  /** The class the caller heads or has a duty in (`id`, else the one they head, else the first), with all their classes. */
  async teacherInfo(user: SchoolCaller, id: number | undefined): Promise<Sendable<TeacherWantuoInfo>> {
    const classes = await this.repo.classesOf(user.schoolId, user.id);
    const chosen = this.choose(classes, id);
    return { classes, class: chosen === null ? null : await this.info(user, chosen) };
  }

  /** The students of the caller's class (see teacherInfo); an empty page when the caller has no class. */
  async teacherStudents(user: SchoolCaller, q: TeacherWantuoStudentQuery): Promise<Sendable<Page<CareClassStudent>>> {
    const chosen = this.choose(await this.repo.classesOf(user.schoolId, user.id), q.id);
    if (chosen === null) return pageOf([], 0, q);
    return this.students(user, chosen, q);
  }

  private choose(classes: TeacherWantuoInfo['classes'], id: number | undefined): number | null {
    if (id === undefined) return classes[0]?.id ?? null;
    if (!classes.some((c) => c.id === id)) throw new AppError('care.class_not_found');
    return id;
  }

  /** Locks a live class of the school (optionally: headed by `headId`); else answers not found. */
  private async lockClass(em: Queryable, school: number, id: number, headId?: number) {
    const row = await this.repo.lockClass(em, school, id, headId);
    if (!row) throw new AppError('care.class_not_found');
    return row;
  }

  /** An on-job teacher or head teacher of the school (locked against leaving meanwhile); answers the name. */
  private async checkTeacher(em: Queryable, school: number, id: number): Promise<string> {
    const name = await this.repo.teacherName(em, school, id);
    if (name === undefined) throw new AppError('care.teacher_invalid');
    return name;
  }

  private async checkSlot(em: Queryable, school: number, id: number): Promise<void> {
    if (!(await this.repo.slotExists(em, school, id))) throw new AppError('care.class_time_not_found');
  }

  /** Makes the class-level 'head' duty match head_teacher_id. */
  private async syncHead(em: Queryable, school: number, classId: number, head: number | null): Promise<void> {
    if (head === null) await this.repo.removeHeadDuty(em, classId);
    else await this.repo.assignDuty(em, { schoolId: school, classId, studentId: null, teacherId: head, duty: 'head' });
  }
}
