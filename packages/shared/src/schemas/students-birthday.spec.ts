import { isBirthday } from './students';

/** A birthday may be the school's today (Asia/Shanghai), whatever the hour: 17:30 UTC is already tomorrow there. */
describe('isBirthday at 2026-11-26T17:30:00Z (01:30 on the 27th in Shanghai)', () => {
  beforeAll(() => jest.useFakeTimers({ now: new Date('2026-11-26T17:30:00Z') }));
  afterAll(() => jest.useRealTimers());
  it.each([
    ['2026-11-27', true],
    ['2026-11-26', true],
    ['2026-11-28', false],
    ['1990-01-01', true],
    ['1989-12-31', false],
    ['2026-02-30', false],
  ])('%s → %s', (day, ok) => expect(isBirthday(day)).toBe(ok));
});
