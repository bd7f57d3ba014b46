import { availabilityProblem, MAX_AVAILABILITY_WINDOWS, sortAvailability, withinOffered, type AvailabilityWindow } from './availability';

const w = (weekday: number, start_time: string, end_time: string): AvailabilityWindow => ({ weekday, start_time, end_time });

describe('availabilityProblem', () => {
  it.each<[string, AvailabilityWindow[], ReturnType<typeof availabilityProblem>]>([
    ['no windows', [], null],
    ['one window', [w(1, '16:00', '18:00')], null],
    ['touching windows of a day', [w(1, '16:00', '17:00'), w(1, '17:00', '18:00')], null],
    ['the same times on two days', [w(1, '16:00', '18:00'), w(2, '16:00', '18:00')], null],
    ['unsorted input without overlap', [w(3, '19:00', '20:00'), w(1, '08:00', '09:00'), w(3, '07:00', '08:00')], null],
    ['whole day to 23:59', [w(7, '00:00', '23:59')], null],
    ['weekday 0', [w(0, '16:00', '18:00')], { reason: 'weekday_invalid', index: 0 }],
    ['weekday 8', [w(1, '08:00', '09:00'), w(8, '16:00', '18:00')], { reason: 'weekday_invalid', index: 1 }],
    ['weekday 1.5', [w(1.5, '16:00', '18:00')], { reason: 'weekday_invalid', index: 0 }],
    ['24:00', [w(1, '16:00', '24:00')], { reason: 'time_invalid', index: 0 }],
    ['H:MM', [w(1, '9:00', '10:00')], { reason: 'time_invalid', index: 0 }],
    ['seconds', [w(1, '09:00:00', '10:00')], { reason: 'time_invalid', index: 0 }],
    ['start after end', [w(2, '18:00', '16:00')], { reason: 'time_order', index: 0 }],
    ['empty window', [w(2, '16:00', '16:00')], { reason: 'time_order', index: 0 }],
    ['overlap', [w(1, '16:00', '17:00'), w(1, '16:30', '18:00')], { reason: 'overlap', index: 1, other: 0 }],
    ['overlap given later first', [w(1, '16:30', '18:00'), w(1, '16:00', '17:00')], { reason: 'overlap', index: 1, other: 0 }],
    ['contained window', [w(4, '08:00', '20:00'), w(4, '12:00', '13:00')], { reason: 'overlap', index: 1, other: 0 }],
    ['identical windows', [w(5, '08:00', '09:00'), w(5, '08:00', '09:00')], { reason: 'overlap', index: 1, other: 0 }],
    // the long window's end is kept past the short one: the third still overlaps the first
    [
      'overlap past a contained window',
      [w(6, '08:00', '12:00'), w(6, '09:00', '10:00'), w(6, '11:00', '13:00')],
      { reason: 'overlap', index: 1, other: 0 },
    ],
    [
      'overlap on another day than the first',
      [w(1, '08:00', '09:00'), w(2, '08:00', '09:00'), w(2, '08:30', '09:30')],
      { reason: 'overlap', index: 2, other: 1 },
    ],
  ])('%s', (_name, windows, expected) => {
    expect(availabilityProblem(windows)).toEqual(expected);
  });

  it('finds the overlap past a contained window when the contained one is fine', () => {
    expect(availabilityProblem([w(6, '08:00', '12:00'), w(6, '12:00', '13:00'), w(6, '11:00', '11:30')])).toEqual({
      reason: 'overlap',
      index: 2,
      other: 0,
    });
  });

  it('refuses more than the maximum', () => {
    const many = Array.from({ length: MAX_AVAILABILITY_WINDOWS + 1 }, (_, i) =>
      w((i % 7) + 1, `${String(Math.floor(i / 7)).padStart(2, '0')}:00`, `${String(Math.floor(i / 7)).padStart(2, '0')}:30`),
    );
    expect(availabilityProblem(many)).toEqual({ reason: 'too_many' });
    expect(availabilityProblem(many.slice(0, MAX_AVAILABILITY_WINDOWS))).toBeNull();
  });
});

describe('sortAvailability', () => {
  it('orders by weekday then times without changing the input', () => {
    const input = [w(3, '19:00', '20:00'), w(1, '08:00', '10:00'), w(1, '08:00', '09:00'), w(3, '07:00', '08:00')];
    expect(sortAvailability(input)).toEqual([w(1, '08:00', '09:00'), w(1, '08:00', '10:00'), w(3, '07:00', '08:00'), w(3, '19:00', '20:00')]);
    expect(input[0]).toEqual(w(3, '19:00', '20:00'));
  });
});

describe('withinOffered', () => {
  const m = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3));
  const r = (a: string, b: string) => ({ start: m(a), end: m(b) });
  it.each<[string, Array<{ start: number; end: number }>, Array<{ start: number; end: number }>, number, Array<{ start: number; end: number }>]>([
    ['no offered windows', [r('08:00', '21:00')], [], 60, []],
    ['no free windows', [], [r('16:00', '18:00')], 60, []],
    ['offered inside free', [r('08:00', '21:00')], [r('16:00', '18:00')], 60, [r('16:00', '18:00')]],
    ['free inside offered', [r('16:30', '17:30')], [r('16:00', '18:00')], 60, [r('16:30', '17:30')]],
    ['overlap shorter than the session', [r('08:00', '16:30')], [r('16:00', '18:00')], 60, []],
    ['overlap exactly the session', [r('08:00', '17:00')], [r('16:00', '18:00')], 60, [r('16:00', '17:00')]],
    ['touching only', [r('08:00', '16:00')], [r('16:00', '18:00')], 1, []],
    [
      'a busy hour splits an offered window',
      [r('08:00', '16:30'), r('17:30', '21:00')],
      [r('16:00', '19:00')],
      30,
      [r('16:00', '16:30'), r('17:30', '19:00')],
    ],
    [
      'two offered windows in one free window, unsorted',
      [r('08:00', '21:00')],
      [r('19:00', '20:00'), r('09:00', '10:00')],
      45,
      [r('09:00', '10:00'), r('19:00', '20:00')],
    ],
  ])('%s', (_name, free, offered, length, expected) => {
    expect(withinOffered(free, offered, length)).toEqual(expected);
  });
});
