import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { dueDayOk, HOMEWORK_MAX_DAYS, type Homework, type IssueHomeWorkInput } from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { isUniqueViolation, SCHOOL_TODAY } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { GuardianMessages, type StagedMessages } from '../messages/guardian-messages.service';
import { HOMEWORK_COLUMNS, HOMEWORK_COUNTS, HOMEWORK_JOINS, schoolOf } from './homework-sql';

/** Setting homework: for one of the teacher's own classes, the class's students when it is set. */
@Injectable()
export class IssueService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly messages: GuardianMessages,
  ) {}

  /**
   * Sets homework for a care class (the caller is its head teacher or one of its duty teachers) or a teaching class (the
   * caller teaches it), optionally for one of its sessions; due from today (school-local) to HOMEWORK_MAX_DAYS later.
   * One statement writes the homework and a "not done" row for every active student of the class; their guardians are
   * told (GuardianMessages, staged in the same transaction). A repeated request_id answers the homework it set.
   */
  async issue(user: SessionUser, input: IssueHomeWorkInput): Promise<Homework> {
    const school = schoolOf(user);
    const key = `${user.id}:${input.request_id}`;
    const [found]: Array<{ today: string; class_ok: boolean; session_ok: boolean; prior: number | null }> = await this.db.query(
      `select to_char(d.today, 'YYYY-MM-DD') as today,
              case when $2 = 'care' then exists (select 1 from care_classes c where c.id = $3 and c.school_id = $1 and c.deleted_at is null
                                                    and (c.head_teacher_id = $4 or exists (select 1 from duty_assignments a where a.class_id = c.id and a.teacher_id = $4)))
                   else exists (select 1 from teaching_classes c where c.id = $3 and c.school_id = $1 and c.deleted_at is null and c.teacher_id = $4) end as class_ok,
              ($5::int is null or exists (select 1 from class_sessions s where s.id = $5 and s.school_id = $1 and s.kind = 'teaching' and s.class_id = $3)) as session_ok,
              (select h.id from homeworks h where h.school_id = $1 and h.request_key = $6) as prior
         from ${SCHOOL_TODAY} d`,
      [school, input.kind, input.class_id, user.id, input.session_id ?? null, key],
    );
    if (found.prior) return this.read(school, found.prior);
    if (!found.class_ok) throw new AppError('homework.class_not_found');
    if (!found.session_ok) throw new AppError('homework.session_not_found');
    if (!dueDayOk(found.today, input.due_day)) throw new AppError('homework.due_invalid', { max: HOMEWORK_MAX_DAYS });
    const members =
      input.kind === 'care'
        ? `select m.student_id from care_class_students m join students s on s.id = m.student_id where m.class_id = $3 and s.status = 1`
        : `select m.student_id from teaching_class_students m join students s on s.id = m.student_id where m.class_id = $3 and s.status = 1`;
    let id: number;
    let staged: StagedMessages | null = null;
    try {
      const done = await this.db.transaction(async (em) => {
        const [row]: Array<{ id: number; students: number }> = await em.query(
          `with h as (
             insert into homeworks (school_id, kind, class_id, session_id, title, content, attachments, set_day, due_day, teacher_id, request_key)
             values ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::date, $9::date, $10, $11) returning id),
           m as (insert into homework_submissions (homework_id, student_id, school_id) select h.id, x.student_id, $1 from h, (${members}) x returning 1)
           select h.id, (select count(*)::int from m) as students from h`,
          [
            school,
            input.kind,
            input.class_id,
            input.session_id ?? null,
            input.title,
            input.content,
            JSON.stringify(input.attachments),
            found.today,
            input.due_day,
            user.id,
            key,
          ],
        );
        if (row.students === 0) throw new AppError('homework.no_students');
        // every guardian of the students told (WeChat, else SMS), with the homework's commit
        const told: Array<{ student_id: number; student: string; school: string; user_id: number }> = await em.query(
          `select s.id as student_id, s.name as student, sc.name as school, g.user_id
             from homework_submissions m join students s on s.id = m.student_id join schools sc on sc.id = m.school_id
             join student_guardians g on g.student_id = m.student_id
            where m.homework_id = $1`,
          [row.id],
        );
        const messages = await this.messages.stage(
          em,
          told.map((t) => ({
            school_id: school,
            user_id: t.user_id,
            kind: 'homework.set' as const,
            params: { school: t.school, student: t.student, title: input.title, due: input.due_day },
            link: `/parent_homework?student=${t.student_id}`,
            key: `hw:${row.id}:${t.student_id}:${t.user_id}`,
          })),
        );
        return { id: row.id, messages };
      });
      id = done.id;
      staged = done.messages;
    } catch (err) {
      // the same request sent twice at once: the other one set it
      if (!isUniqueViolation(err, 'homeworks_request_idx')) throw err;
      const [prior]: Array<{ id: number }> = await this.db.query(`select id from homeworks where school_id = $1 and request_key = $2`, [school, key]);
      id = prior.id;
    }
    if (staged) await this.messages.dispatch(staged);
    return this.read(school, id);
  }

  private async read(school: number, id: number): Promise<Homework> {
    const [h]: Homework[] = await this.db.query(
      `select ${HOMEWORK_COLUMNS}, ${HOMEWORK_COUNTS} from homeworks h ${HOMEWORK_JOINS} where h.id = $1 and h.school_id = $2`,
      [id, school],
    );
    return h;
  }
}
