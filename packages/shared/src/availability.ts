import { HHMM_RE, toMinutes } from './time-slots';

/**
 * A teacher's weekly availability (issue 13, teacherSchedule POST): windows of a weekday (1 Monday .. 7 Sunday) with
 * local start and end times HH:MM. Windows of one weekday must not overlap (touching is fine: 16:00-17:00 and
 * 17:00-18:00). The move suggestions read them as the times the teacher offers.
 */
export interface AvailabilityWindow {
  weekday: number;
  start_time: string;
  end_time: string;
}

/** At most this many windows a week. */
export const MAX_AVAILABILITY_WINDOWS = 50;

export type AvailabilityProblem =
  | { reason: 'too_many' }
  | { reason: 'weekday_invalid' | 'time_invalid' | 'time_order'; index: number }
  /** `index` overlaps the earlier window `other` of the same weekday (indexes of the input) */
  | { reason: 'overlap'; index: number; other: number };

/**
 * The first problem of a week's windows, or null when they are valid: the count, each window's weekday and times,
 * start before end, then overlaps within a weekday (each weekday's windows sorted by start: a window overlaps when it
 * starts before the latest end so far). O(n log n).
 */
export function availabilityProblem(windows: readonly AvailabilityWindow[]): AvailabilityProblem | null {
  if (windows.length > MAX_AVAILABILITY_WINDOWS) return { reason: 'too_many' };
  for (let i = 0; i < windows.length; i++) {
    const w = windows[i];
    if (!Number.isInteger(w.weekday) || w.weekday < 1 || w.weekday > 7) return { reason: 'weekday_invalid', index: i };
    if (!HHMM_RE.test(w.start_time) || !HHMM_RE.test(w.end_time)) return { reason: 'time_invalid', index: i };
    if (toMinutes(w.start_time) >= toMinutes(w.end_time)) return { reason: 'time_order', index: i };
  }
  const order = windows.map((w, i) => ({ w, i, start: toMinutes(w.start_time), end: toMinutes(w.end_time) }));
  order.sort((a, b) => a.w.weekday - b.w.weekday || a.start - b.start || a.i - b.i);
  for (let k = 1, last = order[0]; k < order.length; k++) {
    const cur = order[k];
    if (cur.w.weekday === last.w.weekday && cur.start < last.end) {
      // name the later of the two in the input's order
      return cur.i > last.i ? { reason: 'overlap', index: cur.i, other: last.i } : { reason: 'overlap', index: last.i, other: cur.i };
    }
    if (cur.w.weekday !== last.w.weekday || cur.end > last.end) last = cur;
  }
  return null;
}

/** The windows by weekday and start time (as stored and answered). */
export function sortAvailability<T extends AvailabilityWindow>(windows: readonly T[]): T[] {
  return [...windows].sort(
    (a, b) => a.weekday - b.weekday || toMinutes(a.start_time) - toMinutes(b.start_time) || toMinutes(a.end_time) - toMinutes(b.end_time),
  );
}

/**
 * The move suggestions (issue 13): the parts of the free windows (where the teacher and the room are both free) that
 * lie inside the teacher's offered windows of the day, kept when at least `length` minutes long. Minutes since
 * midnight; both lists may be unsorted, the offered windows do not overlap (availabilityProblem). Sorted by start.
 */
export function withinOffered(
  free: ReadonlyArray<{ start: number; end: number }>,
  offered: ReadonlyArray<{ start: number; end: number }>,
  length: number,
): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  for (const f of free) {
    for (const o of offered) {
      const start = Math.max(f.start, o.start);
      const end = Math.min(f.end, o.end);
      if (end - start >= length) out.push({ start, end });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}
