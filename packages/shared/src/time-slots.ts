/**
 * Time slots (class_times): local times of the school, `HH:mm`, on weekdays 1 (Monday) .. 7 (Sunday).
 * One rule for API and web: two slots overlap when they share a weekday and their times intersect
 * (a slot ending at 17:00 and one starting at 17:00 do not overlap).
 */
export interface TimeSlotLike {
  start_time: string;
  end_time: string;
  weekdays: readonly number[];
}

/** `HH:mm` from 00:00 to 23:59. */
export const HHMM_RE = /^([01]\d|2[0-3]):[0-5]\d$/;

/** Minutes since midnight of `HH:mm` (or `HH:mm:ss`, as PostgreSQL prints a time). */
export function toMinutes(time: string): number {
  const [h, m] = time.split(':');
  return Number(h) * 60 + Number(m);
}

/** True when the slot starts before it ends. */
export function startsBeforeEnd(slot: Pick<TimeSlotLike, 'start_time' | 'end_time'>): boolean {
  return toMinutes(slot.start_time) < toMinutes(slot.end_time);
}

/** True when a and b share a weekday and their times intersect. */
export function slotsOverlap(a: TimeSlotLike, b: TimeSlotLike): boolean {
  if (!a.weekdays.some((d) => b.weekdays.includes(d))) return false;
  return toMinutes(a.start_time) < toMinutes(b.end_time) && toMinutes(b.start_time) < toMinutes(a.end_time);
}

/** The first pair of slots of a set that overlap each other, or null when none do. */
export function findOverlap<T extends TimeSlotLike>(slots: readonly T[]): [T, T] | null {
  for (let i = 0; i < slots.length; i++) {
    for (let j = i + 1; j < slots.length; j++) {
      if (slotsOverlap(slots[i], slots[j])) return [slots[i], slots[j]];
    }
  }
  return null;
}
