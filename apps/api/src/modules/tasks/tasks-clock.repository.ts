import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { JobStatus, Role } from '@wantuo/shared';
import { sql, type Expression, type ExpressionBuilder } from 'kysely';
import { DataSource } from 'typeorm';
import { kdb, type DB } from '../../core/database/kysely';
import { schoolTodayOf } from '../../core/database/school-day';

/** A staff_attendance row `a` as the answer StaffClockRecord. */
const record = (eb: ExpressionBuilder<DB, 'staff_attendance'>) =>
  ['id', sql<string>`to_char(${eb.ref('day')}, 'YYYY-MM-DD')`.as('day'), 'clock_in_at', 'clock_out_at'] as const;

/** A day as text (YYYY-MM-DD). */
const ymd = (e: Expression<unknown>) => sql<string>`to_char(${e}, 'YYYY-MM-DD')`;

/** The SQL of staff clock-in (issue 38), typed by the schema: a day is the school's local one. */
@Injectable()
export class TasksClockRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The user's record of the school's today, if any. */
  today(schoolId: number, userId: number) {
    return kdb(this.db)
      .selectFrom('staff_attendance')
      .select(record)
      .where('user_id', '=', userId)
      .where('school_id', '=', schoolId)
      .where('day', '=', schoolTodayOf(schoolId))
      .executeTakeFirst();
  }

  /** Clocks the user in today; nothing (undefined) when already clocked in today. */
  clockIn(schoolId: number, userId: number) {
    return kdb(this.db)
      .insertInto('staff_attendance')
      .values({ school_id: schoolId, user_id: userId, day: schoolTodayOf(schoolId), clock_in_at: sql`now()` })
      .onConflict((oc) => oc.columns(['user_id', 'day']).doNothing())
      .returning(record)
      .executeTakeFirst();
  }

  /** Clocks the user out today when clocked in and not out yet; undefined otherwise. */
  clockOut(schoolId: number, userId: number) {
    return kdb(this.db)
      .updateTable('staff_attendance')
      .set({ clock_out_at: sql`now()` })
      .where('user_id', '=', userId)
      .where('school_id', '=', schoolId)
      .where('day', '=', schoolTodayOf(schoolId))
      .where('clock_in_at', 'is not', null)
      .where('clock_out_at', 'is', null)
      .returning(record)
      .executeTakeFirst();
  }

  /** The user's clock-in time today, if there is a record. */
  clockedIn(schoolId: number, userId: number) {
    return kdb(this.db)
      .selectFrom('staff_attendance')
      .select('clock_in_at')
      .where('user_id', '=', userId)
      .where('school_id', '=', schoolId)
      .where('day', '=', schoolTodayOf(schoolId))
      .executeTakeFirst();
  }

  /**
   * Per day of the range, in order: the teachers on the job that day (created by then, not left before it, by the
   * school's local dates), how many clocked in and how many out.
   */
  days(schoolId: number, from: string, to: string) {
    return kdb(this.db)
      .selectFrom('schools as sc')
      .crossJoin(sql<{ day: Date }>`generate_series(${from}::date, ${to}::date, interval '1 day')`.as<'g'>(sql`g(day)`))
      .select((eb) => [
        ymd(eb.ref('g.day')).as('day'),
        sql<number>`(${eb
          .selectFrom('users as u')
          .select((x) => x.fn.countAll().as('n'))
          .where('u.school_id', '=', schoolId)
          .where('u.role', 'in', [Role.Teacher, Role.HeadTeacher])
          .where('u.deleted_at', 'is', null)
          .where((x) => sql<boolean>`(${x.ref('u.created_at')} at time zone ${x.ref('sc.timezone')})::date <= ${x.ref('g.day')}`)
          .where((x) =>
            x.or([
              x('u.job_status', '=', JobStatus.OnJob),
              x.and([
                x('u.left_at', 'is not', null),
                sql<boolean>`(${x.ref('u.left_at')} at time zone ${x.ref('sc.timezone')})::date > ${x.ref('g.day')}`,
              ]),
            ]),
          )})::int`.as('on_job'),
        sql<number>`(${eb
          .selectFrom('staff_attendance as a')
          .select((x) => x.fn.countAll().as('n'))
          .where('a.school_id', '=', schoolId)
          .whereRef('a.day', '=', 'g.day')
          .where('a.clock_in_at', 'is not', null)})::int`.as('clocked_in'),
        sql<number>`(${eb
          .selectFrom('staff_attendance as a')
          .select((x) => x.fn.countAll().as('n'))
          .where('a.school_id', '=', schoolId)
          .whereRef('a.day', '=', 'g.day')
          .where('a.clock_out_at', 'is not', null)})::int`.as('clocked_out'),
      ])
      .where('sc.id', '=', schoolId)
      .orderBy('g.day')
      .execute();
  }

  /** Who clocked in on each day of the range, by clock-in time: the `offset`+1 .. `offset`+`limit` th of each day. */
  people(schoolId: number, from: string, to: string, offset: number, limit: number) {
    return kdb(this.db)
      .selectFrom((db) =>
        db
          .selectFrom('staff_attendance as a')
          .innerJoin('users as u', 'u.id', 'a.user_id')
          .select((eb) => [
            ymd(eb.ref('a.day')).as('day'),
            'a.user_id',
            'u.name',
            sql<number>`${eb.ref('u.role')}::int`.as('role'),
            'a.clock_in_at',
            'a.clock_out_at',
            eb.fn
              .agg<number>('row_number')
              .over((o) => o.partitionBy('a.day').orderBy('a.clock_in_at').orderBy('a.user_id'))
              .as('n'),
          ])
          .where('a.school_id', '=', schoolId)
          .where((eb) => eb.between('a.day', from, to))
          .where('a.clock_in_at', 'is not', null)
          .as('x'),
      )
      .select(['x.day', 'x.user_id', 'x.name', 'x.role', 'x.clock_in_at', 'x.clock_out_at'])
      .where('x.n', '>', offset)
      .where('x.n', '<=', offset + limit)
      .orderBy('x.day')
      .orderBy('x.n')
      .execute();
  }
}
