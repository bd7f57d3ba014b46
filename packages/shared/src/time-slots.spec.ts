import { findOverlap, HHMM_RE, slotsOverlap, startsBeforeEnd, toMinutes } from './time-slots';

const slot = (start_time: string, end_time: string, weekdays: number[]) => ({ start_time, end_time, weekdays });

describe('time slots', () => {
  it('reads HH:mm and HH:mm:ss as minutes', () => {
    expect(toMinutes('00:00')).toBe(0);
    expect(toMinutes('16:30')).toBe(990);
    expect(toMinutes('16:30:00')).toBe(990);
    expect(HHMM_RE.test('23:59')).toBe(true);
    for (const bad of ['24:00', '9:00', '12:60', '12:00:00', '', 'ab:cd']) expect(HHMM_RE.test(bad)).toBe(false);
  });

  it('a slot starts before it ends', () => {
    expect(startsBeforeEnd(slot('16:00', '18:00', [1]))).toBe(true);
    expect(startsBeforeEnd(slot('18:00', '18:00', [1]))).toBe(false);
    expect(startsBeforeEnd(slot('18:00', '16:00', [1]))).toBe(false);
  });

  it('overlaps only on a shared weekday with intersecting times', () => {
    expect(slotsOverlap(slot('16:00', '18:00', [1, 3]), slot('17:00', '19:00', [3]))).toBe(true);
    expect(slotsOverlap(slot('16:00', '18:00', [1, 3]), slot('16:30', '17:00', [1]))).toBe(true);
    expect(slotsOverlap(slot('16:00', '18:00', [1, 3]), slot('17:00', '19:00', [2, 4]))).toBe(false);
    // touching ends do not overlap
    expect(slotsOverlap(slot('16:00', '17:00', [1]), slot('17:00', '18:00', [1]))).toBe(false);
    expect(slotsOverlap(slot('17:00', '18:00', [1]), slot('16:00', '17:00', [1]))).toBe(false);
  });

  it('finds the first overlapping pair of a set', () => {
    const a = slot('08:00', '09:00', [1, 2, 3]);
    const b = slot('09:00', '10:00', [1]);
    const c = slot('09:30', '11:00', [1]);
    expect(findOverlap([a, b])).toBeNull();
    expect(findOverlap([])).toBeNull();
    expect(findOverlap([a, b, c])).toEqual([b, c]);
  });
});
