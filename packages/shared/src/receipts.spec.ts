import { amountInCapitals, amountInFigures, monthSpan, RECEIPT_NO_RE, receiptNo } from './receipts';

const yuan = (y: number) => Math.round(y * 100);

describe('amountInCapitals', () => {
  it.each([
    [0, '人民币零元整'],
    [1, '人民币壹分'],
    [10, '人民币壹角'],
    [15, '人民币壹角伍分'],
    [yuan(1), '人民币壹元整'],
    [yuan(10), '人民币壹拾元整'],
    [yuan(11), '人民币壹拾壹元整'],
    [yuan(20), '人民币贰拾元整'],
    [yuan(100), '人民币壹佰元整'],
    [yuan(101), '人民币壹佰零壹元整'],
    [yuan(110), '人民币壹佰壹拾元整'],
    [yuan(1001), '人民币壹仟零壹元整'],
    [yuan(1010), '人民币壹仟零壹拾元整'],
    [yuan(1100), '人民币壹仟壹佰元整'],
    [yuan(10_000), '人民币壹万元整'],
    [yuan(10_100), '人民币壹万零壹佰元整'],
    [yuan(100_000), '人民币壹拾万元整'],
    [yuan(101_000), '人民币壹拾万零壹仟元整'],
    [yuan(1_000_000), '人民币壹佰万元整'],
    [yuan(10_000_001), '人民币壹仟万零壹元整'],
    [yuan(10_010_000), '人民币壹仟零壹万元整'],
    [yuan(100_000_000), '人民币壹亿元整'],
    [yuan(100_010_000), '人民币壹亿零壹万元整'],
    [yuan(100_000_001), '人民币壹亿零壹元整'],
    [yuan(20_000_000_000), '人民币贰佰亿元整'],
    [yuan(1_000_000_000_001), '人民币壹万亿零壹元整'],
    [yuan(1_0001_0000_0000), '人民币壹万亿零壹亿元整'],
    [123456, '人民币壹仟贰佰叁拾肆元伍角陆分'],
    [123456789, '人民币壹佰贰拾叁万肆仟伍佰陆拾柒元捌角玖分'],
    // the settlement rules' examples (中国人民银行《支付结算办法》附一); where they allow the 零 after a 0 in the 万 or 元
    // place to be written or left out, it is written (their 壹拾万柒仟元零伍角叁分 / 壹拾万零柒仟元伍角叁分)
    [140902, '人民币壹仟肆佰零玖元零贰分'],
    [168032, '人民币壹仟陆佰捌拾元零叁角贰分'],
    [10700053, '人民币壹拾万零柒仟元零伍角叁分'],
    [600700, '人民币陆仟零柒元整'],
    // 零 before 分 when there are yuan but no jiao; none under one yuan
    [1005, '人民币壹拾元零伍分'],
    [5, '人民币伍分'],
    [50, '人民币伍角'],
    [1050, '人民币壹拾元零伍角'],
    [1250, '人民币壹拾贰元伍角'],
    [120000, '人民币壹仟贰佰元整'],
  ])('%i fen is %s', (fen, capitals) => expect(amountInCapitals(fen)).toBe(capitals));

  it.each([[-1], [1.5], [Number.NaN], [Number.POSITIVE_INFINITY]])('refuses %p', (fen) => expect(() => amountInCapitals(fen)).toThrow(RangeError));
});

describe('amountInFigures', () => {
  it.each([
    [0, '¥0.00'],
    [1, '¥0.01'],
    [10, '¥0.10'],
    [123456, '¥1,234.56'],
    [100000000, '¥1,000,000.00'],
    [123456789, '¥1,234,567.89'],
  ])('%i fen is %s', (fen, figures) => expect(amountInFigures(fen)).toBe(figures));
});

describe('receiptNo', () => {
  it.each([
    [2026, 1, '2026-000001'],
    [2026, 123, '2026-000123'],
    [2027, 999_999, '2027-999999'],
    [2027, 1_000_000, '2027-1000000'],
  ])('%i #%i is %s', (year, seq, no) => {
    expect(receiptNo(year, seq)).toBe(no);
    expect(RECEIPT_NO_RE.test(no)).toBe(true);
  });
  it.each([
    [1999, 1],
    [2026, 0],
    [2026, 1.5],
  ])('refuses %i #%p', (year, seq) => expect(() => receiptNo(year, seq)).toThrow(RangeError));
});

describe('monthSpan', () => {
  it.each([
    ['2026-12', { from: '2026-12-01', to: '2027-01-01' }],
    ['2026-02', { from: '2026-02-01', to: '2026-03-01' }],
  ])('%s', (m, span) => expect(monthSpan(m)).toEqual(span));
  it.each(['2026-13', '2026-1', '26-01', ''])('refuses %p', (m) => expect(() => monthSpan(m)).toThrow(RangeError));
});
