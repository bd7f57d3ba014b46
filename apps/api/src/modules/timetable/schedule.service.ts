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
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { AppError } from '../../core/http/app-error';
import type { Sendable } from '../../core/http/sendable';
import {
  careClass,
  classWeekSessions,
  insertAvailability,
  schoolWeek,
  teacherCareClasses,
  teacherTeachingClasses,
  teacherWeek,
  teacherWeekSessions,
  teachingClass,
  updateAvailability,
  week,
  type CareRow,
  type SessionRow,
} from './timetable-schedule.repository';

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

  /**
   * A care or teaching class's week. Teaching: its sessions (cancelled ones too, with their state). Care: its time
   * slot on the days running as one of the slot's weekdays while the class runs. A head teacher sees only the care
   * classes they head or are on duty in and the teaching classes they teach.
   */
  async classSchedule(user: SchoolCaller, q: ClassScheduleQuery): Promise<ClassScheduleAnswer> {
    const school = user.schoolId;
    const own = user.role === Role.Admin ? null : user.id;
    const w = await week(this.db, school, q.week ?? null);
    const days = weekDays(w.week, w.calendar);
    if (q.kind === 'care') {
      const c = await careClass(this.db, school, q.class_id, own);
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
    const c = await teachingClass(this.db, school, q.class_id, own);
    if (!c) throw new AppError('timetable.class_not_found');
    if (!c.mine) throw new AppError('timetable.not_own_class');
    // (kind, class_id, day, start_min): the class's index
    const sessions = await classWeekSessions(this.db, c.id, w.week);
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
  async schoolTeachingSchedule(user: SchoolCaller, q: WeekQuery): Promise<SchoolTeachingScheduleAnswer> {
    const school = user.schoolId;
    const w = await schoolWeek(this.db, school, q.week ?? null);
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
  async teacherSchedule(user: SchoolCaller, q: WeekQuery): Promise<Sendable<TeacherScheduleAnswer>> {
    const school = user.schoolId;
    const w = await teacherWeek(this.db, school, user.id, q.week ?? null);
    const days = weekDays(w.week, w.calendar);
    // (teacher_id, day): the teachers' index
    const sessions = await teacherWeekSessions(this.db, school, user.id, w.week);
    const care = await teacherCareClasses(this.db, school, user.id);
    const teaching = await teacherTeachingClasses(this.db, school, user.id);
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
  async saveTeacherSchedule(user: SchoolCaller, input: SaveTeacherScheduleInput): Promise<Sendable<TeacherAvailability>> {
    const school = user.schoolId;
    const windows = JSON.stringify(
      sortAvailability(input.windows).map((x) => ({ weekday: x.weekday, start_time: x.start_time, end_time: x.end_time })),
    );
    const note = input.note ?? '';
    const rows =
      input.version === 0
        ? await insertAvailability(this.db, { userId: user.id, schoolId: school, windows, note })
        : await updateAvailability(this.db, { userId: user.id, schoolId: school, windows, note, version: input.version });
    if (!rows.length) throw new AppError('error.conflict');
    return rows[0];
  }
}
