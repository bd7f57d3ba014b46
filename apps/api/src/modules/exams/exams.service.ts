import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  toHalfPoints,
  type AddExamInput,
  type DelExamInput,
  type EditExamInput,
  type ExamListFilter,
  type ExamListQuery,
  type PublishExamScoresInput,
} from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { AccessRepository } from '../../core/access/access';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import type { Queryable } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import { GuardianMessages } from '../messages/guardian-messages.service';
import { checkClasses, examOf, isTeacher, toExam } from './exam-rules';
import { ExamsRepository } from './exams.repository';

/** Exams: the list (filters of the GET query or the POST body), add, edit, delete, publish. */
@Injectable()
export class ExamsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repo: ExamsRepository,
    private readonly access: AccessRepository,
    private readonly messages: GuardianMessages,
  ) {}

  /** GET filters as the POST body's. */
  static filtersOf(q: ExamListQuery): ExamListFilter {
    return {
      page: q.page,
      limit: q.limit,
      class_ids: q.class_id ? [q.class_id] : undefined,
      subjects: q.subject ? [q.subject] : undefined,
      keyword: q.keyword,
      date_from: q.date_from,
      date_to: q.date_to,
      published: q.published === undefined ? undefined : q.published === '1',
    };
  }

  /** Exams newest first (exam day, then id), paged; a teacher sees the exams with at least one own class. */
  async list(user: SchoolCaller, f: ExamListFilter) {
    const page = await this.repo.page(user.schoolId, isTeacher(user) ? user.id : null, f);
    return { ...page, list: page.list.map(toExam) };
  }

  async add(user: SchoolCaller, input: AddExamInput) {
    return this.db.transaction(async (em) => {
      await checkClasses(this.access, em, user, input.class_ids);
      const id = await this.repo.insert(em, {
        schoolId: user.schoolId,
        name: input.name,
        subject: input.subject,
        examDay: input.exam_day,
        fullMark: input.full_mark,
        pass2: pass2Of(input.pass_mark),
        createdBy: user.id,
      });
      await this.repo.addClasses(em, id, user.schoolId, input.class_ids, false);
      return this.read(em, id);
    });
  }

  /**
   * Edits an exam on the version read. A teacher: an exam all of whose classes are theirs, to own classes only. The
   * full mark cannot go below a score entered, a class with scores cannot be taken off the exam.
   */
  async edit(user: SchoolCaller, input: EditExamInput) {
    return this.db.transaction(async (em) => {
      const exam = await examOf(this.repo, em, user, input.id, { lock: true, manage: true });
      if (exam.version !== input.version) throw new AppError('exams.changed');
      await checkClasses(this.access, em, user, input.class_ids);
      const max2 = await this.repo.maxScore2(em, exam.id);
      if (max2 !== null && max2 > input.full_mark * 2) throw new AppError('exams.full_mark_below_scores', { max: max2 / 2 });
      const removed = exam.class_ids.filter((id) => !input.class_ids.includes(id));
      if (removed.length) {
        const used = await this.repo.classWithScores(em, exam.id, removed);
        if (used !== undefined) throw new AppError('exams.class_has_scores', { name: used });
        await this.repo.removeClasses(em, exam.id, removed);
      }
      await this.repo.addClasses(em, exam.id, user.schoolId, input.class_ids, true);
      await this.repo.update(em, exam.id, {
        name: input.name,
        subject: input.subject,
        examDay: input.exam_day,
        fullMark: input.full_mark,
        pass2: pass2Of(input.pass_mark),
      });
      return this.read(em, exam.id);
    });
  }

  /** Deletes an exam with its scores (the screen confirmed it), on the version read. */
  async remove(user: SchoolCaller, input: DelExamInput): Promise<{ id: number; scores: number }> {
    return this.db.transaction(async (em) => {
      const exam = await examOf(this.repo, em, user, input.id, { lock: true, manage: true });
      if (exam.version !== input.version) throw new AppError('exams.changed');
      const scores = await this.repo.scoreCount(em, exam.id);
      await this.repo.delete(em, exam.id);
      return { id: exam.id, scores };
    });
  }

  /**
   * Publishes the scores (guardians see them from now on) and tells each guardian of a student with a score once per
   * exam (GuardianMessages: WeChat, else SMS; held to 07:00 in the quiet hours): exam_texts remembers who was told, so a
   * second publish tells only guardians of students scored since. The messages are written in the publish's
   * transaction (both or neither) and sent after it; `texted` counts the guardians told.
   */
  async publish(user: SchoolCaller, input: PublishExamScoresInput) {
    const published = await this.db.transaction(async (em) => {
      const exam = await examOf(this.repo, em, user, input.exam_id, { lock: true, manage: true });
      if (exam.version !== input.version) throw new AppError('exams.changed');
      const row = await this.repo.publish(em, exam.id);
      const told = await this.repo.toTell(em, exam.id, user.schoolId);
      const staged = await this.messages.stage(
        em,
        told.map((x) => ({
          school_id: user.schoolId,
          user_id: x.user_id,
          kind: 'exam.published' as const,
          params: { school: x.school, student: x.students, exam: exam.name, subject: exam.subject },
          link: '/parent_scores',
          key: `exam:${exam.id}:${x.user_id}`,
        })),
      );
      return { published_at: row.published_at!, version: row.version, texted: staged.users, staged };
    });
    await this.messages.dispatch(published.staged);
    return { published_at: published.published_at, version: published.version, texted: published.texted };
  }

  private async read(em: Queryable, id: number) {
    return toExam(await this.repo.read(em, id));
  }
}

const pass2Of = (v: number | null | undefined) => (v === null || v === undefined ? null : toHalfPoints(v));
