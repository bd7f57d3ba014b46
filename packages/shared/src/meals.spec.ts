import { cutoffBinds, localClock, mealBookingOpen, mealChangeRefusal, mealDayRefusal, mealPeriodOf, type LocalClock, type MealCutoff } from './meals';
import { Role } from './roles';

const ten: MealCutoff = { time: '10:00', days_before: 0 };
const eveBefore: MealCutoff = { time: '18:30', days_before: 1 };
const at = (day: string, hhmm: string): LocalClock => ({ day, minutes: Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3)) });

describe('mealBookingOpen', () => {
  it.each([
    ['the same day before 10:00', '2026-12-01', at('2026-12-01', '09:59'), ten, true],
    ['the same day at 10:00 (closed)', '2026-12-01', at('2026-12-01', '10:00'), ten, false],
    ['the same day after 10:00', '2026-12-01', at('2026-12-01', '15:00'), ten, false],
    ['the day before, late at night', '2026-12-01', at('2026-11-30', '23:59'), ten, true],
    ['a week ahead', '2026-12-08', at('2026-12-01', '12:00'), ten, true],
    ['a past day', '2026-11-30', at('2026-12-01', '08:00'), ten, false],
    ['the eve cutoff, the day before before 18:30', '2026-12-01', at('2026-11-30', '18:29'), eveBefore, true],
    ['the eve cutoff, the day before at 18:30', '2026-12-01', at('2026-11-30', '18:30'), eveBefore, false],
    ['the eve cutoff, the same morning', '2026-12-01', at('2026-12-01', '07:00'), eveBefore, false],
    ['the eve cutoff across a month end', '2026-12-01', at('2026-11-29', '20:00'), eveBefore, true],
    ['midnight cutoff closes the whole day', '2026-12-01', at('2026-12-01', '00:00'), { time: '00:00', days_before: 0 }, false],
  ] as const)('%s', (_, day, now, cutoff, open) => expect(mealBookingOpen(day, now, cutoff)).toBe(open));
});

describe('mealChangeRefusal', () => {
  it.each([
    [Role.Parent, at('2026-12-01', '09:00'), null],
    [Role.Parent, at('2026-12-01', '10:30'), 'meals.cutoff_passed'],
    [Role.Admin, at('2026-12-01', '10:30'), null],
    [Role.HeadTeacher, at('2026-12-01', '19:00'), null],
    [Role.Admin, at('2026-12-05', '10:30'), null],
  ] as const)('role %s at %j', (role, now, refusal) => expect(mealChangeRefusal(role, '2026-12-01', now, ten)).toBe(refusal));

  it('binds guardians only', () => {
    expect([Role.Admin, Role.HeadTeacher, Role.Teacher, Role.Parent].map(cutoffBinds)).toEqual([false, false, false, true]);
  });
});

describe('mealDayRefusal', () => {
  const WEEK = [1, 2, 3, 4, 5];
  it.each<[string, string, number[] | null, { kind: 'holiday' | 'makeup'; works_as?: number | null } | null, string | null]>([
    ['a Monday the class meets', '2026-11-23', WEEK, null, null],
    ['a Saturday', '2026-11-28', WEEK, null, 'meals.no_class_day'],
    ['a Sunday', '2026-11-29', WEEK, null, 'meals.no_class_day'],
    ['a Wednesday of a Mon/Thu class', '2026-11-25', [1, 4], null, 'meals.no_class_day'],
    ['a Thursday of a Mon/Thu class', '2026-11-26', [1, 4], null, null],
    ['a holiday on a school day', '2026-10-01', WEEK, { kind: 'holiday' }, 'meals.holiday'],
    ['a holiday, no class', '2026-10-01', null, { kind: 'holiday' }, 'meals.holiday'],
    ['a make-up Saturday running as Monday', '2026-11-28', WEEK, { kind: 'makeup', works_as: 1 }, null],
    ['a make-up Saturday running as Wednesday, Mon/Thu class', '2026-11-28', [1, 4], { kind: 'makeup', works_as: 3 }, 'meals.no_class_day'],
    ['no class or slot: any day', '2026-11-28', null, null, null],
    ['a class meeting every day', '2026-11-29', [1, 2, 3, 4, 5, 6, 7], null, null],
  ])('%s', (_, day, weekdays, calendar, expected) => expect(mealDayRefusal(day, weekdays, calendar)).toBe(expected));
});

describe('localClock', () => {
  it.each([
    ['Shanghai is UTC+8', '2026-12-01T01:59:00Z', 'Asia/Shanghai', at('2026-12-01', '09:59')],
    ['Shanghai past midnight while UTC is the day before', '2026-11-30T16:30:00Z', 'Asia/Shanghai', at('2026-12-01', '00:30')],
    ['Urumqi is UTC+6', '2026-12-01T03:00:00Z', 'Asia/Urumqi', at('2026-12-01', '09:00')],
    ['UTC', '2026-12-01T23:59:00Z', 'UTC', at('2026-12-01', '23:59')],
  ] as const)('%s', (_, iso, zone, clock) => expect(localClock(new Date(iso), zone)).toEqual(clock));
});

describe('mealPeriodOf', () => {
  it.each([
    ['2026-12-03', 'day', '2026-12-03'],
    ['2026-12-03', 'week', '2026-11-30'],
    ['2026-11-30', 'week', '2026-11-30'],
    ['2026-12-06', 'week', '2026-11-30'],
    ['2027-01-01', 'week', '2026-12-28'],
    ['2026-12-31', 'month', '2026-12'],
  ] as const)('%s by %s', (day, group, period) => expect(mealPeriodOf(day, group)).toBe(period));
});
