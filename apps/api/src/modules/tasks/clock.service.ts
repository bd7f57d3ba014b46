import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { StaffClockRecord, TeacherClockingInCount, TeacherClockingInCountInput, TeacherClockingInDay } from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { offsetOf, SCHOOL_TODAY } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';

/** The school's local date of now. */
const TODAY = `(select d.today from ${SCHOOL_TODAY} d)`;
const RECORD = `id, to_char(day, 'YYYY-MM-DD') as day, clock_in_at, clock_out_at`;

/** Staff clock-in: teachers clock in and out once a day; the admin reads the counts per day. */
@Injectable()
export class ClockService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The caller's record of today (the school's day), or null before clocking in. */
  async today(user: SessionUser): Promise<StaffClockRecord | null> {
    const [row]: StaffClockRecord[] = await this.db.query(
      `select ${RECORD} from staff_attendance where user_id = $2 and school_id = $1 and day = ${TODAY}`,
      [user.schoolId, user.id],
    );
    return row ?? null;
  }

  async clockIn(user: SessionUser): Promise<StaffClockRecord> {
    const [row]: StaffClockRecord[] = await this.db.query(
      `insert into staff_attendance (school_id, user_id, day, clock_in_at) values ($1, $2, ${TODAY}, now())
       on conflict (user_id, day) do nothing returning ${RECORD}`,
      [user.schoolId, user.id],
    );
    if (!row) throw new AppError('clock.already_in');
    return row;
  }

  async clockOut(user: SessionUser): Promise<StaffClockRecord> {
    const [rows]: [StaffClockRecord[], number] = await this.db.query(
      `update staff_attendance set clock_out_at = now()
        where user_id = $2 and school_id = $1 and day = ${TODAY} and clock_in_at is not null and clock_out_at is null
        returning ${RECORD}`,
      [user.schoolId, user.id],
    );
    if (rows[0]) return rows[0];
    const [current]: Array<{ clock_in_at: Date | null }> = await this.db.query(
      `select clock_in_at from staff_attendance where user_id = $2 and school_id = $1 and day = ${TODAY}`,
      [user.schoolId, user.id],
    );
    throw new AppError(current?.clock_in_at ? 'clock.already_out' : 'clock.not_in');
  }

  /**
   * Per day of the range: teachers on the job that day (created by then, not left before it), how many clocked in
   * and out, and who clocked in when (by clock-in time, `page`/`limit` of each day's list). Two queries.
   */
  async count(user: SessionUser, q: TeacherClockingInCountInput): Promise<TeacherClockingInCount> {
    const days: Array<Omit<TeacherClockingInDay, 'list' | 'total'>> = await this.db.query(
      `select to_char(g.day, 'YYYY-MM-DD') as day,
              (select count(*) from users u
                where u.school_id = $1 and u.role in (2, 5) and u.deleted_at is null
                  and (u.created_at at time zone sc.timezone)::date <= g.day
                  and (u.job_status = 1 or (u.left_at is not null and (u.left_at at time zone sc.timezone)::date > g.day)))::int as on_job,
              (select count(*) from staff_attendance a where a.school_id = $1 and a.day = g.day and a.clock_in_at is not null)::int as clocked_in,
              (select count(*) from staff_attendance a where a.school_id = $1 and a.day = g.day and a.clock_out_at is not null)::int as clocked_out
         from schools sc cross join generate_series($2::date, $3::date, interval '1 day') as g(day)
        where sc.id = $1
        order by g.day`,
      [user.schoolId, q.date_from, q.date_to],
    );
    const offset = offsetOf(q);
    const people: Array<TeacherClockingInDay['list'][number] & { day: string }> = await this.db.query(
      `select day, user_id, name, role, clock_in_at, clock_out_at from (
         select to_char(a.day, 'YYYY-MM-DD') as day, a.user_id, u.name, u.role::int as role, a.clock_in_at, a.clock_out_at,
                row_number() over (partition by a.day order by a.clock_in_at, a.user_id) as n
           from staff_attendance a join users u on u.id = a.user_id
          where a.school_id = $1 and a.day between $2 and $3 and a.clock_in_at is not null
       ) x where n > $4 and n <= $5
       order by day, n`,
      [user.schoolId, q.date_from, q.date_to, offset, offset + q.limit],
    );
    const byDay = new Map<string, TeacherClockingInDay['list']>();
    for (const { day, ...p } of people) {
      if (!byDay.has(day)) byDay.set(day, []);
      byDay.get(day)!.push(p);
    }
    return {
      date_from: q.date_from,
      date_to: q.date_to,
      page: q.page,
      limit: q.limit,
      days: days.map((d) => ({ ...d, total: d.clocked_in, list: byDay.get(d.day) ?? [] })),
    };
  }
}
