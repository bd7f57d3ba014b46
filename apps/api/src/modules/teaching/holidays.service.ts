import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  addDays,
  holidayPlan,
  holidayYears,
  type HolidayImportPreview,
  type HolidayImportPreviewQuery,
  type HolidayPlan,
  type HolidayYearsAnswer,
  type ImportHolidaysAnswer,
  type ImportHolidaysInput,
} from '@wantuo/shared';
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { APP_CONFIG, type AppConfig } from '../../core/config/config';
import type { Queryable } from '../../core/database/sql-kit';
import { DomainEvents } from '../../core/events/domain-events';
import { AppError } from '../../core/http/app-error';
import { cancelClosedDayBookings, closedDayBookings } from '../meals/meals-sql';
import {
  insertDays,
  insertMakeupSessions,
  makeupSessionsOf,
  plannedOn,
  previewExtra,
  todayAndCalendar,
  type MakeupSession,
} from './teaching-holidays.repository';
import { cancelSessions, lockSchedule } from './teaching-schedule.repository';
import { isOverlapViolation } from './teaching-sql';

type Db = Queryable;

/** What the import of a year would do, read in one place for the preview and (in its transaction) the import. */
interface Effects {
  today: string;
  plan: HolidayPlan;
  sessions: HolidayImportPreview['sessions'];
  /** the make-up days' sessions to create, with what the insert needs */
  makeupSessions: MakeupSession[];
  bookings: HolidayImportPreview['bookings']['list'];
  fingerprint: string;
}

/**
 * "导入法定节假日" (issue 27, item 3): the State Council's holidays and 调休 make-up days of a year (packages/shared
 * holidays.ts) into the school calendar. The school's own days win (holidayPlan). From the school's today on, the
 * closed days it sets cancel their planned sessions (the cancellation's own SQL) and their dinner bookings (the meals
 * module's SQL in the same transaction; meals refunds and recounts after the commit through a domain event), and the
 * make-up days it sets get the sessions of the weekday they run as (makeupSessionsOf). Days before today are written
 * but nothing on them changes. The preview's fingerprint pins what the import may do.
 * The table is the built-in one merged with NATIONAL_HOLIDAYS_FILE's years, read at start (config.nationalHolidays).
 */
@Injectable()
export class HolidaysService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly events: DomainEvents,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The years the table holds, each with its notice and whether NATIONAL_HOLIDAYS_FILE gave it. */
  years(): HolidayYearsAnswer {
    const { table, fileYears } = this.config.nationalHolidays;
    return {
      list: holidayYears(table).map((year) => ({
        year,
        notice: table[year].notice,
        issued: table[year].issued,
        from_file: fileYears.includes(year),
      })),
    };
  }

  async preview(user: SchoolCaller, q: HolidayImportPreviewQuery): Promise<HolidayImportPreview> {
    const school = user.schoolId;
    this.tableOf(q.year);
    const e = await this.effects(this.db, school, q.year);
    const { plan } = e;
    const makeupDays = plan.set.filter((d) => d.kind === 'makeup' && d.day >= e.today);
    const closed = this.closedFromToday(e);
    const extra = await previewExtra(this.db, school, makeupDays, closed);
    return {
      year: plan.year,
      notice: plan.notice,
      issued: plan.issued,
      today: e.today,
      set: plan.set,
      same: plan.same,
      skipped: plan.skipped,
      sessions: e.sessions,
      makeup: extra.makeup,
      makeup_sessions: e.makeupSessions.map(({ start_min: _s, end_min: _e, teacher_id: _t, room_id: _r, ...row }) => row),
      bookings: { count: e.bookings.length, list: e.bookings },
      contracts: extra.contracts,
      fingerprint: e.fingerprint,
    };
  }

  /**
   * Applies the plan in one transaction under the school's scheduling lock, as previewed: refused when the plan
   * changed since the preview (teaching.holiday_plan_changed), a no-op when nothing is left to set (a second import).
   */
  async import(user: SchoolCaller, input: ImportHolidaysInput): Promise<ImportHolidaysAnswer> {
    const school = user.schoolId;
    this.tableOf(input.year);
    const done = await this.db.transaction(async (em) => {
      await lockSchedule(em, school);
      const e = await this.effects(em, school, input.year);
      const { plan } = e;
      const answer: ImportHolidaysAnswer = {
        year: plan.year,
        set: 0,
        same: plan.same.length,
        skipped: plan.skipped.length,
        sessions_cancelled: 0,
        sessions_created: 0,
        bookings_cancelled: 0,
      };
      if (!plan.set.length) return { answer, bookings: [] };
      if (e.fingerprint !== input.fingerprint) throw new AppError('teaching.holiday_plan_changed');
      const written = await insertDays(em, school, plan.set, user.id);
      const cancelled = e.sessions.length
        ? await cancelSessions(
            em,
            e.sessions.map((s) => s.id),
            `法定节假日（${plan.notice}）`,
          )
        : [];
      const created = await createMakeupSessions(em, school, e.makeupSessions, user.id);
      const bookings = await cancelClosedDayBookings(em, school, this.closedFromToday(e), user.id, { holiday: plan.notice });
      return {
        answer: {
          ...answer,
          set: written,
          sessions_cancelled: cancelled.length,
          sessions_created: created,
          bookings_cancelled: bookings.length,
        },
        bookings,
      };
    });
    if (done.bookings.length) this.events.emit('meals.closed_day_cancelled', { school_id: school, actor_id: user.id, bookings: done.bookings });
    return done.answer;
  }

  /** The table, refusing a year it does not hold (code 100, as the schema's refusals). */
  private tableOf(year: number): AppConfig['nationalHolidays']['table'] {
    const { table } = this.config.nationalHolidays;
    if (!table[year]) throw new AppError('teaching.v.holiday_year_invalid');
    return table;
  }

  /** The closed days the plan sets from the school's today on: what the import changes things on. */
  private closedFromToday(e: Pick<Effects, 'plan' | 'today'>): string[] {
    return e.plan.set.filter((d) => d.kind === 'holiday' && d.day >= e.today).map((d) => d.day);
  }

  /** The plan against the school's calendar of that year, and the sessions and bookings of its closed days from today on. */
  private async effects(db: Db, school: number, year: number): Promise<Effects> {
    // make-up days may fall in the year before or after (late December, early January)
    const r = await todayAndCalendar(db, school, addDays(`${year}-01-01`, -31), addDays(`${year}-12-31`, 31));
    const plan = holidayPlan(year, r.existing, this.tableOf(year));
    if (!plan) throw new AppError('teaching.v.holiday_year_invalid'); // tableOf refuses it first
    const closed = this.closedFromToday({ plan, today: r.today });
    const sessions = closed.length ? await plannedOn(db, school, closed) : [];
    const makeup = plan.set.filter((d) => d.kind === 'makeup' && d.day >= r.today);
    const makeupSessions = await makeupSessionsOf(db, school, makeup as Array<{ day: string; works_as: number }>, closed);
    const bookings = await closedDayBookings(db, school, closed);
    const fingerprint = createHash('sha256')
      .update(
        JSON.stringify({
          set: plan.set.map((d) => [d.day, d.kind, d.works_as]),
          sessions: sessions.map((s) => s.id),
          makeup: makeupSessions.map((m) => [m.kind, m.class_id, m.day, m.start_min, m.end_min, m.teacher_id, m.room_id]),
          bookings: bookings.map((b) => b.id),
        }),
      )
      .digest('hex')
      .slice(0, 16);
    return { today: r.today, plan, sessions, makeupSessions, bookings, fingerprint };
  }
}

/** Creates the make-up days' sessions (makeupSessionsOf) in one statement; answers how many. */
async function createMakeupSessions(db: Db, school: number, rows: MakeupSession[], by: number): Promise<number> {
  if (!rows.length) return 0;
  // two classes copied into one slot of a teacher or a room (their source days differed): the database refuses it
  return insertMakeupSessions(db, school, rows, by).catch((err: unknown) => {
    throw isOverlapViolation(err) ? new AppError('teaching.clash_database') : err;
  });
}
