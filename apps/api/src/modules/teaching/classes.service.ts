import { Injectable } from '@nestjs/common';
import { memberCount, studentsToAdd } from '../scheduling/class-members.repository';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  Role,
  type AddTeachingClassInput,
  type AddTeachingClassStudentInput,
  type DelTeachingClassStudentInput,
  type EditTeachingClassInput,
  type Page,
  type SelectableStudent,
  type SelectTeachingClassStudentQuery,
  type StudentTeachingClassListQuery,
  type TeachingClass,
  type TeachingClassListQuery,
  type TeachingClassMember,
  type TeachingClassStatusInput,
  type TeachingClassStudentQuery,
  type TeachManageAnswer,
} from '@wantuo/shared';
import { DataSource } from 'typeorm';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { containsPattern, isUniqueViolation } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { Sendable } from '../../core/http/sendable';
import {
  bumpClass,
  classCounts,
  classPage,
  classRow,
  homeworkToMark,
  insertClass,
  reassignSessions,
  setClassStatus,
  teacherClasses,
  teacherNextSessions,
  updateClass,
} from './teaching-classes.repository';
import { deleteMember, insertMembers, memberPage, selectablePage, studentClassPage, studentOfSchool } from './teaching-members.repository';
import { lockSchedule, roomOfSchool, upcomingSessions, workingTeacher } from './teaching-schedule.repository';
import { classOf, clashError, clashesOf, isOverlapViolation, overlapError, teachesOnly } from './teaching-sql';

/** Teaching (extension) classes and their students. */
@Injectable()
export class TeachingClassesService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async add(user: SchoolCaller, input: AddTeachingClassInput): Promise<Sendable<TeachingClass>> {
    const school = user.schoolId;
    const id = await this.db.transaction(async (em) => {
      if (!(await workingTeacher(em, input.teacher_id, school))) throw new AppError('teaching.teacher_invalid');
      if (input.room_id && !(await roomOfSchool(em, input.room_id, school))) throw new AppError('teaching.room_not_found');
      try {
        return await insertClass(em, school, input, user.id);
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError('teaching.class_name_taken');
        throw err;
      }
    });
    return this.info(user, id);
  }

  /** One class (a teacher: an own class). */
  async info(user: SchoolCaller, id: number): Promise<Sendable<TeachingClass>> {
    const row = await classRow(this.db, user.schoolId, id, teachesOnly(user) ? user.id : null);
    if (!row) throw new AppError('teaching.class_not_found');
    return row;
  }

  /** Classes newest first (a teacher: own classes); rows and total in one statement. */
  list(user: SchoolCaller, q: TeachingClassListQuery): Promise<Page<Sendable<TeachingClass>>> {
    return classPage(
      this.db,
      { schoolId: user.schoolId, name: containsPattern(q.name), status: q.status ?? null, teacher: teachesOnly(user) ? user.id : null },
      q,
    );
  }

  /**
   * Edits a class's details on the version read, under the school's scheduling lock. The planned sessions from today
   * follow a new teacher, and those in the class's room follow a new room: checked first with the shared clash rules
   * (the teacher's and the room's other sessions), refused with the list. The capacity stays at or above the students,
   * the sessions count at or above the sessions scheduled. room_id omitted keeps the room, null clears it.
   */
  async edit(user: SchoolCaller, input: EditTeachingClassInput): Promise<Sendable<TeachingClass>> {
    const school = user.schoolId;
    await this.db.transaction(async (em) => {
      await lockSchedule(em, school);
      const c = await classOf(em, user, input.id, true);
      if (c.version !== input.version) throw new AppError('teaching.class_stale');
      const roomId = input.room_id === undefined ? c.room_id : input.room_id;
      if (!(await workingTeacher(em, input.teacher_id, school))) throw new AppError('teaching.teacher_invalid');
      if (roomId !== null && !(await roomOfSchool(em, roomId, school))) throw new AppError('teaching.room_not_found');
      const n = await classCounts(em, c.id);
      if (input.capacity < n.students) throw new AppError('teaching.capacity_below_students', { students: n.students });
      if (input.sessions_count < n.scheduled) throw new AppError('teaching.sessions_count_below_scheduled', { scheduled: n.scheduled });
      const teacherChanged = input.teacher_id !== c.teacher_id;
      const roomChanged = roomId !== c.room_id;
      if (teacherChanged || roomChanged) {
        // the planned sessions from today with the teacher and room they would have
        const upcoming = await upcomingSessions(em, school, 'teaching', c.id, { from: c.room_id, to: roomId });
        const clashes = await clashesOf(
          em,
          school,
          upcoming.map((s) => ({
            day: s.day,
            weekday: s.weekday,
            start: s.start_min,
            end: s.end_min,
            teacher_id: input.teacher_id,
            room_id: s.room_id,
            session_id: s.id,
          })),
          { exceptSessions: upcoming.map((s) => s.id), ownClass: { kind: 'teaching', id: c.id } },
        );
        if (clashes.length) throw clashError(clashes);
        if (upcoming.length) {
          await reassignSessions(
            em,
            upcoming.map((s) => s.id),
            input.teacher_id,
            upcoming.map((s) => s.room_id),
          ).catch((err: unknown) => {
            throw isOverlapViolation(err) ? overlapError() : err;
          });
        }
      }
      try {
        await updateClass(em, c.id, input, roomId);
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError('teaching.class_name_taken');
        throw err;
      }
    });
    return this.info(user, input.id);
  }

  /** Starts or stops a class on the version read. */
  async setStatus(user: SchoolCaller, input: TeachingClassStatusInput): Promise<Sendable<TeachingClass>> {
    await this.db.transaction(async (em) => {
      const c = await classOf(em, user, input.id, true);
      if (c.version !== input.version) throw new AppError('teaching.class_stale');
      if (c.status === input.status) throw new AppError('teaching.class_status_unchanged');
      await setClassStatus(em, c.id, input.status);
    });
    return this.info(user, input.id);
  }

  /** The class's students by name. */
  async students(user: SchoolCaller, q: TeachingClassStudentQuery): Promise<Page<Sendable<TeachingClassMember>>> {
    await classOf(this.db, user, q.class_id);
    return memberPage(this.db, q.class_id, q);
  }

  /** The school's active students not in the class, by name. */
  async selectable(user: SchoolCaller, q: SelectTeachingClassStudentQuery): Promise<Page<SelectableStudent>> {
    await classOf(this.db, user, q.class_id);
    return selectablePage(this.db, user.schoolId, q.class_id, containsPattern(q.name), q);
  }

  /**
   * Adds students, all or none: refused with the numbers past the capacity, with the names of those already in the
   * class, and with the clash list when a student is busy at a planned session of the class (another class's session
   * or the student's care time).
   */
  async addStudents(user: SchoolCaller, input: AddTeachingClassStudentInput): Promise<Sendable<TeachingClass>> {
    const school = user.schoolId;
    await this.db.transaction(async (em) => {
      await lockSchedule(em, school);
      const c = await classOf(em, user, input.class_id, true);
      if (c.status !== 1) throw new AppError('teaching.class_stopped');
      const found = await studentsToAdd(em, 'teaching_class_students', school, c.id, input.student_ids);
      if (found.length !== input.student_ids.length) throw new AppError('teaching.student_not_found');
      const already = found.filter((s) => s.member);
      if (already.length) throw new AppError('teaching.already_in_class', { names: already.map((s) => s.name).join('、') });
      const n = await memberCount(em, 'teaching_class_students', c.id);
      if (n + found.length > c.capacity) throw new AppError('teaching.capacity_exceeded', { capacity: c.capacity, current: n, adding: found.length });
      // the class's planned sessions from today, with the new students only
      const upcoming = await upcomingSessions(em, school, 'teaching', c.id);
      const ids = found.map((s) => s.id);
      const clashes = await clashesOf(
        em,
        school,
        upcoming.map((s) => ({
          day: s.day,
          weekday: s.weekday,
          start: s.start_min,
          end: s.end_min,
          teacher_id: s.teacher_id,
          room_id: s.room_id,
          student_ids: ids,
          session_id: s.id,
        })),
        { exceptSessions: upcoming.map((s) => s.id), ownClass: { kind: 'teaching', id: c.id } },
      ).then((all) => all.filter((x) => x.kind === 'student'));
      if (clashes.length) throw clashError(clashes);
      await insertMembers(em, school, c.id, ids);
      await bumpClass(em, c.id);
    });
    return this.info(user, input.class_id);
  }

  /** Removes a student from the class (their roll calls stay). */
  async delStudent(user: SchoolCaller, input: DelTeachingClassStudentInput): Promise<Sendable<TeachingClass>> {
    await this.db.transaction(async (em) => {
      const c = await classOf(em, user, input.class_id, true);
      if (!(await deleteMember(em, c.id, input.student_id))) throw new AppError('teaching.not_in_class');
      await bumpClass(em, c.id);
    });
    return this.info(user, input.class_id);
  }

  /**
   * A student's teaching classes: the admin any student of the school, a teacher the student's classes they teach,
   * a guardian an own child's.
   */
  async studentClasses(user: SchoolCaller, q: StudentTeachingClassListQuery): Promise<Page<Sendable<TeachingClass>>> {
    const school = user.schoolId;
    const parent = user.role === Role.Parent;
    if (!(await studentOfSchool(this.db, school, q.student_id, parent ? user.id : null))) throw new AppError('teaching.student_not_found');
    return studentClassPage(this.db, school, q.student_id, user.role === Role.Teacher ? user.id : null, q);
  }

  /** The teacher's overview: own classes (at most 100, running first) and the next 10 planned sessions from today. */
  async teachManage(user: SchoolCaller): Promise<TeachManageAnswer> {
    const school = user.schoolId;
    const classes = await teacherClasses(this.db, school, user.id);
    const next_sessions = await teacherNextSessions(this.db, school, user.id);
    return { classes, next_sessions, homework_to_mark: await homeworkToMark(this.db, school, user.id) };
  }
}
