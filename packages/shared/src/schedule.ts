import { addDays, dayDiff } from './contracts';
import { toMinutes } from './time-slots';
import type { BusyRef, Clash, GeneratedSession, SkippedSession } from './answers/teaching';

/**
 * Teaching and tutoring schedules (issue 13): the sessions a weekly pattern gives over a range of school days, and the
 * clashes of proposed sessions with what teachers, rooms and students are already busy with.
 *
 * Days are the school's local dates (YYYY-MM-DD) and times minutes since the school's midnight: no timezone arithmetic
 * happens here (a day is a calendar date, its weekday computed in UTC, which has no daylight saving).
 *
 * No recurrence library: a weekly pattern with holidays and 调休 make-up days over date-only days is a loop over the
 * range (a make-up day is a weekend day that runs as a given weekday, which RRULE's EXDATE/RDATE cannot say: an RDATE
 * adds a date, not "a date that behaves as Monday"), and rrule's Date-with-timezone model would bring back the
 * timezone arithmetic the school-local days avoid.
 */

/** 1 Monday .. 7 Sunday, as class_times.weekdays. */
export type Weekday = 1 | 2 | 3 | 4 | 5 | 6 | 7;

export const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

/** The weekday (1 Monday .. 7 Sunday) of a YYYY-MM-DD day. */
export function weekdayOf(day: string): Weekday {
  const d = new Date(`${day}T00:00:00Z`).getUTCDay();
  return (d === 0 ? 7 : d) as Weekday;
}

/** The Monday of the week of `day`. */
export function mondayOf(day: string): string {
  return addDays(day, 1 - weekdayOf(day));
}

/** Whole days from `a` to `b` (b - a). */
export function spanDays(a: string, b: string): number {
  return dayDiff(a, b);
}

/** `HH:MM` of minutes since midnight (1440 is 24:00). */
export function toHHMM(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** A day of the school calendar: a holiday (no sessions, no care) or a make-up day (调休: a weekend day that works as `works_as`). */
export interface CalendarDay {
  day: string;
  kind: 'holiday' | 'makeup';
  /** make-up days: the weekday whose timetable the day runs */
  works_as?: number | null;
  note?: string | null;
}

/** A make-up day must be a Saturday or Sunday working as a school day (Monday..Friday). */
export function calendarDayProblem(d: CalendarDay): 'makeup_not_weekend' | 'works_as_invalid' | 'holiday_works_as' | null {
  if (d.kind === 'holiday') return (d.works_as ?? null) === null ? null : 'holiday_works_as';
  if (weekdayOf(d.day) < 6) return 'makeup_not_weekend';
  const w = d.works_as ?? 0;
  if (!Number.isInteger(w) || w < 1 || w > 5) return 'works_as_invalid';
  return null;
}

/**
 * The weekday a day runs as: null on a holiday, `works_as` on a make-up day, else its own weekday.
 * `calendar` maps a day to its calendar entry.
 */
export function effectiveWeekday(day: string, calendar: ReadonlyMap<string, CalendarDay>): Weekday | null {
  const c = calendar.get(day);
  if (c?.kind === 'holiday') return null;
  if (c?.kind === 'makeup' && c.works_as) return c.works_as as Weekday;
  return weekdayOf(day);
}

/** One weekly slot of a pattern: weekday and local times HH:MM. */
export interface PatternSlot {
  weekday: number;
  start_time: string;
  end_time: string;
}

export interface Generation {
  sessions: GeneratedSession[];
  /** pattern slots that fell on a holiday, or on a weekend day of the pattern that is a make-up day running another weekday */
  skipped: SkippedSession[];
  /** true when `limit` stopped the generation before the range's end */
  limit_reached: boolean;
}

/** The longest range one generation may span (a school year and a bit). */
export const MAX_SCHEDULE_DAYS = 400;

/**
 * The sessions of a weekly pattern over [from, to] (inclusive), in day and time order: holidays skipped, a make-up day
 * runs the pattern of its works_as weekday instead of its own, at most `limit` sessions. O(days x pattern slots).
 */
export function generateSessions(input: {
  pattern: readonly PatternSlot[];
  from: string;
  to: string;
  calendar?: readonly CalendarDay[];
  limit?: number;
}): Generation {
  const calendar = new Map((input.calendar ?? []).map((c) => [c.day, c]));
  const byWeekday = new Map<number, Array<{ start: number; end: number; start_time: string; end_time: string }>>();
  for (const p of input.pattern) {
    const list = byWeekday.get(p.weekday) ?? [];
    list.push({ start: toMinutes(p.start_time), end: toMinutes(p.end_time), start_time: p.start_time, end_time: p.end_time });
    byWeekday.set(p.weekday, list);
  }
  for (const list of byWeekday.values()) list.sort((a, b) => a.start - b.start || a.end - b.end);
  const limit = input.limit ?? Infinity;
  const sessions: GeneratedSession[] = [];
  const skipped: SkippedSession[] = [];
  const span = spanDays(input.from, input.to);
  const firstWeekday = weekdayOf(input.from);
  for (let i = 0; i <= span && i <= MAX_SCHEDULE_DAYS; i++) {
    const own = (((firstWeekday - 1 + i) % 7) + 1) as Weekday;
    // a day without a slot and without a calendar entry needs no date string
    if (!byWeekday.has(own) && !calendar.size) continue;
    const day = addDays(input.from, i);
    const c = calendar.get(day);
    const runs = effectiveWeekday(day, calendar);
    if (runs === null || runs !== own) {
      // the day's own slots do not run: a holiday, or a make-up day running another weekday
      for (const s of byWeekday.get(own) ?? []) {
        skipped.push({
          day,
          weekday: own,
          start_time: s.start_time,
          end_time: s.end_time,
          reason: runs === null ? 'holiday' : 'makeup',
          note: c?.note ?? null,
        });
      }
    }
    if (runs === null) continue;
    for (const s of byWeekday.get(runs) ?? []) {
      if (sessions.length >= limit) return { sessions, skipped, limit_reached: true };
      sessions.push({ day, weekday: runs, ...s, ...(runs !== own ? { makeup: true as const } : {}) });
    }
  }
  return { sessions, skipped, limit_reached: false };
}

// ---------------------------------------------------------------- clashes

export type ClashKind = 'teacher' | 'room' | 'student';

/** Someone (a teacher, room or student) busy on a day, or every week on `weekdays` (care time slots), from start to end minutes. */
export interface BusyInterval {
  kind: ClashKind;
  who: number;
  /** a dated interval ... */
  day?: string;
  /** ... or a weekly one (on the days running as these weekdays) */
  weekdays?: readonly number[];
  start: number;
  end: number;
  ref: BusyRef;
}

/** A session being written: generated, moved, or an existing one a new student joins. */
export interface ProposedSession {
  day: string;
  /** the weekday the day runs as (make-up days: works_as) */
  weekday: number;
  start: number;
  end: number;
  teacher_id: number;
  room_id?: number | null;
  student_ids?: readonly number[];
  /** the session itself when it exists (a move); proposed sessions of one request are one class's */
  session_id?: number | null;
}

interface Bucketed {
  start: number;
  end: number;
  day?: string;
  ref: BusyRef;
}

export type ClashNames = { teacher?: ReadonlyMap<number, string>; room?: ReadonlyMap<number, string>; student?: ReadonlyMap<number, string> };

const KIND_NO: Record<ClashKind, number> = { teacher: 0, room: 1, student: 2 };
/** One number per (kind, who): ids are below 2^31. */
const keyOf = (kind: ClashKind, who: number) => KIND_NO[kind] * 2 ** 32 + who;

/**
 * Every clash of the proposed sessions with the busy intervals, and of the proposed sessions with each other on the
 * same teacher or room (the students of one class's sessions are the same people, so a student clash between them is
 * the teacher clash already listed). Busy intervals are bucketed per (kind, who, day) and per (kind, who, weekday),
 * each bucket sorted by start: a lookup scans only the bucket's intervals starting before the session ends, so the
 * whole check is O(n log n) in the intervals plus the clashes found. Clashes come in the proposed sessions' order.
 */
export function findClashes(proposed: readonly ProposedSession[], busy: readonly BusyInterval[], names: ClashNames = {}): Clash[] {
  // per (kind, who): its dated intervals by day and its weekly ones by weekday, each list sorted by start
  const buckets = new Map<number, { days: Map<string, Bucketed[]>; weekly: Bucketed[][] }>();
  const entry = (kind: ClashKind, who: number) => {
    const key = keyOf(kind, who);
    let e = buckets.get(key);
    if (!e) buckets.set(key, (e = { days: new Map(), weekly: [] }));
    return e;
  };
  for (const b of busy) {
    const e = entry(b.kind, b.who);
    if (b.day !== undefined) {
      const list = e.days.get(b.day);
      const item = { start: b.start, end: b.end, day: b.day, ref: b.ref };
      if (list) list.push(item);
      else e.days.set(b.day, [item]);
    }
    for (const w of b.weekdays ?? []) (e.weekly[w] ??= []).push({ start: b.start, end: b.end, ref: b.ref });
  }
  for (const e of buckets.values()) {
    for (const list of e.days.values()) list.sort((a, b) => a.start - b.start);
    for (const list of e.weekly) list?.sort((a, b) => a.start - b.start);
  }

  const clashes: Clash[] = [];
  const scan = (kind: ClashKind, who: number, p: ProposedSession, list: Bucketed[] | undefined) => {
    if (!list) return;
    for (const b of list) {
      if (b.start >= p.end) break;
      if (b.end > p.start) clashes.push(clashOf(kind, who, p, b, names));
    }
  };
  const check = (kind: ClashKind, who: number, p: ProposedSession) => {
    const e = buckets.get(keyOf(kind, who));
    if (!e) return;
    scan(kind, who, p, e.days.get(p.day));
    scan(kind, who, p, e.weekly[p.weekday]);
  };

  // proposed sessions against each other (teacher and room), by a sweep over each (kind, who, day) sorted by start
  const own = new Map<string, Array<{ p: ProposedSession; i: number }>>();
  proposed.forEach((p, i) => {
    for (const [kind, who] of [
      ['teacher', p.teacher_id],
      ['room', p.room_id],
    ] as const) {
      if (who === null || who === undefined) continue;
      const key = `${kind}:${who}:${p.day}`;
      const list = own.get(key);
      if (list) list.push({ p, i });
      else own.set(key, [{ p, i }]);
    }
  });
  const earlier = new Map<number, Array<{ kind: ClashKind; who: number; b: Bucketed }>>();
  for (const [key, list] of own) {
    if (list.length < 2) continue;
    const [kind, whoText] = key.split(':');
    list.sort((a, b) => a.p.start - b.p.start || a.i - b.i);
    for (let x = 0; x < list.length; x++) {
      for (let y = x + 1; y < list.length && list[y].p.start < list[x].p.end; y++) {
        // listed once, on the later of the two in the request's order
        const [first, second] = list[x].i < list[y].i ? [list[x], list[y]] : [list[y], list[x]];
        const ref: BusyRef = { source: 'proposed', session_id: first.p.session_id ?? null, label: `${toHHMM(first.p.start)}-${toHHMM(first.p.end)}` };
        const entry = { kind: kind as ClashKind, who: Number(whoText), b: { start: first.p.start, end: first.p.end, day: first.p.day, ref } };
        const at = earlier.get(second.i);
        if (at) at.push(entry);
        else earlier.set(second.i, [entry]);
      }
    }
  }

  proposed.forEach((p, i) => {
    check('teacher', p.teacher_id, p);
    if (p.room_id !== null && p.room_id !== undefined) check('room', p.room_id, p);
    for (const s of p.student_ids ?? []) check('student', s, p);
    for (const e of earlier.get(i) ?? []) clashes.push(clashOf(e.kind, e.who, p, e.b, names));
  });
  return clashes;
}

function clashOf(kind: ClashKind, who: number, p: ProposedSession, b: Bucketed, names: ClashNames): Clash {
  const name = names[kind]?.get(who);
  return {
    kind,
    who,
    ...(name !== undefined ? { who_name: name } : {}),
    day: p.day,
    start_time: toHHMM(p.start),
    end_time: toHHMM(p.end),
    with: { ...b.ref, day: b.day ?? p.day, start_time: toHHMM(b.start), end_time: toHHMM(b.end) },
  };
}

/** One line naming a clash, for messages: "教师 张老师 2026-03-02 16:00-17:00 与 数学班 16:30-17:30 冲突". */
export function describeClash(c: Clash): string {
  const kind = { teacher: '教师', room: '教室', student: '学生' }[c.kind];
  return `${kind}${c.who_name ? ` ${c.who_name}` : ` #${c.who}`} ${c.day} ${c.start_time}-${c.end_time} 与 ${c.with.label} ${c.with.start_time}-${c.with.end_time} 冲突`;
}

/**
 * The free windows of a day between `open` and `close` (minutes) that are at least `length` long, given the busy
 * intervals of that day (any order, may overlap): the gaps of their union.
 */
export function freeWindows(
  busy: ReadonlyArray<{ start: number; end: number }>,
  open: number,
  close: number,
  length: number,
): Array<{ start: number; end: number; start_time: string; end_time: string }> {
  const sorted = [...busy].sort((a, b) => a.start - b.start);
  const out: Array<{ start: number; end: number; start_time: string; end_time: string }> = [];
  let at = open;
  const emit = (end: number) => {
    if (end - at >= length) out.push({ start: at, end, start_time: toHHMM(at), end_time: toHHMM(end) });
  };
  for (const b of sorted) {
    if (b.end <= at) continue;
    if (b.start >= close) break;
    if (b.start > at) emit(Math.min(b.start, close));
    at = Math.max(at, b.end);
    if (at >= close) return out;
  }
  if (at < close) emit(close);
  return out;
}
