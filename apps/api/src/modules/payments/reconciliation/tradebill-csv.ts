import { billDateOf, instantOf, WECHAT_BILL_ZONE, yuanToFen } from '@wantuo/shared';

/**
 * WeChat Pay's trade bill (交易账单, bill_type ALL) of one merchant and one day, as the v3 download answers it: a
 * header line, one line per payment (交易状态 SUCCESS) or refund (交易状态 REFUND), then the summary's header and its
 * line. Every value is written with a leading backtick (so a spreadsheet keeps the long numbers as text). The file is
 * read whole and refused at its first defect (TradeBillDamaged), before anything is compared: a bill half read would
 * report differences that are not there.
 */

/** One payment on the bill. */
export interface BillPayment {
  outTradeNo: string;
  transactionId: string;
  subMchid: string;
  /** 订单金额: the amount the order was made for, what the payment records (应结订单金额 is less only by merchant-funded coupons, which the platform does not issue) */
  amountFen: number;
  at: Date;
}

/** One refund on the bill. */
export interface BillRefund {
  outTradeNo: string;
  outRefundNo: string;
  refundId: string;
  subMchid: string;
  /** 申请退款金额: the amount the refund was asked for, what the refund records (退款金额 is less only by merchant-funded coupons) */
  amountFen: number;
  at: Date;
}

/** The bill's own summary line, checked against its lines. */
export interface BillSummary {
  /** 总交易单数: payment and refund lines */
  lines: number;
  /** 应结订单总金额 */
  settlementFen: number;
  /** 退款总金额 */
  refundFen: number;
  /** 充值券退款总金额 */
  couponRefundFen: number;
  /** 手续费总金额, in 0.00001 yuan (WeChat writes fees with 5 decimals) */
  feeMicroYuan: number;
  /** 订单总金额 */
  orderFen: number;
  /** 申请退款总金额 */
  appliedRefundFen: number;
}

export interface TradeBill {
  payments: BillPayment[];
  refunds: BillRefund[];
  summary: BillSummary;
}

/** A bill that cannot be read as WeChat writes it (cut, damaged, another format): nothing of it is used. */
export class TradeBillDamaged extends Error {}

/** The columns read, by their names in the header (their positions are not relied on). */
const COL = {
  time: '交易时间',
  subMchid: '特约商户号',
  transactionId: '微信订单号',
  outTradeNo: '商户订单号',
  tradeState: '交易状态',
  settlement: '应结订单金额',
  refundId: '微信退款单号',
  outRefundNo: '商户退款单号',
  refund: '退款金额',
  couponRefund: '充值券退款金额',
  refundState: '退款状态',
  fee: '手续费',
  order: '订单金额',
  appliedRefund: '申请退款金额',
} as const;

const SUM = {
  lines: '总交易单数',
  settlement: '应结订单总金额',
  refund: '退款总金额',
  couponRefund: '充值券退款总金额',
  fee: '手续费总金额',
  order: '订单总金额',
  appliedRefund: '申请退款总金额',
} as const;

const TIME_RE = /^(\d{4}-\d{2}-\d{2}) ((?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d)$/;
const FEE_RE = /^(-?)(\d+)(?:\.(\d{1,5}))?$/;

/** Parses and checks a trade bill; throws TradeBillDamaged with the line and the reason. */
export function parseTradeBill(text: string): TradeBill {
  const lines = text
    .replace(/^\uFEFF/, '')
    .split('\n')
    .map((l) => l.replace(/\r$/, ''));
  while (lines.length && lines[lines.length - 1] === '') lines.pop();
  const fail = (line: number, why: string): never => {
    throw new TradeBillDamaged(`trade bill, line ${line}: ${why}`);
  };

  if (!lines.length) fail(1, 'the file is empty');
  const header = columnsOf(lines[0], Object.values(COL), () => fail(1, `not the trade bill's header (${clip(lines[0])})`));
  const summaryAt = lines.findIndex((l, i) => i > 0 && l.split(',')[0] === SUM.lines);
  if (summaryAt < 0) fail(lines.length, 'no summary (总交易单数…): the file is cut');
  if (summaryAt !== lines.length - 2) fail(summaryAt + 1, 'the summary header must be followed by its one line and nothing else');
  const sumHeader = columnsOf(lines[summaryAt], Object.values(SUM), () =>
    fail(summaryAt + 1, `not the summary's header (${clip(lines[summaryAt])})`),
  );

  const payments: BillPayment[] = [];
  const refunds: BillRefund[] = [];
  const seenTrades = new Set<string>();
  const seenRefunds = new Set<string>();
  const totals = { settlement: 0, refund: 0, couponRefund: 0, fee: 0, order: 0, appliedRefund: 0 };

  for (let i = 1; i < summaryAt; i++) {
    const n = i + 1;
    const f = fieldsOf(lines[i], header.count, (why) => fail(n, why));
    const get = (name: keyof typeof COL) => f[header.at[COL[name]]];
    const money = (name: keyof typeof COL) => {
      const fen = fenOf(get(name));
      if (fen === null) fail(n, `${COL[name]} "${clip(get(name))}" is not an amount`);
      return fen!;
    };
    const m = TIME_RE.exec(get('time'));
    if (!m) fail(n, `交易时间 "${clip(get('time'))}" is not a time`);
    // the bill's times are China time (WeChat keeps its bills in CST, which has no daylight saving)
    const at = instantOf(m![1], m![2], WECHAT_BILL_ZONE);
    if (Number.isNaN(at.getTime()) || billDateOf(at) !== m![1]) fail(n, `交易时间 "${get('time')}" is not a time`);
    const subMchid = get('subMchid');
    const outTradeNo = get('outTradeNo');
    if (!outTradeNo) fail(n, 'no 商户订单号');
    const settlement = money('settlement');
    const refund = money('refund');
    const couponRefund = money('couponRefund');
    const order = money('order');
    const appliedRefund = money('appliedRefund');
    const fee = microYuanOf(get('fee'));
    if (fee === null) fail(n, `手续费 "${clip(get('fee'))}" is not an amount`);
    totals.fee += fee!;

    const state = get('tradeState');
    // the order totals add up the payment lines and the refund totals the refund lines: a refund line repeats its
    // order's amounts (应结订单金额, 订单金额) in some bills and writes 0.00 in others, and neither counts them twice
    if (state === 'SUCCESS') {
      totals.settlement += settlement;
      totals.order += order;
      if (!get('transactionId')) fail(n, 'a payment without 微信订单号');
      if (seenTrades.has(outTradeNo)) fail(n, `the payment ${outTradeNo} is listed twice`);
      seenTrades.add(outTradeNo);
      payments.push({ outTradeNo, transactionId: get('transactionId'), subMchid, amountFen: order, at });
    } else if (state === 'REFUND') {
      totals.refund += refund;
      totals.couponRefund += couponRefund;
      totals.appliedRefund += appliedRefund;
      const outRefundNo = get('outRefundNo');
      if (!outRefundNo || !get('refundId')) fail(n, 'a refund without 商户退款单号 or 微信退款单号');
      if (seenRefunds.has(outRefundNo)) fail(n, `the refund ${outRefundNo} is listed twice`);
      seenRefunds.add(outRefundNo);
      // a refund WeChat has not finished (PROCESSING) moved no money yet: it counts in the summary, not in the comparison
      if (get('refundState') === 'SUCCESS')
        refunds.push({ outTradeNo, outRefundNo, refundId: get('refundId'), subMchid, amountFen: appliedRefund, at });
    } else {
      fail(n, `交易状态 "${clip(state)}" is neither SUCCESS nor REFUND`);
    }
  }

  const s = fieldsOf(lines[summaryAt + 1], sumHeader.count, (why) => fail(summaryAt + 2, `summary: ${why}`));
  const sget = (name: keyof typeof SUM) => s[sumHeader.at[SUM[name]]];
  const sumMoney = (name: Exclude<keyof typeof SUM, 'lines' | 'fee'>) => {
    const fen = fenOf(sget(name));
    if (fen === null) fail(summaryAt + 2, `${SUM[name]} "${clip(sget(name))}" is not an amount`);
    return fen!;
  };
  if (!/^\d+$/.test(sget('lines'))) fail(summaryAt + 2, `总交易单数 "${clip(sget('lines'))}" is not a count`);
  const fee = microYuanOf(sget('fee'));
  if (fee === null) fail(summaryAt + 2, `手续费总金额 "${clip(sget('fee'))}" is not an amount`);
  const summary: BillSummary = {
    lines: Number(sget('lines')),
    settlementFen: sumMoney('settlement'),
    refundFen: sumMoney('refund'),
    couponRefundFen: sumMoney('couponRefund'),
    feeMicroYuan: fee!,
    orderFen: sumMoney('order'),
    appliedRefundFen: sumMoney('appliedRefund'),
  };
  const count = summaryAt - 1;
  if (summary.lines !== count) fail(summaryAt + 2, `总交易单数 says ${summary.lines} lines, the bill has ${count}`);
  const check = (name: keyof typeof totals, said: number, label: string, unit = 100) => {
    if (said !== totals[name]) fail(summaryAt + 2, `${label} says ${said / unit}, its lines add up to ${totals[name] / unit}`);
  };
  check('settlement', summary.settlementFen, SUM.settlement);
  check('refund', summary.refundFen, SUM.refund);
  check('couponRefund', summary.couponRefundFen, SUM.couponRefund);
  check('fee', summary.feeMicroYuan, SUM.fee, 100_000);
  check('order', summary.orderFen, SUM.order);
  check('appliedRefund', summary.appliedRefundFen, SUM.appliedRefund);
  return { payments, refunds, summary };
}

/** A header's columns by name: every one of `needed` present, none twice. */
function columnsOf(line: string, needed: readonly string[], bad: () => never): { at: Record<string, number>; count: number } {
  const names = line.split(',');
  const at: Record<string, number> = {};
  names.forEach((name, i) => {
    if (name in at) bad();
    at[name] = i;
  });
  if (needed.some((name) => !(name in at))) bad();
  return { at, count: names.length };
}

/**
 * A line's values: each written `` `value ``, separated by commas. Split on ",`" (not on every comma), so a product
 * name with a comma in it stays one value.
 */
function fieldsOf(line: string, count: number, bad: (why: string) => never): string[] {
  if (!line.startsWith('`')) bad('a value without its leading backtick');
  const fields = line.slice(1).split(',`');
  if (fields.length !== count) bad(`${fields.length} values where the header has ${count}`);
  return fields;
}

/** An amount of the bill (yuan, at most 2 decimals, never negative) in fen, by yuanToFen; null when not one. */
function fenOf(text: string): number | null {
  return /^\d+(\.\d{1,2})?$/.test(text) ? yuanToFen(text) : null;
}

/** A fee (up to 5 decimals) as an integer count of 0.00001 yuan, without floating point; null when not an amount. */
function microYuanOf(text: string): number | null {
  const m = FEE_RE.exec(text);
  if (!m) return null;
  const v = Number(m[2]) * 100_000 + Number((m[3] ?? '').padEnd(5, '0'));
  if (!Number.isSafeInteger(v)) return null;
  return m[1] ? -v : v;
}

const clip = (s: string) => (s.length > 60 ? `${s.slice(0, 60)}…` : s);
