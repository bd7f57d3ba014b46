import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  findOverlap,
  slotsOverlap,
  type AddClassTimeInput,
  type AddStudentClassTimeInput,
  type ClassTime,
  type ClassTimeListQuery,
  type ClassTimeOption,
  type DelClassTimeInput,
  type EditClassTimeInput,
  type Page,
  type SelectClassTimeQuery,
  type StudentClassTimes,
} from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { containsPattern, offsetOf, pageOf, totalOf } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';

/** The columns of a slot (`t` class_times) with HH:mm times. */
export const SLOT_COLUMNS = `t.id, t.name, to_char(t.start_time, 'HH24:MI') as start_time, to_char(t.end_time, 'HH24:MI') as end_time,
  t.weekdays::int[] as weekdays`;

/** The caller's school (the role guard only lets school staff reach these actions). */
export const schoolOf = (user: SessionUser): number => user.schoolId ?? -1;

/**
 * Time slots: name, start and end (local times of the school), weekdays. A class has one slot; a student may have
 * individual slots that must not overlap each other (the rule is slotsOverlap of packages/shared).
 */
@Injectable()
export class TimetableService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Slots by start time, with how many classes and students use each; rows and total in one query. */
  async list(user: SessionUser, q: ClassTimeListQuery): Promise<Page<ClassTime>> {
    const rows: Array<Partial<ClassTime> & { total: number }> = await this.db.query(
      `select c.total, p.*
         from (select count(*)::int as total from class_times t
                where t.school_id = $1 and t.deleted_at is null and ($2::text is null or t.name ilike $2)) c
         left join lateral (
           select ${SLOT_COLUMNS}, t.version,
                  (select count(*)::int from care_classes cc where cc.class_time_id = t.id and cc.deleted_at is null) as class_count,
                  (select count(*)::int from student_class_times st where st.class_time_id = t.id) as student_count
             from class_times t
            where t.school_id = $1 and t.deleted_at is null and ($2::text is null or t.name ilike $2)
            order by t.start_time, t.end_time, t.id
            limit $3 offset $4
         ) p on true`,
      [schoolOf(user), containsPattern(q.name), q.limit, offsetOf(q)],
    );
    const list = rows.filter((r) => r.id !== null).map(({ total: _, ...r }) => r as ClassTime);
    return pageOf(list, totalOf(rows), q);
  }

  /** For pickers: at most 200 slots by start time. */
  async select(user: SessionUser, q: SelectClassTimeQuery): Promise<{ list: ClassTimeOption[] }> {
    const list: ClassTimeOption[] = await this.db.query(
      `select ${SLOT_COLUMNS} from class_times t
        where t.school_id = $1 and t.deleted_at is null and ($2::text is null or t.name ilike $2)
        order by t.start_time, t.end_time, t.id limit 200`,
      [schoolOf(user), containsPattern(q.name)],
    );
    return { list };
  }

  async add(user: SessionUser, input: AddClassTimeInput): Promise<ClassTime> {
    const [row]: ClassTime[] = await this.db.query(
      `insert into class_times as t (school_id, name, start_time, end_time, weekdays) values ($1, $2, $3, $4, $5)
       returning ${SLOT_COLUMNS}, t.version`,
      [schoolOf(user), input.name, input.start_time, input.end_time, input.weekdays],
    );
    return row;
  }

  /**
   * Edits a slot on the version the caller read. Refused when a student who has this slot and another one would
   * then have two overlapping slots.
   */
  async edit(user: SessionUser, input: EditClassTimeInput): Promise<ClassTime> {
    const school = schoolOf(user);
    return this.db.transaction(async (em) => {
      const [current]: Array<{ version: number }> = await em.query(
        `select version from class_times where id = $1 and school_id = $2 and deleted_at is null for update`,
        [input.id, school],
      );
      if (!current) throw new AppError('timetable.slot_not_found');
      if (current.version !== input.version) throw new AppError('error.conflict');
      const others: Array<ClassTimeOption & { student: string }> = await em.query(
        `select s.name as student, ${SLOT_COLUMNS}
           from student_class_times mine
           join student_class_times sc on sc.student_id = mine.student_id and sc.class_time_id <> mine.class_time_id
           join class_times t on t.id = sc.class_time_id and t.deleted_at is null
           join students s on s.id = mine.student_id
          where mine.class_time_id = $1 and mine.school_id = $2
          order by s.id, t.id`,
        [input.id, school],
      );
      const clash = others.find((o) => slotsOverlap(o, input));
      if (clash) throw new AppError('timetable.edit_overlap', { student: clash.student, other: clash.name });
      const [[row]]: [ClassTime[], number] = await em.query(
        `update class_times t set name = $3, start_time = $4, end_time = $5, weekdays = $6, version = version + 1, updated_at = now()
          where id = $1 and school_id = $2 returning ${SLOT_COLUMNS}, t.version`,
        [input.id, school, input.name, input.start_time, input.end_time, input.weekdays],
      );
      return row;
    });
  }

  /** Soft-deletes a slot no class and no student uses; else says by whom it is used. */
  async del(user: SessionUser, input: DelClassTimeInput): Promise<{ id: number }> {
    const school = schoolOf(user);
    return this.db.transaction(async (em) => {
      const [use]: Array<{ classes: number; names: string | null; students: number }> = await em.query(
        `select (select count(*)::int from care_classes c where c.class_time_id = t.id and c.deleted_at is null) as classes,
                (select string_agg(x.name, '、') from (select c.name from care_classes c where c.class_time_id = t.id and c.deleted_at is null order by c.id limit 5) x) as names,
                (select count(*)::int from student_class_times st where st.class_time_id = t.id) as students
           from class_times t where t.id = $1 and t.school_id = $2 and t.deleted_at is null for update of t`,
        [input.id, school],
      );
      if (!use) throw new AppError('timetable.slot_not_found');
      if (use.classes > 0 || use.students > 0) {
        throw new AppError('timetable.slot_in_use', { classes: use.classes, names: use.names ?? '-', students: use.students });
      }
      await em.query(`update class_times set deleted_at = now(), version = version + 1, updated_at = now() where id = $1`, [input.id]);
      return { id: input.id };
    });
  }

  /** Replaces a student's individual slots; refuses a set of slots that overlap each other. */
  async setStudentSlots(user: SessionUser, input: AddStudentClassTimeInput): Promise<StudentClassTimes> {
    const school = schoolOf(user);
    return this.db.transaction(async (em) => {
      const [student]: Array<{ id: number }> = await em.query(`select id from students where id = $1 and school_id = $2 for update`, [
        input.student_id,
        school,
      ]);
      if (!student) throw new AppError('timetable.student_not_found');
      // for share: a slot being set here cannot be deleted or edited meanwhile
      const slots: ClassTimeOption[] = await em.query(
        `select ${SLOT_COLUMNS} from class_times t
          where t.id = any($1::int[]) and t.school_id = $2 and t.deleted_at is null
          order by t.start_time, t.id for share`,
        [input.class_time_ids, school],
      );
      if (slots.length !== input.class_time_ids.length) throw new AppError('timetable.slot_not_found');
      const pair = findOverlap(slots);
      if (pair) throw new AppError('timetable.slots_overlap', { a: pair[0].name, b: pair[1].name });
      await em.query(`delete from student_class_times where student_id = $1`, [input.student_id]);
      if (slots.length) {
        await em.query(`insert into student_class_times (school_id, student_id, class_time_id) select $1, $2, unnest($3::int[])`, [
          school,
          input.student_id,
          input.class_time_ids,
        ]);
      }
      return { student_id: input.student_id, class_times: slots };
    });
  }
}
