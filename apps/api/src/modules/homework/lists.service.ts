import { Injectable } from '@nestjs/common';
import {
  Role,
  type ClassHomeWorksQuery,
  type HomeworkInfo,
  type HomeworkPage,
  type HomeWorkInfoQuery,
  type StudentHomeworkDay,
  type StudentHomeWorkQuery,
  type StudentWorkInfo,
  type StudentWorkInfoQuery,
  type TeachingTaskHomeWorksQuery,
} from '@wantuo/shared';
import { containsPattern, offsetOf, pageOf } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import type { Sendable } from '../../core/http/sendable';
import { HomeworkRepository } from './homework.repository';

/** The most homework one student's day lists (a day rarely has more than a handful). */
const DAY_MAX = 100;
/** The most history entries one student's homework detail shows. */
const HISTORY_MAX = 200;

/** Reading homework: the lists (school, own classes, a teaching class), one homework's students, a student's day. */
@Injectable()
export class ListsService {
  constructor(private readonly repo: HomeworkRepository) {}

  /** Homework with counts, newest first, paged: the admin the school's, a teacher or head teacher the own classes'. */
  async list(user: SchoolCaller, q: ClassHomeWorksQuery & { session_id?: number }): Promise<Sendable<HomeworkPage>> {
    return this.repo.page(
      {
        school: user.schoolId,
        role: user.role,
        me: user.id,
        kind: q.kind ?? null,
        classId: q.class_id ?? null,
        day: q.day ?? null,
        pattern: containsPattern(q.keyword),
        sessionId: q.session_id ?? null,
      },
      q,
    );
  }

  /** The homework of one of the teacher's teaching classes (optionally one session). */
  async teachingTask(user: SchoolCaller, q: TeachingTaskHomeWorksQuery): Promise<Sendable<HomeworkPage>> {
    if (!(await this.repo.ownTeachingClass(user.schoolId, q.class_id, user.id))) throw new AppError('homework.class_not_found');
    return this.list(user, { page: q.page, limit: q.limit, kind: 'teaching', class_id: q.class_id, session_id: q.session_id });
  }

  /** One homework with its students' states, by name, paged (filter by state). */
  async info(user: SchoolCaller, q: HomeWorkInfoQuery): Promise<Sendable<HomeworkInfo>> {
    const homework = await this.repo.homework(user.schoolId, q.id, { role: user.role, me: user.id });
    if (!homework) throw new AppError('homework.not_found');
    const total = q.state ? homework[q.state] : homework.students;
    const offset = offsetOf(q);
    const list = offset < total ? await this.repo.submissions(homework.id, q.state ?? null, q.limit, offset) : [];
    return { homework, ...pageOf(list, total, q) };
  }

  /** A student's homework open on a day (set on or before it, due on or after it), the earliest due first. */
  async studentDay(user: SchoolCaller, q: StudentHomeWorkQuery): Promise<Sendable<StudentHomeworkDay>> {
    const school = user.schoolId;
    const st = await this.repo.studentOfDay(school, q.student_id, user.role, user.id, q.day ?? null);
    if (!st) throw new AppError('homework.student_not_found');
    const list = await this.repo.studentDay(st.id, st.day, DAY_MAX);
    return { student_id: st.id, student_name: st.name, day: st.day, list };
  }

  /** One student's homework: the homework, the state, today's tutoring and the whole history (notes, photos). */
  async studentWork(user: SchoolCaller, q: StudentWorkInfoQuery): Promise<Sendable<StudentWorkInfo>> {
    const school = user.schoolId;
    const row = await this.repo.studentWork(school, q.student_id, q.homework_id, user.role === Role.Admin ? Role.Teacher : user.role, user.id);
    if (!row) throw new AppError('homework.not_found');
    const history = await this.repo.history(q.homework_id, q.student_id, HISTORY_MAX);
    const tutoring = await this.repo.tutoringToday(school, q.student_id);
    const { student_id, student_name, ...homework } = row;
    return { student_id, student_name, homework, tutoring: tutoring ?? null, history };
  }
}
