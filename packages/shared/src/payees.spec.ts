import { billDateOf, billDaySpan, PAYMENT_KIND_NAMES, PAYMENT_PAYEES, payeeOf, previousBillDate } from './payees';

describe('who receives each payment kind', () => {
  it.each([
    ['top_up', 'staff', 'platform'],
    ['school_renewal', 'staff', 'platform'],
    ['goods_order', 'staff', 'platform'],
    ['courseware', 'staff', 'platform'],
    ['contract', 'staff', 'school'],
    ['meal', 'staff', 'school'],
    ['contract', 'parent', 'school'],
    ['meal', 'parent', 'school'],
  ] as const)('%s paid by %s → %s', (kind, payer, payee) => {
    expect(payeeOf(kind, payer)).toBe(payee);
  });

  it("a parent's money is the school's whatever the kind", () => {
    for (const kind of PAYMENT_KIND_NAMES) expect(payeeOf(kind, 'parent')).toBe('school');
  });

  it('a kind that declares no payee cannot be paid', () => {
    expect(() => payeeOf('donation', 'staff')).toThrow(/declares no payee/);
    expect(() => payeeOf('toString', 'staff')).toThrow(/declares no payee/);
  });

  it('the kinds parents pay are the school-received ones', () => {
    expect(
      Object.entries(PAYMENT_PAYEES)
        .filter(([, p]) => p === 'school')
        .map(([k]) => k),
    ).toEqual(['contract', 'meal']);
  });
});

describe('bill days (China time)', () => {
  it.each([
    ['2026-12-06T15:59:59Z', '2026-12-06'],
    ['2026-12-06T16:00:00Z', '2026-12-07'],
    ['2026-12-31T16:30:00Z', '2027-01-01'],
    ['2028-02-28T16:00:00Z', '2028-02-29'],
  ])('%s is on the bill of %s', (at, day) => {
    expect(billDateOf(new Date(at))).toBe(day);
  });

  it.each([
    ['2026-12-06', '2026-12-05T16:00:00.000Z', '2026-12-06T16:00:00.000Z'],
    ['2028-02-29', '2028-02-28T16:00:00.000Z', '2028-02-29T16:00:00.000Z'],
    ['2026-12-31', '2026-12-30T16:00:00.000Z', '2026-12-31T16:00:00.000Z'],
  ])('the span of %s', (day, from, to) => {
    const s = billDaySpan(day);
    expect([s.from.toISOString(), s.to.toISOString()]).toEqual([from, to]);
  });

  it.each([
    ['2026-12-07T01:00:00Z', '2026-12-06'],
    ['2026-12-06T16:30:00Z', '2026-12-06'],
    ['2027-01-01T02:00:00Z', '2026-12-31'],
    ['2028-03-01T00:00:00Z', '2028-02-29'],
  ])('the morning after %s fetches %s', (at, day) => {
    expect(previousBillDate(new Date(at))).toBe(day);
  });
});
