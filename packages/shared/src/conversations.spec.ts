import {
  canRetract,
  CONVERSATION_LIMITS,
  DEFAULT_OFFICE_HOURS,
  nextOfficeOpening,
  officeOpen,
  schoolAnswersAt,
  validOfficeHours,
  type OfficeHours,
} from './conversations';
import { instantOf } from './school-time';

const SH = 'Asia/Shanghai';
// 2026-12-02 is a Wednesday, 2026-12-05 a Saturday
const at = (day: string, time: string, tz = SH) => instantOf(day, time, tz);
const weekdays = DEFAULT_OFFICE_HOURS;
const evenings: OfficeHours = { days: [6, 7], start: '18:00', end: '21:00' };

describe('office hours', () => {
  it.each([
    ['2026-12-02', '07:59', weekdays, false],
    ['2026-12-02', '08:00', weekdays, true],
    ['2026-12-02', '17:59', weekdays, true],
    ['2026-12-02', '18:00', weekdays, false],
    ['2026-12-05', '10:00', weekdays, false],
    ['2026-12-05', '18:30', evenings, true],
    ['2026-12-02', '18:30', evenings, false],
  ] as const)('%s %s open: %s', (day, time, hours, open) => {
    expect(officeOpen(hours, at(day, time), SH)).toBe(open);
  });

  it.each([
    // Wednesday 22:00 → Thursday 08:00; Friday 19:00 → Monday 08:00; Saturday → Monday; open → now
    ['2026-12-02', '22:00', weekdays, '2026-12-03', '08:00'],
    ['2026-12-04', '19:00', weekdays, '2026-12-07', '08:00'],
    ['2026-12-05', '09:00', weekdays, '2026-12-07', '08:00'],
    ['2026-12-02', '07:00', weekdays, '2026-12-02', '08:00'],
    ['2026-12-02', '10:00', weekdays, '2026-12-02', '10:00'],
    ['2026-12-02', '10:00', evenings, '2026-12-05', '18:00'],
  ] as const)('from %s %s the school answers at %s %s', (day, time, hours, nextDay, nextTime) => {
    expect(nextOfficeOpening(hours, at(day, time), SH)?.toISOString()).toBe(at(nextDay, nextTime).toISOString());
  });

  it('is judged on the school’s wall clock, whatever the zone', () => {
    const ny = 'America/New_York';
    expect(officeOpen(weekdays, at('2026-12-02', '09:00', ny), ny)).toBe(true);
    expect(officeOpen(weekdays, at('2026-12-02', '09:00', ny), SH)).toBe(false);
  });

  it('answers with the earliest opening among the members, null for none', () => {
    expect(schoolAnswersAt([weekdays, evenings], at('2026-12-05', '12:00'), SH)?.toISOString()).toBe(at('2026-12-05', '18:00').toISOString());
    expect(schoolAnswersAt([], at('2026-12-05', '12:00'), SH)).toBeNull();
    expect(nextOfficeOpening({ days: [], start: '08:00', end: '18:00' }, at('2026-12-05', '12:00'), SH)).toBeNull();
  });

  it.each([
    [{ days: [1], start: '08:00', end: '18:00' }, true],
    [{ days: [], start: '08:00', end: '18:00' }, false],
    [{ days: [1, 1], start: '08:00', end: '18:00' }, false],
    [{ days: [8], start: '08:00', end: '18:00' }, false],
    [{ days: [1], start: '18:00', end: '08:00' }, false],
    [{ days: [1], start: '08:00', end: '08:00' }, false],
    [{ days: [1], start: '24:00', end: '25:00' }, false],
    [{ days: [1], start: '8:00', end: '18:00' }, false],
  ])('%j valid: %s', (h, ok) => {
    expect(validOfficeHours(h)).toBe(ok);
  });
});

describe('retraction', () => {
  const sent = new Date('2026-12-02T02:00:00Z');
  it.each([
    [0, true],
    [CONVERSATION_LIMITS.retractMs, true],
    [CONVERSATION_LIMITS.retractMs + 1, false],
    [-1, false],
  ])('%i ms after sending: %s', (ms, ok) => {
    expect(canRetract(sent, new Date(sent.getTime() + ms))).toBe(ok);
  });
});
