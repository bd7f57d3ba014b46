import { Injectable } from '@nestjs/common';
import type { StaffClockRecord, TeacherClockingInCount, TeacherClockingInCountInput, TeacherClockingInDay } from '@wantuo/shared';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import type { Sendable } from '../../core/database/kysely';
import { offsetOf } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import { TasksClockRepository } from './tasks-clock.repository';

/** Staff clock-in: teachers clock in and out once a day; the admin reads the counts per day. */
@Injectable()
export class ClockService {
  constructor(private readonly repo: TasksClockRepository) {}

  /** The caller's record of today (the school's day), or null before clocking in. */
  async today(user: SchoolCaller): Promise<Sendable<StaffClockRecord> | null> {
    return (await this.repo.today(user.schoolId, user.id)) ?? null;
  }

  async clockIn(user: SchoolCaller): Promise<Sendable<StaffClockRecord>> {
    const row = await this.repo.clockIn(user.schoolId, user.id);
    if (!row) throw new AppError('clock.already_in');
    return row;
  }

  async clockOut(user: SchoolCaller): Promise<Sendable<StaffClockRecord>> {
    const row = await this.repo.clockOut(user.schoolId, user.id);
    if (row) return row;
    const current = await this.repo.clockedIn(user.schoolId, user.id);
    throw new AppError(current?.clock_in_at ? 'clock.already_out' : 'clock.not_in');
  }

  /**
   * Per day of the range: teachers on the job that day (created by then, not left before it), how many clocked in
   * and out, and who clocked in when (by clock-in time, `page`/`limit` of each day's list). Two queries.
   */
  async count(user: SchoolCaller, q: TeacherClockingInCountInput): Promise<Sendable<TeacherClockingInCount>> {
    const days = await this.repo.days(user.schoolId, q.date_from, q.date_to);
    const offset = offsetOf(q);
    const people = await this.repo.people(user.schoolId, q.date_from, q.date_to, offset, q.limit);
    const byDay = new Map<string, Array<Sendable<TeacherClockingInDay['list'][number]>>>();
    for (const { day, ...p } of people) {
      let list = byDay.get(day);
      if (!list) byDay.set(day, (list = []));
      list.push(p);
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
