import { CONTRACT_STATE_LABELS, CONTRACT_STATES, PACKAGE_KIND_LABELS, PACKAGE_KINDS } from './contracts';
import { MEAL_BOOKING_STATUS_LABELS, MEAL_BOOKING_STATUSES, MEAL_CANCEL_CAUSE_LABELS, MEAL_PAY_FROM, MEAL_PAY_FROM_LABELS } from './meals';
import { LEDGER_TYPE_LABELS, LEDGER_TYPES } from './schemas/school';
import { DATA_GROUP_LABELS, DATA_GROUPS } from './data-centre';

/** Every stored state has its one wording in both languages, distinct within its set (a filter must tell them apart). */
describe.each([
  ['contract states', CONTRACT_STATES, CONTRACT_STATE_LABELS],
  ['package kinds', PACKAGE_KINDS, PACKAGE_KIND_LABELS],
  ['meal booking statuses', MEAL_BOOKING_STATUSES, MEAL_BOOKING_STATUS_LABELS],
  ['meal cancel causes', ['user', 'leave'] as const, MEAL_CANCEL_CAUSE_LABELS],
  ['meal payers', MEAL_PAY_FROM, MEAL_PAY_FROM_LABELS],
  ['ledger types', LEDGER_TYPES, LEDGER_TYPE_LABELS],
  ['data groupings', DATA_GROUPS, DATA_GROUP_LABELS],
])('%s', (_, values, labels) => {
  const table = labels as Record<string, { zh: string; en: string }>;
  it('label exactly the stored values, in Chinese and English', () => {
    expect(Object.keys(table).sort()).toEqual([...values].sort());
    for (const v of values) expect(table[v]).toEqual({ zh: expect.stringMatching(/\S/), en: expect.stringMatching(/\S/) });
  });
  it('are distinct in Chinese', () => expect(new Set(values.map((v) => table[v].zh)).size).toBe(values.length));
});

it('words the contract states as the screens always have (待支付, 已解除 — never 待付款, 已作废)', () => {
  expect(CONTRACT_STATE_LABELS.unpaid.zh).toBe('待支付');
  expect(CONTRACT_STATE_LABELS.cancelled.zh).toBe('已解除');
});
