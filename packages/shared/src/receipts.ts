/**
 * Receipts (收据, issue 40): the pure rules of a receipt — the amount in Chinese capitals (大写), the amount in figures,
 * the receipt number, the month of a list. The API renders with them, the web shows with them.
 */
import type { BilingualLabel } from './labels';

/** What a receipt is for: a contract's payment, a dinner's payment, or the refund (红字收据) of one of those. */
export const RECEIPT_KINDS = ['contract', 'meal', 'refund'] as const;
export type ReceiptKind = (typeof RECEIPT_KINDS)[number];

export const RECEIPT_KIND_LABELS: Record<ReceiptKind, BilingualLabel> = {
  contract: { zh: '合同缴费', en: 'Contract' },
  meal: { zh: '晚餐', en: 'Dinner' },
  refund: { zh: '退款', en: 'Refund' },
};

/** How the money moved, as the data has it: WeChat Pay, or recorded at the desk (cash, bank transfer, another channel). */
export const RECEIPT_METHODS = ['wechat', 'cash', 'bank', 'external'] as const;
export type ReceiptMethod = (typeof RECEIPT_METHODS)[number];

export const RECEIPT_METHOD_LABELS: Record<ReceiptMethod, BilingualLabel> = {
  wechat: { zh: '微信支付', en: 'WeChat Pay' },
  cash: { zh: '现金', en: 'Cash' },
  bank: { zh: '银行转账', en: 'Bank transfer' },
  external: { zh: '其他渠道', en: 'Other channel' },
};

const DIGITS = ['零', '壹', '贰', '叁', '肆', '伍', '陆', '柒', '捌', '玖'];
/** the places inside a group of four digits */
const PLACES = ['', '拾', '佰', '仟'];
/** the groups of four digits: units, 万, 亿, 万亿 */
const GROUPS = ['', '万', '亿', '万亿'];
/** the largest amount written: under 10^16 yuan (the four groups) — far above any fen a JavaScript number holds exactly */
export const CAPITALS_MAX_FEN = Number.MAX_SAFE_INTEGER;

/**
 * Whole yuan in capitals, without 元: the digits with their places, each group (万, 亿, 万亿) named once when it has a
 * digit, one 零 for any run of zeros between two digits (inside a group or across groups), none at the end of a group.
 * 10 is 壹拾 (the financial form, never 拾).
 */
function yuanCapitals(yuan: number): string {
  const digits = String(yuan);
  let out = '';
  let zero = false;
  let groupHasDigit = false;
  for (let i = 0; i < digits.length; i++) {
    const pos = digits.length - 1 - i;
    const d = Number(digits[i]);
    if (d === 0) {
      zero = out !== '';
    } else {
      if (zero) out += '零';
      out += DIGITS[d] + PLACES[pos % 4];
      zero = false;
      groupHasDigit = true;
    }
    if (pos % 4 === 0 && pos > 0) {
      if (groupHasDigit) out += GROUPS[pos / 4];
      groupHasDigit = false;
    }
  }
  return out;
}

/**
 * An amount of integer fen in Chinese capitals as a receipt writes it (人民币…): 人民币壹仟贰佰叁拾肆元伍角陆分;
 * 整 after 元 when there are no jiao and fen (人民币壹元整); one 零 for a run of zeros between two digits (壹仟零壹元整,
 * 壹拾万零壹仟元整), after 元 when the yuan end in 0 and jiao follow (壹拾元零伍角, the bank's 壹拾万柒仟元零伍角叁分) and
 * before 分 when there are yuan but no jiao (壹仟肆佰零玖元零贰分); no 元 under one yuan (人民币伍角, 人民币壹分); zero is
 * 人民币零元整. (The settlement rules let the 零 after a 0 in the 万 or 元 place be written or left out: it is written.)
 */
export function amountInCapitals(fen: number): string {
  if (!Number.isSafeInteger(fen) || fen < 0) throw new RangeError(`amountInCapitals: ${fen} is not a whole number of fen`);
  if (fen === 0) return '人民币零元整';
  const yuan = Math.floor(fen / 100);
  const jiao = Math.floor((fen % 100) / 10);
  const cents = fen % 10;
  let out = '人民币';
  if (yuan > 0) out += `${yuanCapitals(yuan)}元`;
  if (jiao === 0 && cents === 0) return `${out}整`;
  if (jiao > 0) out += `${yuan > 0 && yuan % 10 === 0 ? '零' : ''}${DIGITS[jiao]}角`;
  else if (yuan > 0) out += '零';
  if (cents > 0) out += `${DIGITS[cents]}分`;
  return out;
}

/** An amount of integer fen in figures: ¥1,234.56 (a refund's shown as it is: the receipt says it is a refund). */
export function amountInFigures(fen: number): string {
  if (!Number.isSafeInteger(fen) || fen < 0) throw new RangeError(`amountInFigures: ${fen} is not a whole number of fen`);
  const yuan = Math.floor(fen / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `¥${yuan}.${String(fen % 100).padStart(2, '0')}`;
}

/** The digits of a receipt number's counter (more when a school issues over 999,999 in a year). */
export const RECEIPT_SEQ_DIGITS = 6;

/**
 * A receipt's number: the school-local year of its issue and the school's counter of that year, `2026-000123`. Unique
 * per school (the counter row is incremented atomically), never reused.
 */
export function receiptNo(year: number, seq: number): string {
  if (!Number.isInteger(year) || year < 2000 || year > 9999) throw new RangeError(`receiptNo: year ${year}`);
  if (!Number.isInteger(seq) || seq < 1) throw new RangeError(`receiptNo: seq ${seq}`);
  return `${year}-${String(seq).padStart(RECEIPT_SEQ_DIGITS, '0')}`;
}

/** The shape of a receipt number (a keyword that looks like one is searched as one). */
export const RECEIPT_NO_RE = /^\d{4}-\d{6,}$/;

/** A school-local month 'YYYY-MM' (2000-01 to 2099-12). */
export const MONTH_RE = /^(20\d\d)-(0[1-9]|1[0-2])$/;

/** The first day of a month 'YYYY-MM' and the first day of the next one (the half-open range of its days). */
export function monthSpan(month: string): { from: string; to: string } {
  const m = MONTH_RE.exec(month);
  if (!m) throw new RangeError(`monthSpan: ${month}`);
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const next = mo === 12 ? `${y + 1}-01` : `${y}-${String(mo + 1).padStart(2, '0')}`;
  return { from: `${month}-01`, to: `${next}-01` };
}
