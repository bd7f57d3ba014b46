import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  Role,
  toHalfPoints,
  type AddExamInput,
  type DelExamInput,
  type EditExamInput,
  type Exam,
  type ExamListAnswer,
  type ExamListFilter,
  type ExamListQuery,
  type PublishExamScoresInput,
  type PublishExamScoresResult,
} from '@wantuo/shared';
import { DataSource, type EntityManager } from 'typeorm';
import { containsPattern, offsetOf, pageOf, totalOf } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { GuardianMessages } from '../messages/guardian-messages.service';
import { checkClasses, EXAM_COLUMNS, EXAM_JOINS, examOf, isTeacher, OWN_CLASS, schoolOf, toExam, type ExamDbRow } from './exams-sql';

type Filters = Omit<ExamListFilter, 'page' | 'limit'>;

/** Exams: the list (filters of the GET query or the POST body), add, edit, delete, publish. */
@Injectable()
export class ExamsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
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
  async list(user: SessionUser, f: ExamListFilter): Promise<ExamListAnswer> {
    const params: unknown[] = [schoolOf(user)];
    const p = (v: unknown) => `$${params.push(v)}`;
    const conds = ['e.school_id = $1'];
    if (isTeacher(user)) {
      conds.push(
        `exists (select 1 from exam_classes ec join care_classes c on c.id = ec.class_id where ec.exam_id = e.id and ${OWN_CLASS('c', p(user.id))})`,
      );
    }
    const w = f as Filters;
    if (w.class_ids?.length)
      conds.push(`exists (select 1 from exam_classes ec where ec.exam_id = e.id and ec.class_id = any(${p(w.class_ids)}::int[]))`);
    if (w.subjects?.length) conds.push(`e.subject = any(${p(w.subjects)}::text[])`);
    const keyword = containsPattern(w.keyword);
    if (keyword) conds.push(`e.name like ${p(keyword)}`);
    if (w.date_from) conds.push(`e.exam_day >= ${p(w.date_from)}::date`);
    if (w.date_to) conds.push(`e.exam_day <= ${p(w.date_to)}::date`);
    if (w.published !== undefined) conds.push(w.published ? 'e.published_at is not null' : 'e.published_at is null');
    const where = conds.join(' and ');
    const rows: Array<ExamDbRow & { total: number }> = await this.db.query(
      `select t.total, r.* from (select count(*)::int as total from exams e where ${where}) t
       left join lateral (
         select ${EXAM_COLUMNS} from exams e ${EXAM_JOINS} where ${where}
          order by e.exam_day desc, e.id desc limit ${p(f.limit)} offset ${p(offsetOf(f))}
       ) r on true`,
      params,
    );
    const list = rows.filter((r) => r.id !== null).map(({ total: _, ...r }) => toExam(r as ExamDbRow));
    return pageOf(list, totalOf(rows), f);
  }

  async add(user: SessionUser, input: AddExamInput): Promise<Exam> {
    return this.db.transaction(async (em) => {
      await checkClasses(em, user, input.class_ids);
      const [row]: Array<{ id: number }> = await em.query(
        `insert into exams (school_id, name, subject, exam_day, full_mark, pass2, created_by) values ($1, $2, $3, $4, $5, $6, $7) returning id`,
        [schoolOf(user), input.name, input.subject, input.exam_day, input.full_mark, pass2Of(input.pass_mark), user.id],
      );
      await em.query(`insert into exam_classes (exam_id, class_id, school_id) select $1, c, $2 from unnest($3::int[]) c`, [
        row.id,
        schoolOf(user),
        input.class_ids,
      ]);
      return this.read(em, row.id);
    });
  }

  /**
   * Edits an exam on the version read. A teacher: an exam all of whose classes are theirs, to own classes only. The
   * full mark cannot go below a score entered, a class with scores cannot be taken off the exam.
   */
  async edit(user: SessionUser, input: EditExamInput): Promise<Exam> {
    return this.db.transaction(async (em) => {
      const exam = await examOf(em, user, input.id, { lock: true, manage: true });
      if (exam.version !== input.version) throw new AppError('exams.changed');
      await checkClasses(em, user, input.class_ids);
      const [agg]: Array<{ max2: number | null }> = await em.query(`select max(score2) as max2 from exam_scores where exam_id = $1`, [exam.id]);
      if (agg.max2 !== null && agg.max2 > input.full_mark * 2) throw new AppError('exams.full_mark_below_scores', { max: agg.max2 / 2 });
      const removed = exam.class_ids.filter((id) => !input.class_ids.includes(id));
      if (removed.length) {
        const [used]: Array<{ name: string }> = await em.query(
          `select c.name from exam_scores sc join care_classes c on c.id = sc.class_id where sc.exam_id = $1 and sc.class_id = any($2::int[]) limit 1`,
          [exam.id, removed],
        );
        if (used) throw new AppError('exams.class_has_scores', { name: used.name });
        await em.query(
          `with d as (delete from exam_classes where exam_id = $1 and class_id = any($2::int[]) returning 1) select count(*)::int as n from d`,
          [exam.id, removed],
        );
      }
      await em.query(`insert into exam_classes (exam_id, class_id, school_id) select $1, c, $2 from unnest($3::int[]) c on conflict do nothing`, [
        exam.id,
        schoolOf(user),
        input.class_ids,
      ]);
      await em.query(
        `with u as (update exams set name = $2, subject = $3, exam_day = $4, full_mark = $5, pass2 = $6, version = version + 1, updated_at = now()
                     where id = $1 returning id) select id from u`,
        [exam.id, input.name, input.subject, input.exam_day, input.full_mark, pass2Of(input.pass_mark)],
      );
      return this.read(em, exam.id);
    });
  }

  /** Deletes an exam with its scores (the screen confirmed it), on the version read. */
  async remove(user: SessionUser, input: DelExamInput): Promise<{ id: number; scores: number }> {
    return this.db.transaction(async (em) => {
      const exam = await examOf(em, user, input.id, { lock: true, manage: true });
      if (exam.version !== input.version) throw new AppError('exams.changed');
      const [n]: Array<{ scores: number }> = await em.query(`select count(*)::int as scores from exam_scores where exam_id = $1`, [exam.id]);
      await em.query(`with d as (delete from exams where id = $1 returning id) select id from d`, [exam.id]);
      return { id: exam.id, scores: n.scores };
    });
  }

  /**
   * Publishes the scores (guardians see them from now on) and tells each guardian of a student with a score once per
   * exam (GuardianMessages: WeChat, else SMS; held to 07:00 in the quiet hours): exam_texts remembers who was told, so a
   * second publish tells only guardians of students scored since. The messages are written in the publish's
   * transaction (both or neither) and sent after it; `texted` counts the guardians told.
   */
  async publish(user: SessionUser, input: PublishExamScoresInput): Promise<PublishExamScoresResult> {
    const published = await this.db.transaction(async (em) => {
      const exam = await examOf(em, user, input.exam_id, { lock: true, manage: true });
      if (exam.version !== input.version) throw new AppError('exams.changed');
      const [row]: Array<{ published_at: string; version: number }> = await em.query(
        `with u as (update exams set published_at = coalesce(published_at, now()), version = version + 1, updated_at = now() where id = $1
                     returning published_at, version) select * from u`,
        [exam.id],
      );
      const told: Array<{ user_id: number; students: string; school: string }> = await em.query(
        `with g as (
           select sg.user_id, string_agg(distinct s.name, '、') as students
             from exam_scores sc join students s on s.id = sc.student_id
             join student_guardians sg on sg.student_id = sc.student_id
             join users u on u.id = sg.user_id and u.role = $3 and u.deleted_at is null
            where sc.exam_id = $1
            group by sg.user_id),
         ins as (insert into exam_texts (exam_id, guardian_id, school_id) select $1, g.user_id, $2 from g on conflict do nothing returning guardian_id)
         select g.user_id, g.students, sch.name as school from g join ins on ins.guardian_id = g.user_id join schools sch on sch.id = $2`,
        [exam.id, schoolOf(user), Role.Parent],
      );
      const staged = await this.messages.stage(
        em,
        told.map((x) => ({
          school_id: schoolOf(user),
          user_id: x.user_id,
          kind: 'exam.published' as const,
          params: { school: x.school, student: x.students, exam: exam.name, subject: exam.subject },
          link: '/parent_scores',
          key: `exam:${exam.id}:${x.user_id}`,
        })),
      );
      return { published_at: row.published_at, version: row.version, texted: staged.users, staged };
    });
    await this.messages.dispatch(published.staged);
    return { published_at: published.published_at, version: published.version, texted: published.texted };
  }

  private async read(em: Pick<EntityManager, 'query'>, id: number): Promise<Exam> {
    const [row]: ExamDbRow[] = await em.query(`select ${EXAM_COLUMNS} from exams e ${EXAM_JOINS} where e.id = $1`, [id]);
    return toExam(row);
  }
}

const pass2Of = (v: number | null | undefined) => (v === null || v === undefined ? null : toHalfPoints(v));
