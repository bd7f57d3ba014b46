import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  addDays,
  effectiveWeekday,
  Role,
  sortAvailability,
  toHHMM,
  weekdayOf,
  type CalendarDay,
  type ClassScheduleAnswer,
  type ClassScheduleQuery,
  type SaveTeacherScheduleInput,
  type ScheduleDay,
  type ScheduleEntry,
  type SchoolScheduleEntry,
  type SchoolTeachingScheduleAnswer,
  type TeacherAvailability,
  type TeacherScheduleAnswer,
  type WeekQuery,
} from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { SCHOOL_TODAY } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { schoolOf } from './timetable.service';

/**
 * The week ($2: any day of it, null for the school's today) of the school $1 as its Monday `week`, with the school's
 * calendar days of that week as JSON. Select from it as `wk`.
 */
const WEEK = `(select to_char(m.monday, 'YYYY-MM-DD') as week, m.monday,
          (select coalesce(json_agg(json_build_object('day', to_char(c.day, 'YYYY-MM-DD'), 'kind', c.kind, 'works_as', c.works_as, 'note', c.note) order by c.day), '[]')
             from school_calendar_days c where c.school_id = $1 and c.day between m.monday and m.monday + 6) as calendar
     from (select (d - (extract(isodow from d)::int - 1))::date as monday
             from (select coalesce($2::date, t.today) as d from ${SCHOOL_TODAY} t) x) m)`;

/** A class_sessions row (`s`) with its class's name (a teaching or a tutoring class), teacher and room: the columns of toEntry. */
const SESSION_COLUMNS = `s.id, s.kind, s.class_id, coalesce(tc.name, uc.name) as class_name, to_char(s.day, 'YYYY-MM-DD') as day, s.start_min, s.end_min,
  s.teacher_id, tu.name as teacher_name, s.room_id, sr.name as room_name, s.state`;
const SESSION_JOINS = `join users tu on tu.id = s.teacher_id left join rooms sr on sr.id = s.room_id
  left join teaching_classes tc on s.kind = 'teaching' and tc.id = s.class_id
  left join tutoring_classes uc on s.kind = 'tutoring' and uc.id = s.class_id`;

/** A care class's time slot (`t` class_times) with HH:MM times. */
const SLOT_COLUMNS = `t.name as slot_name, to_char(t.start_time, 'HH24:MI') as start_time, to_char(t.end_time, 'HH24:MI') as end_time, t.weekdays::int[] as weekdays`;

interface WeekRow {
  week: string;
  calendar: CalendarDay[];
}

interface SessionRow {
  id: number;
  kind: 'teaching' | 'tutoring';
  class_id: number;
  class_name: string | null;
  day: string;
  start_min: number;
  end_min: number;
  teacher_id: number;
  teacher_name: string;
  room_id: number | null;
  room_name: string | null;
  state: ScheduleEntry['state'];
}

/** A session of the school's week: day index, room, id, kind, class, class name, start and end minutes, teacher, teacher name, state. */
type SchoolSessionTuple = [
  number,
  number | null,
  number,
  'teaching' | 'tutoring',
  number,
  string | null,
  number,
  number,
  number,
  string,
  ScheduleEntry['state'],
];

interface CareRow {
  id: number;
  name: string;
  status: number;
  teacher_id: number | null;
  teacher_name: string | null;
  slot_name: string | null;
  start_time: string | null;
  end_time: string | null;
  weekdays: number[] | null;
}

const toEntry = (s: SessionRow): ScheduleEntry => ({
  id: s.id,
  kind: s.kind,
  class_id: s.class_id,
  class_name: s.class_name,
  day: s.day,
  start_time: toHHMM(s.start_min),
  end_time: toHHMM(s.end_min),
  teacher_id: s.teacher_id,
  teacher_name: s.teacher_name,
  room_id: s.room_id,
  room_name: s.room_name,
  state: s.state,
});

/** The seven days of the week of `monday`, each with the weekday it runs as under the school's calendar. */
export function weekDays(monday: string, calendar: readonly CalendarDay[]): ScheduleDay[] {
  const byDay = new Map(calendar.map((c) => [c.day, c]));
  return Array.from({ length: 7 }, (_, i) => {
    const day = addDays(monday, i);
    const c = byDay.get(day);
    return {
      day,
      weekday: weekdayOf(day),
      runs_as: effectiveWeekday(day, byDay),
      calendar: c ? { kind: c.kind, works_as: c.works_as ?? null, note: c.note ?? null } : null,
    };
  });
}

/**
 * A running care class's slot on the days of the week that run as one of its weekdays: holidays have none, a make-up
 * day has the slot of the weekday it works as.
 */
function careEntries(c: CareRow, days: readonly ScheduleDay[]): Array<ScheduleEntry | null> {
  return days.map((d) => {
    if (c.status !== 1 || !c.weekdays || !c.start_time || !c.end_time || d.runs_as === null || !c.weekdays.includes(d.runs_as)) return null;
    return {
      id: null,
      kind: 'care' as const,
      class_id: c.id,
      class_name: c.name,
      day: d.day,
      start_time: c.start_time,
      end_time: c.end_time,
      teacher_id: c.teacher_id,
      teacher_name: c.teacher_name,
      room_id: null,
      room_name: null,
      state: 'planned' as const,
      ...(d.runs_as !== d.weekday ? { makeup: true } : {}),
    };
  });
}

const byStart = (a: ScheduleEntry, b: ScheduleEntry) =>
  a.start_time.localeCompare(b.start_time) || a.end_time.localeCompare(b.end_time) || (a.id ?? 0) - (b.id ?? 0);

/**
 * The timetables (issue 13): a class's week, the school's week of sessions by room, the teacher's own week and their
 * availability. Every answer is a constant number of statements: the week with its calendar, then set-based reads.
 */
@Injectable()
export class ScheduleService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  private async week(school: number, day: string | undefined): Promise<WeekRow> {
    const [w]: WeekRow[] = await this.db.query(`select wk.week, wk.calendar from ${WEEK} wk`, [school, day ?? null]);
    return w;
  }

  /**
   * A care or teaching class's week. Teaching: its sessions (cancelled ones too, with their state). Care: its time
   * slot on the days running as one of the slot's weekdays while the class runs. A head teacher sees only the care
   * classes they head or are on duty in and the teaching classes they teach.
   */
  async classSchedule(user: SessionUser, q: ClassScheduleQuery): Promise<ClassScheduleAnswer> {
    const school = schoolOf(user);
    const own = user.role === Role.Admin ? null : user.id;
    const w = await this.week(school, q.week);
    const days = weekDays(w.week, w.calendar);
    if (q.kind === 'care') {
      const [c]: Array<CareRow & { mine: boolean }> = await this.db.query(
        `select c.id, c.name, c.status::int as status, c.head_teacher_id as teacher_id, u.name as teacher_name, ${SLOT_COLUMNS},
                ($3::int is null or c.head_teacher_id = $3 or exists (select 1 from duty_assignments d where d.class_id = c.id and d.teacher_id = $3)) as mine
           from care_classes c
           left join users u on u.id = c.head_teacher_id
           left join class_times t on t.id = c.class_time_id and t.deleted_at is null
          where c.id = $2 and c.school_id = $1 and c.deleted_at is null`,
        [school, q.class_id, own],
      );
      if (!c) throw new AppError('timetable.class_not_found');
      if (!c.mine) throw new AppError('timetable.not_own_class');
      const entries = careEntries(c, days);
      return {
        week: w.week,
        class: {
          kind: 'care',
          id: c.id,
          name: c.name,
          status: c.status,
          teacher_id: c.teacher_id,
          teacher_name: c.teacher_name,
          room_id: null,
          room_name: null,
          time_slot:
            c.slot_name && c.start_time && c.end_time && c.weekdays
              ? { name: c.slot_name, start_time: c.start_time, end_time: c.end_time, weekdays: c.weekdays }
              : null,
        },
        days: days.map((d, i) => ({ ...d, sessions: entries[i] ? [entries[i]] : [] })),
      };
    }
    const [c]: Array<{
      id: number;
      name: string;
      status: number;
      teacher_id: number;
      teacher_name: string;
      room_id: number | null;
      room_name: string | null;
      mine: boolean;
    }> = await this.db.query(
      `select c.id, c.name, c.status::int as status, c.teacher_id, u.name as teacher_name, c.room_id, r.name as room_name, ($3::int is null or c.teacher_id = $3) as mine
         from teaching_classes c join users u on u.id = c.teacher_id left join rooms r on r.id = c.room_id
        where c.id = $2 and c.school_id = $1 and c.deleted_at is null`,
      [school, q.class_id, own],
    );
    if (!c) throw new AppError('timetable.class_not_found');
    if (!c.mine) throw new AppError('timetable.not_own_class');
    // (kind, class_id, day, start_min): the class's index
    const sessions: SessionRow[] = await this.db.query(
      `select ${SESSION_COLUMNS} from class_sessions s ${SESSION_JOINS}
        where s.kind = 'teaching' and s.class_id = $1 and s.day between $2::date and $2::date + 6
        order by s.day, s.start_min, s.id`,
      [c.id, w.week],
    );
    const byDay = new Map<string, ScheduleEntry[]>();
    for (const s of sessions) {
      const list = byDay.get(s.day) ?? [];
      list.push(toEntry(s));
      byDay.set(s.day, list);
    }
    const { mine: _, ...cls } = c;
    return {
      week: w.week,
      class: { kind: 'teaching', ...cls, time_slot: null },
      days: days.map((d) => ({ ...d, sessions: byDay.get(d.day) ?? [] })),
    };
  }

  /**
   * The school's week: every room with its sessions of each day, and the sessions without a room (teaching and
   * tutoring sessions alike, cancelled ones with their state). One statement whatever the number of classes: the week
   * with its calendar, the school's rooms and the week's sessions by (school, day) as compact JSON arrays.
   */
  async schoolTeachingSchedule(user: SessionUser, q: WeekQuery): Promise<SchoolTeachingScheduleAnswer> {
    const school = schoolOf(user);
    const [w]: Array<WeekRow & { rooms: Array<{ id: number; name: string }>; sessions: SchoolSessionTuple[] }> = await this.db.query(
      `select wk.week, wk.calendar,
              (select coalesce(json_agg(json_build_object('id', r.id, 'name', r.name) order by lower(r.name), r.id), '[]') from rooms r where r.school_id = $1) as rooms,
              (select coalesce(json_agg(json_build_array(s.day - wk.monday, s.room_id, s.id, s.kind, s.class_id, coalesce(tc.name, uc.name), s.start_min, s.end_min, s.teacher_id, tu.name, s.state)
                        order by s.day, s.start_min, s.id), '[]')
                 from class_sessions s join users tu on tu.id = s.teacher_id
                 left join teaching_classes tc on s.kind = 'teaching' and tc.id = s.class_id
                 left join tutoring_classes uc on s.kind = 'tutoring' and uc.id = s.class_id
                where s.school_id = $1 and s.day between wk.monday and wk.monday + 6) as sessions
         from ${WEEK} wk`,
      [school, q.week ?? null],
    );
    const days = weekDays(w.week, w.calendar);
    const rooms = w.rooms.map((r) => ({ id: r.id, name: r.name, days: days.map((): SchoolScheduleEntry[] => []) }));
    const roomAt = new Map(rooms.map((r) => [r.id, r]));
    const noRoom = days.map((): SchoolScheduleEntry[] => []);
    for (const [i, roomId, id, kind, classId, className, start, end, teacherId, teacherName, state] of w.sessions) {
      const target = roomId === null ? noRoom : (roomAt.get(roomId)?.days ?? noRoom);
      target[i].push({
        id,
        kind,
        class_id: classId,
        class_name: className,
        start_time: toHHMM(start),
        end_time: toHHMM(end),
        teacher_id: teacherId,
        teacher_name: teacherName,
        state,
      });
    }
    return { week: w.week, days, rooms, no_room: noRoom, sessions: w.sessions.length };
  }

  /**
   * The caller's week: the sessions they teach (class_sessions by teacher, whatever their kind), the slots of the care
   * classes they head or are on duty in, their saved availability, and every running class they head, are on duty
   * in or teach (whether or not it meets that week: the class picker of /AClassSchedule). Four statements.
   */
  async teacherSchedule(user: SessionUser, q: WeekQuery): Promise<TeacherScheduleAnswer> {
    const school = schoolOf(user);
    const [w]: Array<
      WeekRow & { availability: { windows: TeacherAvailability['windows']; note: string; version: number; updated_at: string } | null }
    > = await this.db.query(
      `select wk.week, wk.calendar,
              (select json_build_object('windows', a.windows, 'note', a.note, 'version', a.version, 'updated_at', a.updated_at)
                 from teacher_availability a where a.user_id = $3 and a.school_id = $1) as availability
         from ${WEEK} wk`,
      [school, q.week ?? null, user.id],
    );
    const days = weekDays(w.week, w.calendar);
    // (teacher_id, day): the teachers' index
    const sessions: SessionRow[] = await this.db.query(
      `select ${SESSION_COLUMNS} from class_sessions s ${SESSION_JOINS}
        where s.teacher_id = $2 and s.school_id = $1 and s.day between $3::date and $3::date + 6
        order by s.day, s.start_min, s.id`,
      [school, user.id, w.week],
    );
    const care: Array<CareRow & { duty: 'head' | 'duty' }> = await this.db.query(
      `select c.id, c.name, c.status::int as status, c.head_teacher_id as teacher_id, u.name as teacher_name, ${SLOT_COLUMNS},
              case when c.head_teacher_id = $2 then 'head' else 'duty' end as duty
         from care_classes c
         join class_times t on t.id = c.class_time_id and t.deleted_at is null
         left join users u on u.id = c.head_teacher_id
        where c.school_id = $1 and c.deleted_at is null and c.status = 1
          and (c.head_teacher_id = $2 or c.id in (select d.class_id from duty_assignments d where d.teacher_id = $2 and d.school_id = $1))
        order by t.start_time, c.id`,
      [school, user.id],
    );
    const teaching: Array<{ id: number; name: string }> = await this.db.query(
      `select id, name from teaching_classes where school_id = $1 and teacher_id = $2 and status = 1 and deleted_at is null order by name, id`,
      [school, user.id],
    );
    const perDay = days.map((d) => ({ ...d, sessions: [] as ScheduleEntry[], care: [] as Array<ScheduleEntry & { duty: 'head' | 'duty' }> }));
    const dayAt = new Map(days.map((d, i) => [d.day, i]));
    for (const s of sessions) perDay[dayAt.get(s.day)!].sessions.push(toEntry(s));
    for (const c of care) {
      careEntries(c, days).forEach((e, i) => {
        if (e) perDay[i].care.push({ ...e, duty: c.duty });
      });
    }
    for (const d of perDay) d.care.sort(byStart);
    const a = w.availability;
    return {
      week: w.week,
      days: perDay,
      classes: [
        ...care.filter((c) => c.duty === 'head').map((c) => ({ kind: 'care' as const, id: c.id, name: c.name, duty: 'head' as const })),
        ...care.filter((c) => c.duty === 'duty').map((c) => ({ kind: 'care' as const, id: c.id, name: c.name, duty: 'duty' as const })),
        ...teaching.map((c) => ({ kind: 'teaching' as const, id: c.id, name: c.name, duty: 'teach' as const })),
      ],
      availability: a
        ? { windows: a.windows, note: a.note, version: a.version, updated_at: a.updated_at }
        : { windows: [], note: '', version: 0, updated_at: null },
    };
  }

  /**
   * Saves the caller's weekly availability and note on the version they read (0: none saved yet). The windows were
   * validated by availabilityProblem (the input schema) and are stored sorted. One statement; a stale version (or a
   * first save racing another) is a conflict.
   */
  async saveTeacherSchedule(user: SessionUser, input: SaveTeacherScheduleInput): Promise<TeacherAvailability> {
    const school = schoolOf(user);
    const windows = JSON.stringify(
      sortAvailability(input.windows).map((x) => ({ weekday: x.weekday, start_time: x.start_time, end_time: x.end_time })),
    );
    const note = input.note ?? '';
    const returning = `a.windows, a.note, a.version, a.updated_at`;
    const rows: TeacherAvailability[] =
      input.version === 0
        ? await this.db.query(
            `insert into teacher_availability as a (user_id, school_id, windows, note) values ($1, $2, $3::jsonb, $4)
             on conflict (user_id) do nothing returning ${returning}`,
            [user.id, school, windows, note],
          )
        : await this.db.query(
            `with u as (
               update teacher_availability a set windows = $3::jsonb, note = $4, version = a.version + 1, updated_at = now()
                where a.user_id = $1 and a.school_id = $2 and a.version = $5 returning ${returning})
             select * from u`,
            [user.id, school, windows, note, input.version],
          );
    if (!rows.length) throw new AppError('error.conflict');
    return rows[0];
  }
}
