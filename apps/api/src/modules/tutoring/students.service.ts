import { Injectable } from '@nestjs/common';
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
import { containsPattern, offsetOf, pageOf, type PageQuery, SCHOOL_TODAY, totalOf } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { clashError, lockSchedule } from '../teaching/teaching-sql';
import { TutoringClassesService } from './classes.service';
import { schoolOf, tutoringClassOf, tutoringClashes } from './tutoring-sql';

const HHMM = (col: string) => `case when ${col} = 1440 then '24:00' else to_char(make_time(${col} / 60, ${col} % 60, 0), 'HH24:MI') end`;

function paged<T extends object>(rows: Array<T & { total: number; id?: number | null; session_id?: number | null }>, q: PageQuery): Page<T> {
  const list = rows.filter((r) => (r.id ?? r.session_id ?? null) !== null).map(({ total: _, ...r }) => r as unknown as T);
  return pageOf(list, totalOf(rows), q);
}

/** The students of tutoring classes: members with their plan, who may join, joining under the clash rules, records. */
@Injectable()
export class TutoringStudentsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly classes: TutoringClassesService,
  ) {}

  /** The class's students by name, with the sessions each attended (present or late). */
  async students(user: SessionUser, q: TutorialStudentQuery): Promise<Page<TutoringMember>> {
    await tutoringClassOf(this.db, schoolOf(user), q.class_id);
    const rows: Array<TutoringMember & { total: number }> = await this.db.query(
      `select n.total, p.* from (select count(*)::int as total from tutoring_class_students where class_id = $1) n
       left join lateral (
         select s.id, s.name, s.grade, s.class_name, m.plan, m.joined_at,
                (select count(*)::int from session_roll_calls rc join class_sessions cs on cs.id = rc.session_id
                  where rc.student_id = s.id and cs.kind = 'tutoring' and cs.class_id = m.class_id and rc.status in ('present', 'late')) as attended
           from tutoring_class_students m join students s on s.id = m.student_id
          where m.class_id = $1 order by s.name, s.id limit $2 offset $3) p on true`,
      [q.class_id, q.limit, offsetOf(q)],
    );
    return paged(rows, q);
  }

  /** The school's active students not in the class, by name, with their care class and tutoring type. */
  async selectable(user: SessionUser, q: SelectTutorialStudentQuery): Promise<Page<SelectableTutoringStudent>> {
    const school = schoolOf(user);
    await tutoringClassOf(this.db, school, q.class_id);
    const where = `s.school_id = $1 and s.status = 1 and ($3::text is null or s.name ilike $3)
      and not exists (select 1 from tutoring_class_students m where m.class_id = $2 and m.student_id = s.id)`;
    const rows: Array<SelectableTutoringStudent & { total: number }> = await this.db.query(
      `select n.total, p.* from (select count(*)::int as total from students s where ${where}) n
       left join lateral (
         select s.id, s.name, s.grade, s.class_name, s.tutoring_type,
                (select cc.name from care_class_students ccs join care_classes cc on cc.id = ccs.class_id and cc.deleted_at is null
                  where ccs.student_id = s.id order by cc.id limit 1) as care_class_name
           from students s where ${where} order by s.name, s.id limit $4 offset $5) p on true`,
      [school, q.class_id, containsPattern(q.name), q.limit, offsetOf(q)],
    );
    return paged(rows, q);
  }

  /**
   * Adds students with one plan, all or none: refused with the numbers past the capacity, the names already in the
   * class, and the clash list when a student is busy at a planned session of the class from today on (a teaching or
   * another tutoring session, their care time).
   */
  async add(user: SessionUser, input: AddTutorialStudentInput): Promise<TutoringClass> {
    const school = schoolOf(user);
    await this.db.transaction(async (em) => {
      await lockSchedule(em, school);
      const c = await tutoringClassOf(em, school, input.class_id, true);
      if (c.status !== 1) throw new AppError('tutoring.class_stopped');
      const found: Array<{ id: number; name: string; member: boolean }> = await em.query(
        `select s.id, s.name, exists (select 1 from tutoring_class_students m where m.class_id = $3 and m.student_id = s.id) as member
           from students s where s.id = any($1::int[]) and s.school_id = $2 and s.status = 1 order by s.id for share of s`,
        [input.student_ids, school, c.id],
      );
      if (found.length !== input.student_ids.length) throw new AppError('tutoring.student_not_found');
      const already = found.filter((s) => s.member);
      if (already.length) throw new AppError('tutoring.already_in_class', { names: already.map((s) => s.name).join('、') });
      const [{ n }]: Array<{ n: number }> = await em.query(`select count(*)::int as n from tutoring_class_students where class_id = $1`, [c.id]);
      if (n + found.length > c.capacity) throw new AppError('tutoring.capacity_exceeded', { capacity: c.capacity, current: n, adding: found.length });
      const upcoming: Array<{
        id: number;
        day: string;
        weekday: number;
        start_min: number;
        end_min: number;
        teacher_id: number;
        room_id: number | null;
      }> = await em.query(
        `select s.id, to_char(s.day, 'YYYY-MM-DD') as day, coalesce(cd.works_as, extract(isodow from s.day))::int as weekday, s.start_min, s.end_min, s.teacher_id, s.room_id
           from class_sessions s cross join ${SCHOOL_TODAY} d
           left join school_calendar_days cd on cd.school_id = s.school_id and cd.day = s.day and cd.kind = 'makeup'
          where s.kind = 'tutoring' and s.class_id = $2 and s.state = 'planned' and s.day >= d.today order by s.day, s.start_min`,
        [school, c.id],
      );
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
      await em.query(
        `insert into tutoring_class_students (school_id, class_id, student_id, plan, added_by) select $1, $2, unnest($3::int[]), $4, $5`,
        [school, c.id, ids, input.plan || null, user.id],
      );
      await em.query(`update tutoring_classes set version = version + 1, updated_at = now() where id = $1`, [c.id]);
    });
    return this.classes.info(user, input.class_id);
  }

  /** Removes a student from the class (their roll calls stay). */
  async del(user: SessionUser, input: DelTutorialStudentInput): Promise<TutoringClass> {
    const school = schoolOf(user);
    await this.db.transaction(async (em) => {
      const c = await tutoringClassOf(em, school, input.class_id, true);
      const rows: unknown[] = await em.query(
        `with d as (delete from tutoring_class_students where class_id = $1 and student_id = $2 returning student_id) select student_id from d`,
        [c.id, input.student_id],
      );
      if (!rows.length) throw new AppError('tutoring.not_in_class');
      await em.query(`update tutoring_classes set version = version + 1, updated_at = now() where id = $1`, [c.id]);
    });
    return this.classes.info(user, input.class_id);
  }

  /**
   * One student's tutoring in a class: the plan, the counts (sessions, held, planned, roll calls by status), the next
   * five planned sessions and the records (the class's sessions up to today with the student's roll call), paged.
   */
  async info(user: SessionUser, q: TutorialStudentInfoQuery): Promise<TutorialStudentInfo> {
    const school = schoolOf(user);
    const [head]: Array<Omit<TutorialStudentInfo, 'next_sessions' | 'records'>> = await this.db.query(
      `select json_build_object('id', s.id, 'name', s.name, 'grade', s.grade, 'class_name', s.class_name, 'tutoring_type', s.tutoring_type) as student,
              json_build_object('id', c.id, 'name', c.name, 'type_name', ty.name, 'teacher_name', u.name, 'duration_min', c.duration_min, 'price_fen', c.price_fen::float8) as class,
              m.plan, m.joined_at,
              (select json_build_object('sessions', count(*) filter (where cs.state <> 'cancelled'), 'held', count(*) filter (where cs.state = 'held'),
                      'planned', count(*) filter (where cs.state = 'planned'), 'present', count(rc.status) filter (where rc.status = 'present'),
                      'late', count(rc.status) filter (where rc.status = 'late'), 'absent', count(rc.status) filter (where rc.status = 'absent'),
                      'leave', count(rc.status) filter (where rc.status = 'leave'))
                 from class_sessions cs left join session_roll_calls rc on rc.session_id = cs.id and rc.student_id = s.id
                where cs.kind = 'tutoring' and cs.class_id = c.id) as counts
         from tutoring_class_students m
         join tutoring_classes c on c.id = m.class_id and c.deleted_at is null and c.school_id = $1
         join tutoring_types ty on ty.id = c.type_id join users u on u.id = c.teacher_id
         join students s on s.id = m.student_id
        where m.class_id = $2 and m.student_id = $3`,
      [school, q.class_id, q.student_id],
    );
    if (!head) throw new AppError('tutoring.not_in_class');
    const next_sessions: TutorialStudentInfo['next_sessions'] = await this.db.query(
      `select s.id, to_char(s.day, 'YYYY-MM-DD') as day, ${HHMM('s.start_min')} as start_time, ${HHMM('s.end_min')} as end_time, r.name as room_name
         from class_sessions s cross join ${SCHOOL_TODAY} d left join rooms r on r.id = s.room_id
        where s.kind = 'tutoring' and s.class_id = $2 and s.state = 'planned' and s.day >= d.today order by s.day, s.start_min limit 5`,
      [school, q.class_id],
    );
    const rows: Array<TutorialStudentInfo['records']['list'][number] & { total: number }> = await this.db.query(
      `with w as (select s.* from class_sessions s cross join ${SCHOOL_TODAY} d where s.kind = 'tutoring' and s.class_id = $2 and s.day <= d.today)
       select n.total, p.* from (select count(*)::int as total from w) n
       left join lateral (
         select w.id as session_id, to_char(w.day, 'YYYY-MM-DD') as day, ${HHMM('w.start_min')} as start_time, ${HHMM('w.end_min')} as end_time, w.state, rc.status, rc.at
           from w left join session_roll_calls rc on rc.session_id = w.id and rc.student_id = $3
          order by w.day desc, w.start_min desc, w.id desc limit $4 offset $5) p on true`,
      [school, q.class_id, q.student_id, q.limit, offsetOf(q)],
    );
    return { ...head, next_sessions, records: paged(rows, q) };
  }
}
