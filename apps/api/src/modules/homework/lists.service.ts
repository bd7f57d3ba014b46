import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  Role,
  type ClassHomeWorksQuery,
  type Homework,
  type HomeworkHistoryEntry,
  type HomeworkInfo,
  type HomeworkPage,
  type HomeworkSubmission,
  type HomeWorkInfoQuery,
  type StudentHomework,
  type StudentHomeworkDay,
  type StudentHomeWorkQuery,
  type StudentWorkInfo,
  type StudentWorkInfoQuery,
  type TeachingTaskHomeWorksQuery,
} from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { containsPattern, offsetOf, pageOf, SCHOOL_TODAY, totalOf } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import {
  HOMEWORK_COLUMNS,
  HOMEWORK_COUNTS,
  HOMEWORK_JOINS,
  ownHomework,
  schoolOf,
  studentScope,
  SUBMISSION_COLUMNS,
  SUBMISSION_JOINS,
} from './homework-sql';

/** The most homework one student's day lists (a day rarely has more than a handful). */
const DAY_MAX = 100;
/** The most history entries one student's homework detail shows. */
const HISTORY_MAX = 200;

/** Reading homework: the lists (school, own classes, a teaching class), one homework's students, a student's day. */
@Injectable()
export class ListsService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Homework with counts, newest first, paged: the admin the school's, a teacher or head teacher the own classes'. */
  async list(user: SessionUser, q: ClassHomeWorksQuery & { session_id?: number }): Promise<HomeworkPage> {
    const where = `h.school_id = $1 and ${ownHomework(user.role, '$2')} and ($3::text is null or h.kind = $3) and ($4::int is null or h.class_id = $4)
      and ($5::date is null or (h.set_day <= $5::date and h.due_day >= $5::date)) and ($6::text is null or h.title like $6) and ($7::int is null or h.session_id = $7)`;
    const rows: Array<Homework & { total: number }> = await this.db.query(
      `select n.total, p.* from (select count(*)::int as total from homeworks h where ${where}) n
       left join lateral (
         select ${HOMEWORK_COLUMNS}, ${HOMEWORK_COUNTS} from homeworks h ${HOMEWORK_JOINS}
          where ${where} order by h.set_day desc, h.id desc limit $8 offset $9) p on true`,
      [
        schoolOf(user),
        user.id,
        q.kind ?? null,
        q.class_id ?? null,
        q.day ?? null,
        containsPattern(q.keyword),
        q.session_id ?? null,
        q.limit,
        offsetOf(q),
      ],
    );
    const list = rows.filter((r) => r.id !== null).map(({ total: _, ...r }) => r as Homework);
    return pageOf(list, totalOf(rows), q);
  }

  /** The homework of one of the teacher's teaching classes (optionally one session). */
  async teachingTask(user: SessionUser, q: TeachingTaskHomeWorksQuery): Promise<HomeworkPage> {
    const [c]: unknown[] = await this.db.query(
      `select 1 from teaching_classes c where c.id = $1 and c.school_id = $2 and c.teacher_id = $3 and c.deleted_at is null`,
      [q.class_id, schoolOf(user), user.id],
    );
    if (!c) throw new AppError('homework.class_not_found');
    return this.list(user, { page: q.page, limit: q.limit, kind: 'teaching', class_id: q.class_id, session_id: q.session_id });
  }

  /** One homework with its students' states, by name, paged (filter by state). */
  async info(user: SessionUser, q: HomeWorkInfoQuery): Promise<HomeworkInfo> {
    const [homework]: Homework[] = await this.db.query(
      `select ${HOMEWORK_COLUMNS}, ${HOMEWORK_COUNTS} from homeworks h ${HOMEWORK_JOINS} where h.id = $1 and h.school_id = $2 and ${ownHomework(user.role, '$3')}`,
      [q.id, schoolOf(user), user.id],
    );
    if (!homework) throw new AppError('homework.not_found');
    const total = q.state ? homework[q.state] : homework.students;
    const offset = offsetOf(q);
    const list: HomeworkSubmission[] =
      offset < total
        ? await this.db.query(
            `select hs.student_id, s.name as student_name, ${SUBMISSION_COLUMNS}
               from homework_submissions hs join students s on s.id = hs.student_id ${SUBMISSION_JOINS}
              where hs.homework_id = $1 and ($2::text is null or hs.state = $2) order by s.name, s.id limit $3 offset $4`,
            [homework.id, q.state ?? null, q.limit, offset],
          )
        : [];
    return { homework, ...pageOf(list, total, q) };
  }

  /** A student's homework open on a day (set on or before it, due on or after it), the earliest due first. */
  async studentDay(user: SessionUser, q: StudentHomeWorkQuery): Promise<StudentHomeworkDay> {
    const school = schoolOf(user);
    const [st]: Array<{ id: number; name: string; day: string }> = await this.db.query(
      `select s.id, s.name, coalesce($4::text, to_char(d.today, 'YYYY-MM-DD')) as day from students s cross join ${SCHOOL_TODAY} d
        where s.school_id = $1 and s.id = $2 and ${studentScope(user.role, '$3')}`,
      [school, q.student_id, user.id, q.day ?? null],
    );
    if (!st) throw new AppError('homework.student_not_found');
    const list: StudentHomework[] = await this.db.query(
      `select ${HOMEWORK_COLUMNS}, ${SUBMISSION_COLUMNS}
         from homework_submissions hs join homeworks h on h.id = hs.homework_id ${HOMEWORK_JOINS} ${SUBMISSION_JOINS}
        where hs.student_id = $1 and h.set_day <= $2::date and h.due_day >= $2::date order by h.due_day, h.id limit ${DAY_MAX}`,
      [st.id, st.day],
    );
    return { student_id: st.id, student_name: st.name, day: st.day, list };
  }

  /** One student's homework: the homework, the state, today's tutoring and the whole history (notes, photos). */
  async studentWork(user: SessionUser, q: StudentWorkInfoQuery): Promise<StudentWorkInfo> {
    const school = schoolOf(user);
    const [row]: Array<StudentHomework & { student_id: number; student_name: string }> = await this.db.query(
      `select s.id as student_id, s.name as student_name, ${HOMEWORK_COLUMNS}, ${SUBMISSION_COLUMNS}
         from homework_submissions hs join students s on s.id = hs.student_id join homeworks h on h.id = hs.homework_id ${HOMEWORK_JOINS} ${SUBMISSION_JOINS}
        where hs.student_id = $1 and hs.homework_id = $2 and h.school_id = $3 and s.school_id = $3 and ${studentScope(user.role === Role.Admin ? Role.Teacher : user.role, '$4')}`,
      [q.student_id, q.homework_id, school, user.id],
    );
    if (!row) throw new AppError('homework.not_found');
    const history: HomeworkHistoryEntry[] = await this.db.query(
      `select e.id::int as id, e.from_state, e.to_state, e.note, e.photo_url, u.name as actor_name, e.actor, e.at
         from homework_events e left join users u on u.id = e.actor_id
        where e.homework_id = $1 and e.student_id = $2 order by e.id limit ${HISTORY_MAX}`,
      [q.homework_id, q.student_id],
    );
    const [tutoring]: Array<StudentWorkInfo['tutoring']> = await this.db.query(
      `select to_char(sd.day, 'YYYY-MM-DD') as day, sd.tutor_started_at as started_at, sd.tutor_ended_at as ended_at, u.name as started_by_name
         from student_days sd cross join ${SCHOOL_TODAY} d left join users u on u.id = sd.tutor_started_by
        where sd.student_id = $2 and sd.day = d.today`,
      [school, q.student_id],
    );
    const { student_id, student_name, ...homework } = row;
    return { student_id, student_name, homework, tutoring: tutoring ?? null, history };
  }
}
