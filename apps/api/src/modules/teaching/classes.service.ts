import { Injectable } from '@nestjs/common';
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
import { containsPattern, isUniqueViolation, offsetOf, pageOf, type PageQuery, SCHOOL_TODAY, totalOf } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import {
  CLASS_COLUMNS,
  CLASS_JOINS,
  classOf,
  clashError,
  clashesOf,
  isOverlapViolation,
  lockSchedule,
  overlapError,
  schoolOf,
  teachesOnly,
} from './teaching-sql';

/** Rows and total of a paged statement whose rows carry `total` (a left join lateral on the count). */
function paged<T extends { id: number | null }>(rows: Array<T & { total: number }>, q: PageQuery): Page<T> {
  const list = rows.filter((r) => r.id !== null).map(({ total: _, ...r }) => r as unknown as T);
  return pageOf(list, totalOf(rows), q);
}

/** Teaching (extension) classes and their students. */
@Injectable()
export class TeachingClassesService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async add(user: SessionUser, input: AddTeachingClassInput): Promise<TeachingClass> {
    const school = schoolOf(user);
    const id = await this.db.transaction(async (em) => {
      const [t]: unknown[] = await em.query(
        `select 1 from users where id = $1 and school_id = $2 and role in (2, 5) and job_status = 1 and deleted_at is null for share`,
        [input.teacher_id, school],
      );
      if (!t) throw new AppError('teaching.teacher_invalid');
      if (input.room_id) {
        const [r]: unknown[] = await em.query(`select 1 from rooms where id = $1 and school_id = $2`, [input.room_id, school]);
        if (!r) throw new AppError('teaching.room_not_found');
      }
      try {
        const [row]: Array<{ id: number }> = await em.query(
          `insert into teaching_classes (school_id, name, subject, teacher_id, room_id, capacity, sessions_count, fee_fen, created_by)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning id`,
          [school, input.name, input.subject, input.teacher_id, input.room_id ?? null, input.capacity, input.sessions_count, input.fee_fen, user.id],
        );
        return row.id;
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError('teaching.class_name_taken');
        throw err;
      }
    });
    return this.info(user, id);
  }

  /** One class (a teacher: an own class). */
  async info(user: SessionUser, id: number): Promise<TeachingClass> {
    const [row]: TeachingClass[] = await this.db.query(
      `select ${CLASS_COLUMNS} from teaching_classes c ${CLASS_JOINS}
        where c.school_id = $1 and c.id = $2 and c.deleted_at is null and ($3::int is null or c.teacher_id = $3)`,
      [schoolOf(user), id, teachesOnly(user) ? user.id : null],
    );
    if (!row) throw new AppError('teaching.class_not_found');
    return row;
  }

  /** Classes newest first (a teacher: own classes); rows and total in one statement. */
  async list(user: SessionUser, q: TeachingClassListQuery): Promise<Page<TeachingClass>> {
    const where = `c.school_id = $1 and c.deleted_at is null and ($2::text is null or c.name ilike $2) and ($3::smallint is null or c.status = $3)
      and ($4::int is null or c.teacher_id = $4)`;
    const rows: Array<TeachingClass & { total: number }> = await this.db.query(
      `select n.total, p.* from (select count(*)::int as total from teaching_classes c where ${where}) n
       left join lateral (select ${CLASS_COLUMNS} from teaching_classes c ${CLASS_JOINS} where ${where} order by c.id desc limit $5 offset $6) p on true`,
      [schoolOf(user), containsPattern(q.name), q.status ?? null, teachesOnly(user) ? user.id : null, q.limit, offsetOf(q)],
    );
    return paged(rows, q);
  }

  /**
   * Edits a class's details on the version read, under the school's scheduling lock. The planned sessions from today
   * follow a new teacher, and those in the class's room follow a new room: checked first with the shared clash rules
   * (the teacher's and the room's other sessions), refused with the list. The capacity stays at or above the students,
   * the sessions count at or above the sessions scheduled. room_id omitted keeps the room, null clears it.
   */
  async edit(user: SessionUser, input: EditTeachingClassInput): Promise<TeachingClass> {
    const school = schoolOf(user);
    await this.db.transaction(async (em) => {
      await lockSchedule(em, school);
      const c = await classOf(em, user, input.id, true);
      if (c.version !== input.version) throw new AppError('teaching.class_stale');
      const roomId = input.room_id === undefined ? c.room_id : input.room_id;
      const [t]: unknown[] = await em.query(
        `select 1 from users where id = $1 and school_id = $2 and role in (2, 5) and job_status = 1 and deleted_at is null for share`,
        [input.teacher_id, school],
      );
      if (!t) throw new AppError('teaching.teacher_invalid');
      if (roomId !== null) {
        const [r]: unknown[] = await em.query(`select 1 from rooms where id = $1 and school_id = $2`, [roomId, school]);
        if (!r) throw new AppError('teaching.room_not_found');
      }
      const [n]: Array<{ students: number; scheduled: number }> = await em.query(
        `select (select count(*)::int from teaching_class_students where class_id = $1) as students,
                (select count(*)::int from class_sessions where kind = 'teaching' and class_id = $1 and state <> 'cancelled') as scheduled`,
        [c.id],
      );
      if (input.capacity < n.students) throw new AppError('teaching.capacity_below_students', { students: n.students });
      if (input.sessions_count < n.scheduled) throw new AppError('teaching.sessions_count_below_scheduled', { scheduled: n.scheduled });
      const teacherChanged = input.teacher_id !== c.teacher_id;
      const roomChanged = roomId !== c.room_id;
      if (teacherChanged || roomChanged) {
        // the planned sessions from today with the teacher and room they would have
        const upcoming: Array<{ id: number; day: string; weekday: number; start_min: number; end_min: number; room_id: number | null }> =
          await em.query(
            `select s.id, to_char(s.day, 'YYYY-MM-DD') as day, coalesce(cd.works_as, extract(isodow from s.day))::int as weekday, s.start_min, s.end_min,
                  case when s.room_id is not distinct from $3::int then $4::int else s.room_id end as room_id
             from class_sessions s cross join ${SCHOOL_TODAY} d
             left join school_calendar_days cd on cd.school_id = s.school_id and cd.day = s.day and cd.kind = 'makeup'
            where s.kind = 'teaching' and s.class_id = $2 and s.state = 'planned' and s.day >= d.today order by s.day, s.start_min`,
            [school, c.id, c.room_id, roomId],
          );
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
          await em
            .query(
              `with u as (update class_sessions s set teacher_id = $2, room_id = v.room_id, version = s.version + 1, updated_at = now()
                 from unnest($1::int[], $3::int[]) as v(id, room_id) where s.id = v.id returning s.id) select count(*)::int as n from u`,
              [upcoming.map((s) => s.id), input.teacher_id, upcoming.map((s) => s.room_id)],
            )
            .catch((err: unknown) => {
              throw isOverlapViolation(err) ? overlapError() : err;
            });
        }
      }
      try {
        await em.query(
          `update teaching_classes set name = $2, subject = $3, teacher_id = $4, room_id = $5, capacity = $6, sessions_count = $7, fee_fen = $8,
                  version = version + 1, updated_at = now() where id = $1`,
          [c.id, input.name, input.subject, input.teacher_id, roomId, input.capacity, input.sessions_count, input.fee_fen],
        );
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError('teaching.class_name_taken');
        throw err;
      }
    });
    return this.info(user, input.id);
  }

  /** Starts or stops a class on the version read. */
  async setStatus(user: SessionUser, input: TeachingClassStatusInput): Promise<TeachingClass> {
    await this.db.transaction(async (em) => {
      const c = await classOf(em, user, input.id, true);
      if (c.version !== input.version) throw new AppError('teaching.class_stale');
      if (c.status === input.status) throw new AppError('teaching.class_status_unchanged');
      await em.query(`update teaching_classes set status = $2, version = version + 1, updated_at = now() where id = $1`, [c.id, input.status]);
    });
    return this.info(user, input.id);
  }

  /** The class's students by name. */
  async students(user: SessionUser, q: TeachingClassStudentQuery): Promise<Page<TeachingClassMember>> {
    await classOf(this.db, user, q.class_id);
    const rows: Array<TeachingClassMember & { total: number }> = await this.db.query(
      `select n.total, p.* from (select count(*)::int as total from teaching_class_students where class_id = $1) n
       left join lateral (
         select s.id, s.name, s.grade, s.class_name, m.joined_at from teaching_class_students m join students s on s.id = m.student_id
          where m.class_id = $1 order by s.name, s.id limit $2 offset $3) p on true`,
      [q.class_id, q.limit, offsetOf(q)],
    );
    return paged(rows, q);
  }

  /** The school's active students not in the class, by name. */
  async selectable(user: SessionUser, q: SelectTeachingClassStudentQuery): Promise<Page<SelectableStudent>> {
    await classOf(this.db, user, q.class_id);
    const where = `s.school_id = $1 and s.status = 1 and ($3::text is null or s.name ilike $3)
      and not exists (select 1 from teaching_class_students m where m.class_id = $2 and m.student_id = s.id)`;
    const rows: Array<SelectableStudent & { total: number }> = await this.db.query(
      `select n.total, p.* from (select count(*)::int as total from students s where ${where}) n
       left join lateral (
         select s.id, s.name, s.grade, s.class_name, cc.name as care_class_name from students s
           left join care_class_students ccs on ccs.student_id = s.id left join care_classes cc on cc.id = ccs.class_id and cc.deleted_at is null
          where ${where} order by s.name, s.id limit $4 offset $5) p on true`,
      [schoolOf(user), q.class_id, containsPattern(q.name), q.limit, offsetOf(q)],
    );
    return paged(rows, q);
  }

  /**
   * Adds students, all or none: refused with the numbers past the capacity, with the names of those already in the
   * class, and with the clash list when a student is busy at a planned session of the class (another class's session
   * or the student's care time).
   */
  async addStudents(user: SessionUser, input: AddTeachingClassStudentInput): Promise<TeachingClass> {
    const school = schoolOf(user);
    await this.db.transaction(async (em) => {
      await lockSchedule(em, school);
      const c = await classOf(em, user, input.class_id, true);
      if (c.status !== 1) throw new AppError('teaching.class_stopped');
      const found: Array<{ id: number; name: string; member: boolean }> = await em.query(
        `select s.id, s.name, exists (select 1 from teaching_class_students m where m.class_id = $3 and m.student_id = s.id) as member
           from students s where s.id = any($1::int[]) and s.school_id = $2 and s.status = 1 order by s.id for share of s`,
        [input.student_ids, school, c.id],
      );
      if (found.length !== input.student_ids.length) throw new AppError('teaching.student_not_found');
      const already = found.filter((s) => s.member);
      if (already.length) throw new AppError('teaching.already_in_class', { names: already.map((s) => s.name).join('、') });
      const [{ n }]: Array<{ n: number }> = await em.query(`select count(*)::int as n from teaching_class_students where class_id = $1`, [c.id]);
      if (n + found.length > c.capacity) throw new AppError('teaching.capacity_exceeded', { capacity: c.capacity, current: n, adding: found.length });
      // the class's planned sessions from today, with the new students only
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
          where s.kind = 'teaching' and s.class_id = $2 and s.state = 'planned' and s.day >= d.today order by s.day, s.start_min`,
        [school, c.id],
      );
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
      await em.query(`insert into teaching_class_students (school_id, class_id, student_id) select $1, $2, unnest($3::int[])`, [school, c.id, ids]);
      await em.query(`update teaching_classes set version = version + 1, updated_at = now() where id = $1`, [c.id]);
    });
    return this.info(user, input.class_id);
  }

  /** Removes a student from the class (their roll calls stay). */
  async delStudent(user: SessionUser, input: DelTeachingClassStudentInput): Promise<TeachingClass> {
    await this.db.transaction(async (em) => {
      const c = await classOf(em, user, input.class_id, true);
      const rows: unknown[] = await em.query(
        `with d as (delete from teaching_class_students where class_id = $1 and student_id = $2 returning student_id) select student_id from d`,
        [c.id, input.student_id],
      );
      if (!rows.length) throw new AppError('teaching.not_in_class');
      await em.query(`update teaching_classes set version = version + 1, updated_at = now() where id = $1`, [c.id]);
    });
    return this.info(user, input.class_id);
  }

  /**
   * A student's teaching classes: the admin any student of the school, a teacher the student's classes they teach,
   * a guardian an own child's.
   */
  async studentClasses(user: SessionUser, q: StudentTeachingClassListQuery): Promise<Page<TeachingClass>> {
    const school = schoolOf(user);
    const parent = user.role === Role.Parent;
    const [st]: unknown[] = await this.db.query(
      `select 1 from students s where s.school_id = $1 and s.id = $2
          and ($3::int is null or exists (select 1 from student_guardians g where g.student_id = s.id and g.user_id = $3))`,
      [school, q.student_id, parent ? user.id : null],
    );
    if (!st) throw new AppError('teaching.student_not_found');
    const where = `m.student_id = $2 and c.school_id = $1 and c.deleted_at is null and ($3::int is null or c.teacher_id = $3)`;
    const rows: Array<TeachingClass & { total: number }> = await this.db.query(
      `select n.total, p.* from (select count(*)::int as total from teaching_class_students m join teaching_classes c on c.id = m.class_id where ${where}) n
       left join lateral (
         select ${CLASS_COLUMNS} from teaching_class_students m join teaching_classes c on c.id = m.class_id ${CLASS_JOINS}
          where ${where} order by c.status desc, c.id desc limit $4 offset $5) p on true`,
      [school, q.student_id, user.role === Role.Teacher ? user.id : null, q.limit, offsetOf(q)],
    );
    return paged(rows, q);
  }

  /** The teacher's overview: own classes (at most 100, running first) and the next 10 planned sessions from today. */
  async teachManage(user: SessionUser): Promise<TeachManageAnswer> {
    const school = schoolOf(user);
    const classes: TeachManageAnswer['classes'] = await this.db.query(
      `select c.id, c.name, c.subject, r.name as room_name, (select count(*)::int from teaching_class_students m where m.class_id = c.id) as students,
              c.sessions_count, (select count(*)::int from class_sessions s where s.kind = 'teaching' and s.class_id = c.id and s.state = 'held') as sessions_held,
              c.status::int as status
         from teaching_classes c left join rooms r on r.id = c.room_id
        where c.school_id = $1 and c.teacher_id = $2 and c.deleted_at is null order by c.status desc, c.id desc limit 100`,
      [school, user.id],
    );
    const next_sessions: TeachManageAnswer['next_sessions'] = await this.db.query(
      `select s.id, s.class_id, c.name as class_name, to_char(s.day, 'YYYY-MM-DD') as day,
              to_char(make_time(s.start_min / 60, s.start_min % 60, 0), 'HH24:MI') as start_time,
              case when s.end_min = 1440 then '24:00' else to_char(make_time(s.end_min / 60, s.end_min % 60, 0), 'HH24:MI') end as end_time,
              r.name as room_name, s.state
         from class_sessions s cross join ${SCHOOL_TODAY} d
         join teaching_classes c on c.id = s.class_id and s.kind = 'teaching' left join rooms r on r.id = s.room_id
        where s.teacher_id = $2 and s.day >= d.today and s.state = 'planned' and s.school_id = $1
        order by s.day, s.start_min limit 10`,
      [school, user.id],
    );
    // the homework module's table, read here (no service call): submissions done and not checked of the teacher's classes
    const [marks]: Array<{ n: number }> = await this.db.query(
      `select count(*)::int as n from homework_submissions hs join homeworks h on h.id = hs.homework_id
        where hs.state = 'done' and h.school_id = $1
          and ((h.kind = 'teaching' and exists (select 1 from teaching_classes c where c.id = h.class_id and c.teacher_id = $2 and c.deleted_at is null))
            or (h.kind = 'care' and exists (select 1 from care_classes c where c.id = h.class_id and c.deleted_at is null
                  and (c.head_teacher_id = $2 or exists (select 1 from duty_assignments a where a.class_id = c.id and a.teacher_id = $2)))))`,
      [school, user.id],
    );
    return { classes, next_sessions, homework_to_mark: marks.n };
  }
}
