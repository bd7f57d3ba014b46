import { addMonthsToDay, contractState, contractTerms, refundFigure, renewalStartDay, type ContractLike, type RefundCase } from './contracts';

describe('contractTerms', () => {
  it.each([
    ['a term from 1 September', { kind: 'term', length: 1 }, '2026-09-01', { end_day: '2027-01-31', units_total: null }],
    ['two terms', { kind: 'term', length: 2 }, '2026-09-01', { end_day: '2027-06-30', units_total: null }],
    ['a month from the 31st (clamped)', { kind: 'month', length: 1 }, '2027-01-31', { end_day: '2027-02-27', units_total: null }],
    ['three months', { kind: 'month', length: 3 }, '2026-11-23', { end_day: '2027-02-22', units_total: null }],
    ['20 days, valid 6 months by default', { kind: 'days', length: 20 }, '2026-11-23', { end_day: '2027-05-22', units_total: 20 }],
    ['40 sessions valid 2 months', { kind: 'sessions', length: 40, valid_months: 2 }, '2026-12-31', { end_day: '2027-02-27', units_total: 40 }],
  ] as const)('%s', (_, pkg, start, expected) => {
    expect(contractTerms(pkg, start)).toEqual({ start_day: start, ...expected });
  });

  it('adds months with month ends clamped, across years and leap years', () => {
    expect(addMonthsToDay('2027-08-31', 6)).toBe('2028-02-29');
    expect(addMonthsToDay('2026-08-31', 6)).toBe('2027-02-28');
    expect(addMonthsToDay('2026-11-15', 14)).toBe('2028-01-15');
  });
});

describe('renewalStartDay', () => {
  it.each([
    ['continues the day after a running contract', '2026-12-31', '2026-11-23', '2027-01-01'],
    ['starts today when the contract has ended', '2026-11-01', '2026-11-23', '2026-11-23'],
    ['starts today when it ended yesterday', '2026-11-22', '2026-11-23', '2026-11-23'],
    ['tomorrow when it ends today', '2026-11-23', '2026-11-23', '2026-11-24'],
  ])('%s', (_, end, today, expected) => expect(renewalStartDay(end, today)).toBe(expected));
});

describe('contractState', () => {
  const base: ContractLike = { status: 'active', kind: 'month', start_day: '2026-11-01', end_day: '2026-12-31', units_total: null, units_used: 0 };
  it.each<[string, Partial<ContractLike>, string, string]>([
    ['active well before its end', {}, '2026-11-23', 'active'],
    ['expiring 13 days before its end', {}, '2026-12-18', 'expiring'],
    ['active 14 days before its end', {}, '2026-12-17', 'active'],
    ['expiring on its last day', {}, '2026-12-31', 'expiring'],
    ['expired the day after', {}, '2027-01-01', 'expired'],
    ['unpaid as stored', { status: 'unpaid' }, '2027-01-01', 'unpaid'],
    ['cancelled as stored', { status: 'cancelled' }, '2026-11-23', 'cancelled'],
    ['counted: expiring with 3 units left', { kind: 'days', units_total: 20, units_used: 17, end_day: '2027-05-31' }, '2026-11-23', 'expiring'],
    ['counted: active with 4 left', { kind: 'days', units_total: 20, units_used: 16, end_day: '2027-05-31' }, '2026-11-23', 'active'],
    ['counted: expired with none left', { kind: 'sessions', units_total: 20, units_used: 20, end_day: '2027-05-31' }, '2026-11-23', 'expired'],
  ])('%s', (_, patch, today, expected) => expect(contractState({ ...base, ...patch }, today)).toBe(expected));
});

describe('refundFigure', () => {
  const month: RefundCase = {
    kind: 'month',
    list_price_fen: 310_000,
    price_fen: 310_000,
    paid_fen: 310_000,
    start_day: '2026-12-01',
    end_day: '2026-12-31',
    units_total: null,
    units_used: 0,
    today: '2026-12-11',
  };
  it.each<[string, Partial<RefundCase>, { unused: number; total: number; refund_fen: number }]>([
    ['a month cancelled on day 11: 21 of 31 days back', {}, { unused: 21, total: 31, refund_fen: 210_000 }],
    ['cancelled before it starts: all of it', { today: '2026-11-20' }, { unused: 31, total: 31, refund_fen: 310_000 }],
    ['cancelled after its end: nothing', { today: '2027-01-05' }, { unused: 0, total: 31, refund_fen: 0 }],
    ['the discount agreed is kept', { price_fen: 280_000, paid_fen: 280_000 }, { unused: 21, total: 31, refund_fen: 180_000 }],
    ['a discount bigger than the unused value: nothing', { price_fen: 100_000, paid_fen: 100_000 }, { unused: 21, total: 31, refund_fen: 0 }],
    ['never more than was paid', { paid_fen: 50_000 }, { unused: 21, total: 31, refund_fen: 50_000 }],
    ['unpaid: nothing to give back', { paid_fen: 0 }, { unused: 21, total: 31, refund_fen: 0 }],
    [
      'rounded down to the fen',
      { list_price_fen: 100_000, price_fen: 100_000, paid_fen: 100_000, today: '2026-12-02' },
      { unused: 30, total: 31, refund_fen: 96_774 },
    ],
    [
      '20 days with 7 used: 13 × unit price',
      { kind: 'days', units_total: 20, units_used: 7, list_price_fen: 200_000, price_fen: 200_000, paid_fen: 200_000, end_day: '2027-05-31' },
      { unused: 13, total: 20, refund_fen: 130_000 },
    ],
    [
      'sessions all used: nothing',
      { kind: 'sessions', units_total: 10, units_used: 10, list_price_fen: 99_999, price_fen: 99_999, paid_fen: 99_999, end_day: '2027-05-31' },
      { unused: 0, total: 10, refund_fen: 0 },
    ],
    [
      '3 sessions of 7 left at 99.99: floor(3 × 9999 / 7)',
      { kind: 'sessions', units_total: 7, units_used: 4, list_price_fen: 9_999, price_fen: 9_999, paid_fen: 9_999, end_day: '2027-05-31' },
      { unused: 3, total: 7, refund_fen: 4_285 },
    ],
  ])('%s', (_, patch, expected) => expect(refundFigure({ ...month, ...patch })).toMatchObject(expected));
});
