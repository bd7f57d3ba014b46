import { BookDinnerInput } from './meals';
import { ScoreOrderCountQuery } from './points';

// 2026-02-30 passed Date.parse (as March 2nd) and so these schemas; every schema now uses the one isCalendarDay
describe('days that do not exist are refused', () => {
  it('meals: a booking day', () => {
    const base = { student_id: 1, goods_id: 1, request_id: '4b8f3f7e-51b7-4f3b-9a53-0d3c0a3a3a3a' };
    expect(BookDinnerInput.safeParse({ ...base, day: '2026-02-28' }).success).toBe(true);
    const bad = BookDinnerInput.safeParse({ ...base, day: '2026-02-30' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0].message).toBe('meals.v.date_invalid');
  });

  it('points: a count range', () => {
    expect(ScoreOrderCountQuery.safeParse({ date_from: '2026-02-01', date_to: '2026-02-28' }).success).toBe(true);
    const bad = ScoreOrderCountQuery.safeParse({ date_from: '2026-02-01', date_to: '2026-02-30' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0].message).toBe('points.v.date_invalid');
  });
});
