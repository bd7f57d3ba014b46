import {
  formatStoreItems,
  freightFor,
  parseStoreItems,
  priceOrder,
  refundsOnCancel,
  storeCan,
  storeOrderTransition,
  STORE_FREE_SHIPPING_FEN,
  STORE_FREIGHT_FEN,
  STORE_ORDER_STATES,
  type StoreOrderCommand,
  type StoreOrderState,
} from './store';

type Row = [StoreOrderState, StoreOrderCommand, string];
/** every command in every state: the state it leads to, `repeat`, or the refusal */
const TABLE: Row[] = [
  ['unpaid', 'pay', 'paid'],
  ['unpaid', 'ship', 'store.order_unpaid'],
  ['unpaid', 'confirm', 'store.order_unpaid'],
  ['unpaid', 'cancel', 'cancelled'],
  ['unpaid', 'expire', 'cancelled'],
  ['paid', 'pay', 'repeat'],
  ['paid', 'ship', 'shipped'],
  ['paid', 'confirm', 'store.order_paid'],
  ['paid', 'cancel', 'cancelled'],
  ['paid', 'expire', 'store.order_paid'],
  ['shipped', 'pay', 'store.order_shipped'],
  ['shipped', 'ship', 'repeat'],
  ['shipped', 'confirm', 'done'],
  ['shipped', 'cancel', 'store.order_shipped'],
  ['shipped', 'expire', 'store.order_shipped'],
  ['done', 'pay', 'store.order_done'],
  ['done', 'ship', 'store.order_done'],
  ['done', 'confirm', 'repeat'],
  ['done', 'cancel', 'store.order_done'],
  ['done', 'expire', 'store.order_done'],
  ['cancelled', 'pay', 'store.order_cancelled'],
  ['cancelled', 'ship', 'store.order_cancelled'],
  ['cancelled', 'confirm', 'store.order_cancelled'],
  ['cancelled', 'cancel', 'repeat'],
  ['cancelled', 'expire', 'store.order_cancelled'],
];

describe('storeOrderTransition', () => {
  it('covers every state and command', () => {
    expect(TABLE).toHaveLength(STORE_ORDER_STATES.length * 5);
  });
  it.each(TABLE)('%s + %s -> %s', (state, cmd, want) => {
    const r = storeOrderTransition(state, cmd);
    if (want.startsWith('store.')) expect(r).toEqual({ ok: false, error: want });
    else if (want === 'repeat') expect(r).toEqual({ ok: true, value: { state, repeat: true } });
    else expect(r).toEqual({ ok: true, value: { state: want, repeat: false } });
  });
  it.each(STORE_ORDER_STATES.map((s) => [s]))('the buttons of %s follow the machine', (s) => {
    expect(storeCan.pay(s)).toBe(storeOrderTransition(s, 'pay').ok && s !== 'paid');
    expect(storeCan.ship(s)).toBe(s === 'paid');
    expect(storeCan.confirm(s)).toBe(s === 'shipped');
    expect(storeCan.cancel(s)).toBe(storeOrderTransition(s, 'cancel').ok && s !== 'cancelled');
    expect(refundsOnCancel(s)).toBe(s === 'paid');
  });
});

const PEN = { id: 1, name: '晨光中性笔', price_fen: 250, stock: 10, listed: true };
const BOOK = { id: 2, name: '新华字典', price_fen: 2_990, stock: 3, listed: true };
const OFF = { id: 3, name: '下架商品', price_fen: 100, stock: 5, listed: false };

describe('priceOrder', () => {
  it.each([
    ['one line below free shipping', [{ goods_id: 1, quantity: 4 }], { goods: 1_000, freight: STORE_FREIGHT_FEN }],
    [
      'free shipping from the threshold',
      [
        { goods_id: 2, quantity: 3 },
        { goods_id: 1, quantity: 4 },
      ],
      { goods: 9_970, freight: 0 },
    ],
    [
      'the same good twice is one line',
      [
        { goods_id: 1, quantity: 2 },
        { goods_id: 1, quantity: 3 },
      ],
      { goods: 1_250, freight: STORE_FREIGHT_FEN },
    ],
  ])('%s', (_, wanted, want) => {
    const r = priceOrder(wanted, [PEN, BOOK, OFF]);
    if (!r.ok) throw new Error(r.error);
    expect(r.value.goods_fen).toBe(want.goods);
    expect(r.value.freight_fen).toBe(want.freight);
    expect(r.value.total_fen).toBe(want.goods + want.freight);
    expect(r.value.lines.reduce((n, l) => n + l.amount_fen, 0)).toBe(want.goods);
    expect(new Set(r.value.lines.map((l) => l.goods_id)).size).toBe(r.value.lines.length);
  });
  it.each([
    ['nothing', [], 'store.v.items_invalid'],
    ['unknown good', [{ goods_id: 9, quantity: 1 }], 'store.goods_not_found'],
    ['unlisted good', [{ goods_id: 3, quantity: 1 }], 'store.goods_unlisted'],
    ['more than the stock', [{ goods_id: 2, quantity: 4 }], 'store.out_of_stock'],
    [
      'more than the stock in two lines',
      [
        { goods_id: 2, quantity: 2 },
        { goods_id: 2, quantity: 2 },
      ],
      'store.out_of_stock',
    ],
    ['zero', [{ goods_id: 1, quantity: 0 }], 'store.v.quantity_invalid'],
    ['a fraction', [{ goods_id: 1, quantity: 1.5 }], 'store.v.quantity_invalid'],
  ])('refuses %s', (_, wanted, error) => {
    const r = priceOrder(wanted, [PEN, BOOK, OFF]);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toBe(error);
  });
  it('a preview prices goods that ran out', () => {
    const r = priceOrder([{ goods_id: 2, quantity: 5 }], [BOOK], false);
    expect(r.ok && r.value.total_fen).toBe(5 * 2_990);
  });
  it('freight', () => {
    expect(freightFor(STORE_FREE_SHIPPING_FEN - 1)).toBe(STORE_FREIGHT_FEN);
    expect(freightFor(STORE_FREE_SHIPPING_FEN)).toBe(0);
  });
});

describe('items in a query string', () => {
  it.each([
    ['12:2', [{ goods_id: 12, quantity: 2 }]],
    [
      '12:2,15:1',
      [
        { goods_id: 12, quantity: 2 },
        { goods_id: 15, quantity: 1 },
      ],
    ],
    ['', null],
    ['12', null],
    ['a:1', null],
    ['1:-1', null],
    [Array.from({ length: 21 }, (_, i) => `${i + 1}:1`).join(','), null],
  ])('%s', (v, want) => {
    expect(parseStoreItems(v)).toEqual(want);
    if (want) expect(formatStoreItems(want)).toBe(v);
  });
});
