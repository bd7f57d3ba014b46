import { Injectable } from '@nestjs/common';
import { memberCount, studentsToAdd } from '../scheduling/class-members.repository';
import { InjectDataSource } from '@nestjs/typeorm';
import type {
  AddTutorialStudentInput,
  DelTutorialStudentInput,
  Page,
  SelectableTutoringStudent,
  SelectTutorialStudentQuery,
  TutorialStudentInfo,
  TutorialStudentInfoQuery,
  TutorialStudentQuery,
  TutoringClass,
  TutoringMember,
} from '@wantuo/shared';
import { DataSource } from 'typeorm';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { containsPattern } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { Sendable } from '../../core/http/sendable';
import { upcomingSessions } from '../teaching/teaching-schedule.repository';
import { clashError, lockSchedule } from '../teaching/teaching-sql';
import { TutoringClassesService } from './classes.service';
import { tutoringClassOf, tutoringClashes } from './tutoring-sql';
import { bumpClass } from './tutoring-classes.repository';
import { deleteMember, insertMembers, memberInfo, memberPage, nextSessions, recordPage, selectablePage } from './tutoring-students.repository';

/** The students of tutoring classes: members with their plan, who may join, joining under the clash rules, records. */
@Injectable()
export class TutoringStudentsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly classes: TutoringClassesService,
  ) {}

  /** The class's students by name, with the sessions each attended (present or late). */
  async students(user: SchoolCaller, q: TutorialStudentQuery): Promise<Page<Sendable<TutoringMember>>> {
    await tutoringClassOf(this.db, user.schoolId, q.class_id);
    return memberPage(this.db, q.class_id, q);
  }

  /** The school's active students not in the class, by name, with their care class and tutoring type. */
  async selectable(user: SchoolCaller, q: SelectTutorialStudentQuery): Promise<Page<SelectableTutoringStudent>> {
    const school = user.schoolId;
    await tutoringClassOf(this.db, school, q.class_id);
    return selectablePage(this.db, school, q.class_id, containsPattern(q.name), q);
  }

  /**
   * Adds students with one plan, all or none: refused with the numbers past the capacity, the names already in the
   * class, and the clash list when a student is busy at a planned session of the class from today on (a teaching or
   * another tutoring session, their care time).
   */
  async add(user: SchoolCaller, input: AddTutorialStudentInput): Promise<Sendable<TutoringClass>> {
    const school = user.schoolId;
    await this.db.transaction(async (em) => {
      await lockSchedule(em, school);
      const c = await tutoringClassOf(em, school, input.class_id, true);
      if (c.status !== 1) throw new AppError('tutoring.class_stopped');
      const found = await studentsToAdd(em, 'tutoring_class_students', school, c.id, input.student_ids);
      if (found.length !== input.student_ids.length) throw new AppError('tutoring.student_not_found');
      const already = found.filter((s) => s.member);
      if (already.length) throw new AppError('tutoring.already_in_class', { names: already.map((s) => s.name).join('、') });
      const n = await memberCount(em, 'tutoring_class_students', c.id);
      if (n + found.length > c.capacity) throw new AppError('tutoring.capacity_exceeded', { capacity: c.capacity, current: n, adding: found.length });
      const upcoming = await upcomingSessions(em, school, 'tutoring', c.id);
      const ids = found.map((s) => s.id);
      const clashes = (
        await tutoringClashes(
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
          { exceptSessions: upcoming.map((s) => s.id), ownClass: c.id },
        )
      ).filter((x) => x.kind === 'student');
      if (clashes.length) throw clashError(clashes);
      await insertMembers(em, { schoolId: school, classId: c.id, ids, plan: input.plan || null, by: user.id });
      await bumpClass(em, c.id);
    });
    return this.classes.info(user, input.class_id);
  }

  /** Removes a student from the class (their roll calls stay). */
  async del(user: SchoolCaller, input: DelTutorialStudentInput): Promise<Sendable<TutoringClass>> {
    await this.db.transaction(async (em) => {
      const c = await tutoringClassOf(em, user.schoolId, input.class_id, true);
      if (!(await deleteMember(em, c.id, input.student_id))) throw new AppError('tutoring.not_in_class');
      await bumpClass(em, c.id);
    });
    return this.classes.info(user, input.class_id);
  }

  /**
   * One student's tutoring in a class: the plan, the counts (sessions, held, planned, roll calls by status), the next
   * five planned sessions and the records (the class's sessions up to today with the student's roll call), paged.
   */
  async info(user: SchoolCaller, q: TutorialStudentInfoQuery): Promise<Sendable<TutorialStudentInfo>> {
    const school = user.schoolId;
    const head = await memberInfo(this.db, school, q.class_id, q.student_id);
    if (!head) throw new AppError('tutoring.not_in_class');
    const next_sessions = await nextSessions(this.db, school, q.class_id);
    const records = await recordPage(this.db, school, q.class_id, q.student_id, q);
    return { ...head, next_sessions, records };
  }
}
