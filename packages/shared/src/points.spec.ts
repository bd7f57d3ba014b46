import {
  applyPoints,
  canCancel,
  canHandOver,
  exchangeDecision,
  kindOfChange,
  ORDER_STATES,
  orderTransition,
  type OrderCommand,
  type OrderState,
} from './points';

describe('orderTransition', () => {
  it.each<[OrderState, OrderCommand, ReturnType<typeof orderTransition>]>([
    ['pending', 'hand_over', { ok: true, value: { state: 'handed_over', repeat: false } }],
    ['pending', 'cancel', { ok: true, value: { state: 'cancelled', repeat: false } }],
    ['handed_over', 'hand_over', { ok: true, value: { state: 'handed_over', repeat: true } }],
    ['handed_over', 'cancel', { ok: false, error: 'points.order_handed_over' }],
    ['cancelled', 'cancel', { ok: true, value: { state: 'cancelled', repeat: true } }],
    ['cancelled', 'hand_over', { ok: false, error: 'points.order_cancelled' }],
  ])('%s + %s', (state, cmd, expected) => expect(orderTransition(state, cmd)).toEqual(expected));

  it('buttons follow the machine', () => {
    for (const s of ORDER_STATES) {
      expect(canHandOver(s)).toBe(
        orderTransition(s, 'hand_over').ok && !(orderTransition(s, 'hand_over') as { value: { repeat: boolean } }).value.repeat,
      );
      expect(canCancel(s)).toBe(orderTransition(s, 'cancel').ok && !(orderTransition(s, 'cancel') as { value: { repeat: boolean } }).value.repeat);
    }
  });
});

describe('applyPoints', () => {
  it.each<[string, number, number, ReturnType<typeof applyPoints>]>([
    ['an award', 0, 5, { ok: true, value: 5 }],
    ['a deduction within the balance', 10, -3, { ok: true, value: 7 }],
    ['a deduction of the whole balance', 10, -10, { ok: true, value: 0 }],
    ['a deduction larger than the balance', 10, -11, { ok: false, error: 'points.insufficient', params: { balance: 10, asked: 11 } }],
    ['any deduction from zero', 0, -1, { ok: false, error: 'points.insufficient', params: { balance: 0, asked: 1 } }],
    ['zero points', 10, 0, { ok: false, error: 'points.v.points_invalid' }],
    ['a fraction', 10, 1.5, { ok: false, error: 'points.v.points_invalid' }],
  ])('%s', (_, balance, delta, expected) => expect(applyPoints(balance, delta)).toEqual(expected));

  it('kinds of a change', () => {
    expect(kindOfChange(3)).toBe('award');
    expect(kindOfChange(-3)).toBe('deduct');
  });
});

describe('exchangeDecision', () => {
  const good = { price: 30, stock: 2, listed: true };
  it.each<[string, number, Parameters<typeof exchangeDecision>[1], ReturnType<typeof exchangeDecision>]>([
    ['enough points, in stock', 100, good, { ok: true, value: 70 }],
    ['exactly the price', 30, good, { ok: true, value: 0 }],
    ['one point short', 29, good, { ok: false, error: 'points.insufficient', params: { balance: 29, asked: 30 } }],
    ['out of stock', 100, { ...good, stock: 0 }, { ok: false, error: 'points.out_of_stock' }],
    ['unlisted', 100, { ...good, listed: false }, { ok: false, error: 'points.goods_unlisted' }],
    ['deleted', 100, { ...good, deleted: true }, { ok: false, error: 'points.goods_unlisted' }],
  ])('%s', (_, balance, g, expected) => expect(exchangeDecision(balance, g)).toEqual(expected));
});
