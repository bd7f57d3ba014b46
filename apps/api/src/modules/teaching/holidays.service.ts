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
import { DataSource, type EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../core/config/config';
import { SCHOOL_TODAY } from '../../core/database/sql-kit';
import { DomainEvents } from '../../core/events/domain-events';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { cancelClosedDayBookings, closedDayBookings } from '../meals/meals-sql';
import { CANCEL_SESSIONS_SQL } from './session-core';
import { isOverlapViolation, lockSchedule, schoolOf } from './teaching-sql';

type Db = Pick<EntityManager, 'query'>;

/** A session the import creates on a make-up day (the preview's row, and the minutes, teacher and room it copies). */
type MakeupSession = HolidayImportPreview['makeup_sessions'][number] & {
  start_min: number;
  end_min: number;
  teacher_id: number;
  room_id: number | null;
};

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

  async preview(user: SessionUser, q: HolidayImportPreviewQuery): Promise<HolidayImportPreview> {
    const school = schoolOf(user);
    this.tableOf(q.year);
    const e = await this.effects(this.db, school, q.year);
    const { plan } = e;
    const makeupDays = plan.set.filter((d) => d.kind === 'makeup' && d.day >= e.today);
    const closed = this.closedFromToday(e);
    const [extra]: Array<{ makeup: HolidayImportPreview['makeup']; contracts: HolidayImportPreview['contracts'] }> = await this.db.query(
      `with m as (select * from unnest($2::date[], $3::int[]) as m(day, works_as)),
            cl as (select unnest($4::date[]) as day)
       select
         (select coalesce(json_agg(json_build_object('day', to_char(m.day, 'YYYY-MM-DD'), 'works_as', m.works_as, 'classes', x.classes, 'care_students', y.n) order by m.day), '[]')
            from m
            cross join lateral (
              select coalesce(json_agg(json_build_object('kind', k.kind, 'class_id', k.class_id, 'class_name', k.class_name) order by k.kind, k.class_name), '[]') as classes
                from (select distinct s.kind, s.class_id, coalesce(tc.name, uc.name) as class_name
                        from class_sessions s
                        left join teaching_classes tc on s.kind = 'teaching' and tc.id = s.class_id
                        left join tutoring_classes uc on s.kind = 'tutoring' and uc.id = s.class_id
                       where s.school_id = $1 and s.state <> 'cancelled' and s.day between m.day - 14 and m.day + 14
                         and extract(isodow from s.day)::int = m.works_as
                         and s.day <> all($4::date[])
                         and not exists (select 1 from school_calendar_days cd where cd.school_id = $1 and cd.day = s.day)) k) x
            cross join lateral (
              select count(distinct ccs.student_id)::int as n
                from care_classes cc join care_class_students ccs on ccs.class_id = cc.id
                join students st on st.id = ccs.student_id and st.status = 1
                left join class_times ct on ct.id = cc.class_time_id
               where cc.school_id = $1 and cc.deleted_at is null and cc.status = 1 and (ct.id is null or m.works_as::smallint = any(ct.weekdays))) y) as makeup,
         (select coalesce(json_agg(json_build_object('id', k.id, 'no', k.no, 'student_id', k.student_id, 'student_name', st.name,
                   'start_day', to_char(k.start_day, 'YYYY-MM-DD'), 'end_day', to_char(k.end_day, 'YYYY-MM-DD'), 'closed_days', n.n) order by k.start_day, k.id), '[]')
            from contracts k join students st on st.id = k.student_id
            cross join lateral (select count(*)::int as n from cl where cl.day between k.start_day and k.end_day) n
           where k.school_id = $1 and k.status = 'active' and k.kind = 'days' and n.n > 0) as contracts`,
      [school, makeupDays.map((d) => d.day), makeupDays.map((d) => d.works_as), closed],
    );
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
  async import(user: SessionUser, input: ImportHolidaysInput): Promise<ImportHolidaysAnswer> {
    const school = schoolOf(user);
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
      const written: unknown[] = await em.query(
        `insert into school_calendar_days (school_id, day, kind, works_as, note, created_by)
         select $1, d.day, d.kind, d.works_as, d.note, $6 from unnest($2::date[], $3::text[], $4::int[], $5::text[]) as d(day, kind, works_as, note)
         on conflict (school_id, day) do nothing returning day`,
        [school, plan.set.map((d) => d.day), plan.set.map((d) => d.kind), plan.set.map((d) => d.works_as), plan.set.map((d) => d.note), user.id],
      );
      const cancelled: unknown[] = e.sessions.length
        ? await em.query(CANCEL_SESSIONS_SQL, [e.sessions.map((s) => s.id), `法定节假日（${plan.notice}）`])
        : [];
      const created = await createMakeupSessions(em, school, e.makeupSessions, user.id);
      const bookings = await cancelClosedDayBookings(em, school, this.closedFromToday(e), user.id, { holiday: plan.notice });
      return {
        answer: {
          ...answer,
          set: written.length,
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
    const [r]: Array<{ today: string; existing: Array<{ day: string; kind: 'holiday' | 'makeup'; works_as: number | null }> }> = await db.query(
      `select to_char(d.today, 'YYYY-MM-DD') as today,
              (select coalesce(json_agg(json_build_object('day', to_char(c.day, 'YYYY-MM-DD'), 'kind', c.kind, 'works_as', c.works_as::int)), '[]')
                 from school_calendar_days c where c.school_id = $1 and c.day between $2::date and $3::date) as existing
         from ${SCHOOL_TODAY} d`,
      // make-up days may fall in the year before or after (late December, early January)
      [school, addDays(`${year}-01-01`, -31), addDays(`${year}-12-31`, 31)],
    );
    const plan = holidayPlan(year, r.existing, this.tableOf(year));
    if (!plan) throw new AppError('teaching.v.holiday_year_invalid'); // tableOf refuses it first
    const closed = this.closedFromToday({ plan, today: r.today });
    const sessions: HolidayImportPreview['sessions'] = closed.length
      ? await db.query(
          `select s.id, s.kind, s.class_id, coalesce(tc.name, uc.name) as class_name, to_char(s.day, 'YYYY-MM-DD') as day,
                  to_char(make_time(s.start_min / 60, s.start_min % 60, 0), 'HH24:MI') as start_time,
                  case when s.end_min = 1440 then '24:00' else to_char(make_time(s.end_min / 60, s.end_min % 60, 0), 'HH24:MI') end as end_time,
                  tu.name as teacher_name
             from class_sessions s join users tu on tu.id = s.teacher_id
             left join teaching_classes tc on s.kind = 'teaching' and tc.id = s.class_id
             left join tutoring_classes uc on s.kind = 'tutoring' and uc.id = s.class_id
            where s.school_id = $1 and s.day = any($2::date[]) and s.state = 'planned'
            order by s.day, s.start_min, s.id`,
          [school, closed],
        )
      : [];
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

/**
 * The sessions a make-up day gets from the weekday it runs as (a Saturday that "runs as Tuesday" holds each class's
 * Tuesday sessions): for each running teaching and tutoring class, its sessions (not cancelled) of the nearest day
 * within two weeks that falls on that weekday and is not closed (neither in the school calendar nor among the days
 * the import closes, $4), copied with their times, teacher and room. A class that already has a session on the
 * make-up day gets none (a second import, or a generation that placed it), nor one whose teacher or room is busy then
 * (the database would refuse the overlap).
 */
async function makeupSessionsOf(db: Db, school: number, days: Array<{ day: string; works_as: number }>, closed: string[]): Promise<MakeupSession[]> {
  if (!days.length) return [];
  return db.query(
    `with m as (select * from unnest($2::date[], $3::int[]) as m(day, works_as)),
          src as (
            select m.day as on_day, m.works_as, s.kind, s.class_id, s.day as from_day, s.start_min, s.end_min, s.teacher_id, s.room_id,
                   coalesce(tc.name, uc.name) as class_name,
                   dense_rank() over (partition by m.day, s.kind, s.class_id order by abs(s.day - m.day), s.day) as nearest
              from m
              join class_sessions s on s.school_id = $1 and s.state <> 'cancelled' and s.day between m.day - 14 and m.day + 14
               and extract(isodow from s.day)::int = m.works_as and s.day <> all($4::date[])
              left join teaching_classes tc on s.kind = 'teaching' and tc.id = s.class_id and tc.status = 1 and tc.deleted_at is null
              left join tutoring_classes uc on s.kind = 'tutoring' and uc.id = s.class_id and uc.status = 1 and uc.deleted_at is null
             where coalesce(tc.id, uc.id) is not null
               and not exists (select 1 from school_calendar_days cd where cd.school_id = $1 and cd.day = s.day))
     select src.kind, src.class_id, src.class_name, to_char(src.on_day, 'YYYY-MM-DD') as day, src.works_as,
            to_char(src.from_day, 'YYYY-MM-DD') as from_day,
            to_char(make_time(src.start_min / 60, src.start_min % 60, 0), 'HH24:MI') as start_time,
            case when src.end_min = 1440 then '24:00' else to_char(make_time(src.end_min / 60, src.end_min % 60, 0), 'HH24:MI') end as end_time,
            tu.name as teacher_name, src.start_min, src.end_min, src.teacher_id, src.room_id
       from src join users tu on tu.id = src.teacher_id
      where src.nearest = 1
        and not exists (select 1 from class_sessions o where o.kind = src.kind and o.class_id = src.class_id and o.day = src.on_day and o.state <> 'cancelled')
        and not exists (select 1 from class_sessions o where o.day = src.on_day and o.state <> 'cancelled'
                          and (o.teacher_id = src.teacher_id or o.room_id = src.room_id)
                          and int4range(o.start_min, o.end_min) && int4range(src.start_min, src.end_min))
      order by src.on_day, src.start_min, src.kind, src.class_name, src.class_id`,
    [school, days.map((d) => d.day), days.map((d) => d.works_as), closed],
  );
}

/** Creates the make-up days' sessions (makeupSessionsOf) in one statement; answers how many. */
async function createMakeupSessions(db: Db, school: number, rows: MakeupSession[], by: number): Promise<number> {
  if (!rows.length) return 0;
  const created: unknown[] = await db
    .query(
      `insert into class_sessions (school_id, kind, class_id, day, start_min, end_min, teacher_id, room_id, created_by)
       select $1, x.kind, x.class_id, x.day, x.start_min, x.end_min, x.teacher_id, x.room_id, $3
         from jsonb_to_recordset($2::jsonb) as x(kind text, class_id int, day date, start_min smallint, end_min smallint, teacher_id int, room_id int)
       returning id`,
      [school, JSON.stringify(rows), by],
    )
    // two classes copied into one slot of a teacher or a room (their source days differed): the database refuses it
    .catch((err: unknown) => {
      throw isOverlapViolation(err) ? new AppError('teaching.clash_database') : err;
    });
  return created.length;
}
