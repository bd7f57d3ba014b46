import { parseTradeBill, TradeBillDamaged } from './tradebill-csv';

const HEADER =
  '交易时间,公众账号ID,商户号,特约商户号,设备号,微信订单号,商户订单号,用户标识,交易类型,交易状态,付款银行,货币种类,应结订单金额,代金券金额,微信退款单号,商户退款单号,退款金额,充值券退款金额,退款类型,退款状态,商品名称,商户数据包,手续费,费率,订单金额,申请退款金额,费率备注';
const SUMMARY_HEADER = '总交易单数,应结订单总金额,退款总金额,充值券退款总金额,手续费总金额,订单总金额,申请退款总金额';

type Line = Partial<Record<string, string>>;
const COLUMNS = HEADER.split(',');

/** A payment line as WeChat writes it (every value after a backtick). */
const pay = (o: Line = {}): Line => ({
  交易时间: '2026-12-06 09:15:02',
  公众账号ID: 'wxsandbox00000001',
  商户号: '1900000109',
  特约商户号: '1900000301',
  设备号: '',
  微信订单号: '4200000001202612060000000001',
  商户订单号: 'C20261206091500ABCDEFGHJKLM',
  用户标识: 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o',
  交易类型: 'JSAPI',
  交易状态: 'SUCCESS',
  付款银行: 'OTHERS',
  货币种类: 'CNY',
  应结订单金额: '120.50',
  代金券金额: '0.00',
  微信退款单号: '0',
  商户退款单号: '0',
  退款金额: '0.00',
  充值券退款金额: '0.00',
  退款类型: '',
  退款状态: '',
  商品名称: '托管费,12月',
  商户数据包: '',
  手续费: '0.72000',
  费率: '0.60%',
  订单金额: '120.50',
  申请退款金额: '0.00',
  费率备注: '',
  ...o,
});

const refund = (o: Line = {}): Line =>
  pay({
    交易时间: '2026-12-06 15:40:11',
    交易状态: 'REFUND',
    应结订单金额: '0.00',
    微信退款单号: '50300000012026120600000000001',
    商户退款单号: 'R20261206154000ABCDEFGHJKLM',
    退款金额: '20.00',
    退款类型: 'ORIGINAL',
    退款状态: 'SUCCESS',
    手续费: '-0.12000',
    订单金额: '0.00',
    申请退款金额: '20.00',
    ...o,
  });

const row = (l: Line, columns = COLUMNS) => columns.map((c) => '`' + (l[c] ?? '')).join(',');

/** The summary WeChat would write for `lines` (order totals of the payment lines, refund totals of the refund lines), with `o` overriding. */
function summaryOf(lines: Line[], o: Record<string, string> = {}): string {
  const fen = (c: string) =>
    lines.filter((l) => (l['交易状态'] === 'REFUND') === /退款/.test(c)).reduce((s, l) => s + Math.round(Number(l[c] ?? 0) * 100), 0);
  const micro = lines.reduce((s, l) => s + Math.round(Number(l['手续费'] ?? 0) * 100_000), 0);
  const yuan = (f: number) => (f / 100).toFixed(2);
  const v: Record<string, string> = {
    总交易单数: String(lines.length),
    应结订单总金额: yuan(fen('应结订单金额')),
    退款总金额: yuan(fen('退款金额')),
    充值券退款总金额: yuan(fen('充值券退款金额')),
    手续费总金额: (micro / 100_000).toFixed(5),
    订单总金额: yuan(fen('订单金额')),
    申请退款总金额: yuan(fen('申请退款金额')),
    ...o,
  };
  return SUMMARY_HEADER.split(',')
    .map((c) => '`' + v[c])
    .join(',');
}

const bill = (lines: Line[], o: { summary?: Record<string, string>; eol?: string } = {}) =>
  [HEADER, ...lines.map((l) => row(l)), SUMMARY_HEADER, summaryOf(lines, o.summary), ''].join(o.eol ?? '\n');

describe('parseTradeBill', () => {
  it('reads payments and refunds, amounts in fen (no floats), times China time', () => {
    const b = parseTradeBill(
      bill([pay(), pay({ 商户订单号: 'C2', 微信订单号: '4202', 应结订单金额: '0.07', 订单金额: '0.07', 手续费: '0.00000' }), refund()]),
    );
    expect(b.payments).toEqual([
      {
        outTradeNo: 'C20261206091500ABCDEFGHJKLM',
        transactionId: '4200000001202612060000000001',
        subMchid: '1900000301',
        amountFen: 12050,
        at: new Date('2026-12-06T01:15:02Z'),
      },
      { outTradeNo: 'C2', transactionId: '4202', subMchid: '1900000301', amountFen: 7, at: new Date('2026-12-06T01:15:02Z') },
    ]);
    expect(b.refunds).toEqual([
      {
        outTradeNo: 'C20261206091500ABCDEFGHJKLM',
        outRefundNo: 'R20261206154000ABCDEFGHJKLM',
        refundId: '50300000012026120600000000001',
        subMchid: '1900000301',
        amountFen: 2000,
        at: new Date('2026-12-06T07:40:11Z'),
      },
    ]);
    expect(b.summary).toEqual({
      lines: 3,
      settlementFen: 12057,
      refundFen: 2000,
      couponRefundFen: 0,
      feeMicroYuan: 60_000,
      orderFen: 12057,
      appliedRefundFen: 2000,
    });
  });

  it('the example as a file would hold it: BOM, CRLF, the product name with a comma', () => {
    const b = parseTradeBill('\uFEFF' + bill([pay()], { eol: '\r\n' }));
    expect(b.payments).toHaveLength(1);
    expect(b.payments[0].amountFen).toBe(12050);
  });

  it('a refund line that repeats its order’s amounts (the order totals count the payment lines only)', () => {
    const text = bill([pay(), refund({ 应结订单金额: '120.50', 订单金额: '120.50' })]);
    expect(text.split('\n').at(-2)).toBe('`2,`120.50,`20.00,`0.00,`0.60000,`120.50,`20.00');
    const b = parseTradeBill(text);
    expect(b.refunds[0].amountFen).toBe(2000);
    expect(b.summary).toMatchObject({ settlementFen: 12050, orderFen: 12050, refundFen: 2000 });
  });

  it('a day without trade: no lines, a summary of zeros', () => {
    expect(parseTradeBill(bill([]))).toEqual({
      payments: [],
      refunds: [],
      summary: { lines: 0, settlementFen: 0, refundFen: 0, couponRefundFen: 0, feeMicroYuan: 0, orderFen: 0, appliedRefundFen: 0 },
    });
  });

  it('finds columns by name, not position (a column moved, one added)', () => {
    const columns = [...COLUMNS.filter((c) => c !== '订单金额'), '订单金额', '新列'];
    const text = [columns.join(','), row(pay({ 新列: 'x' }), columns), SUMMARY_HEADER, summaryOf([pay()])].join('\n');
    expect(parseTradeBill(text).payments[0]).toMatchObject({ amountFen: 12050, outTradeNo: 'C20261206091500ABCDEFGHJKLM' });
  });

  it('a refund WeChat has not finished is not compared (the summary still counts it)', () => {
    const b = parseTradeBill(bill([pay(), refund({ 退款状态: 'PROCESSING' })]));
    expect(b.refunds).toEqual([]);
    expect(b.summary.lines).toBe(2);
  });

  const good = [pay(), refund()];
  const replaceLine = (text: string, n: number, to: (line: string) => string) =>
    text
      .split('\n')
      .map((l, i) => (i === n - 1 ? to(l) : l))
      .join('\n');

  it.each<[string, string, RegExp]>([
    ['an empty file', '', /line 1: the file is empty/],
    ['another file (an error page)', '<html>Bad Gateway</html>\n', /line 1: not the trade bill's header/],
    ['a header without a column it needs', bill(good).replace(',申请退款金额', ',申请金额'), /line 1: not the trade bill's header/],
    ['a header with a column twice', bill(good).replace('费率备注', '费率'), /line 1: not the trade bill's header/],
    ['a file cut before its summary', bill(good).split('\n').slice(0, 3).join('\n'), /line 3: no summary .* the file is cut/],
    [
      'a summary header without its line',
      bill(good).split('\n').slice(0, 4).join('\n'),
      /line 4: the summary header must be followed by its one line/,
    ],
    ['something after the summary', bill(good) + 'more\n', /line 4: the summary header must be followed by its one line/],
    ['a summary header missing a total', bill(good).replace(',申请退款总金额', ''), /line 4: not the summary's header/],
    ['a line with a value too few', replaceLine(bill(good), 2, (l) => l.replace(',`0.60%', '')), /line 2: 26 values where the header has 27/],
    ['a line with a value too many', replaceLine(bill(good), 3, (l) => l + ',`x'), /line 3: 28 values where the header has 27/],
    ['a line without backticks', replaceLine(bill(good), 2, (l) => l.replace(/`/g, '')), /line 2: a value without its leading backtick/],
    ['an amount that is not money', bill([pay({ 订单金额: '12O.50' }), refund()]), /line 2: 订单金额 "12O.50" is not an amount/],
    ['an amount with three decimals', bill([pay({ 应结订单金额: '120.505' }), refund()]), /line 2: 应结订单金额 "120.505" is not an amount/],
    ['a negative amount', bill([pay(), refund({ 退款金额: '-20.00' })]), /line 3: 退款金额 "-20.00" is not an amount/],
    ['a fee that is not money', bill([pay({ 手续费: '0.7200000' }), refund()]), /line 2: 手续费 "0.7200000" is not an amount/],
    ['a time that is not one', bill([pay({ 交易时间: '2026-12-06 24:15:02' }), refund()]), /line 2: 交易时间 "2026-12-06 24:15:02" is not a time/],
    [
      'a date that does not exist',
      bill([pay({ 交易时间: '2026-02-30 09:15:02' }), refund()]),
      /line 2: 交易时间 "2026-02-30 09:15:02" is not a time/,
    ],
    ['an unknown trade state', bill([pay({ 交易状态: 'REVOKED' }), refund()]), /line 2: 交易状态 "REVOKED" is neither SUCCESS nor REFUND/],
    ['a payment without its order number', bill([pay({ 商户订单号: '' })]), /line 2: no 商户订单号/],
    ['a payment without its transaction id', bill([pay({ 微信订单号: '' })]), /line 2: a payment without 微信订单号/],
    ['a refund without its refund number', bill([pay(), refund({ 商户退款单号: '' })]), /line 3: a refund without 商户退款单号 or 微信退款单号/],
    ['a payment listed twice', bill([pay(), pay()]), /line 3: the payment C20261206091500ABCDEFGHJKLM is listed twice/],
    ['a refund listed twice', bill([pay(), refund(), refund()]), /line 4: the refund R20261206154000ABCDEFGHJKLM is listed twice/],
    ['a summary count that does not match', bill(good, { summary: { 总交易单数: '3' } }), /line 5: 总交易单数 says 3 lines, the bill has 2/],
    ['a summary count that is not one', bill(good, { summary: { 总交易单数: '2.0' } }), /line 5: 总交易单数 "2.0" is not a count/],
    [
      'a settlement total that does not match',
      bill(good, { summary: { 应结订单总金额: '120.49' } }),
      /应结订单总金额 says 120.49, its lines add up to 120.5/,
    ],
    ['a refund total that does not match', bill(good, { summary: { 退款总金额: '21.00' } }), /退款总金额 says 21, its lines add up to 20/],
    ['a coupon refund total that does not match', bill(good, { summary: { 充值券退款总金额: '0.01' } }), /充值券退款总金额 says 0.01/],
    ['a fee total that does not match', bill(good, { summary: { 手续费总金额: '0.60001' } }), /手续费总金额 says 0.60001, its lines add up to 0.6/],
    ['an order total that does not match', bill(good, { summary: { 订单总金额: '0.00' } }), /订单总金额 says 0, its lines add up to 120.5/],
    [
      'an applied refund total that does not match',
      bill(good, { summary: { 申请退款总金额: '2.00' } }),
      /申请退款总金额 says 2, its lines add up to 20/,
    ],
    ['a summary total that is not money', bill(good, { summary: { 退款总金额: 'abc' } }), /line 5: 退款总金额 "abc" is not an amount/],
    ['a summary line of the wrong width', bill(good).replace(/\n`2,.*\n$/, '\n`2,`120.50\n'), /line 5: summary: 2 values where the header has 7/],
  ])('refuses %s', (_, text, why) => {
    expect(() => parseTradeBill(text)).toThrow(TradeBillDamaged);
    expect(() => parseTradeBill(text)).toThrow(why);
  });
});
