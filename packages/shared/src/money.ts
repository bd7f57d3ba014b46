/**
 * Money is integer fen everywhere but on screen. These are the only conversions.
 */

/** Formats fen as yuan with two decimals: 123456 -> "1234.56", -5 -> "-0.05". */
export function formatFen(fen: number): string {
  if (!Number.isSafeInteger(fen)) throw new RangeError(`fen must be a safe integer, got ${fen}`);
  const sign = fen < 0 ? '-' : '';
  const abs = Math.abs(fen);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Parses a yuan string with at most two decimals into fen, exactly (no floating point). Returns null if it is not money. */
export function yuanToFen(yuan: string): number | null {
  const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(yuan.trim());
  if (!m) return null;
  const fen = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
  if (!Number.isSafeInteger(fen)) return null;
  return m[1] ? -fen : fen;
}

/**
 * The spec's money-input rule (§5), applied on every keystroke: keep digits and one dot,
 * at most two decimals, a leading dot becomes "0.", empty becomes "0".
 */
export function sanitizeMoneyInput(raw: string): string {
  let out = '';
  let seenDot = false;
  let decimals = 0;
  for (const ch of raw) {
    if (ch >= '0' && ch <= '9') {
      if (seenDot) {
        if (decimals === 2) continue;
        decimals++;
      }
      out += ch;
    } else if (ch === '.' && !seenDot) {
      seenDot = true;
      out += ch;
    }
  }
  if (out.startsWith('.')) out = `0${out}`;
  return out === '' ? '0' : out;
}
