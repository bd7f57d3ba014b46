/**
 * Reading the cells of an imported spreadsheet (.xlsx or .csv) the way school staff fill them in: a mobile typed with
 * spaces, dashes or a country code, a date typed as 2018/3/15 or 2017.11.02, a date cell, or a date cell that lost
 * its format and shows the Excel serial (43000), full-width digits from a Chinese input method, stray spaces. Pure
 * functions: the API's imports read every cell through them.
 */
import { MOBILE_RE } from './patterns';

/** Full-width digits, letters and punctuation (０-９, ／, ．, －, ＋, the ideographic space) as their ASCII forms. */
const narrow = (v: string) => v.normalize('NFKC');

/**
 * The text of a spreadsheet cell value as a reader gives it (exceljs: string, number, boolean, Date, rich text,
 * formula with result, hyperlink, error): a date cell as the date it shows (YYYY-MM-DD, or with the time when it has
 * one), a formula as its result, anything else as typed.
 */
export function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return dateCellText(v);
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (Array.isArray(o.richText)) return o.richText.map((r: { text?: unknown }) => String(r?.text ?? '')).join('');
    if ('formula' in o || 'sharedFormula' in o) return cellText(o.result);
    if ('text' in o) return cellText(o.text);
    return '';
  }
  return String(v);
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/**
 * A date cell's value as the date it shows. Readers (exceljs among them) give a date cell as the JS Date whose UTC
 * wall clock is the cell's wall clock (the serial has no zone), so it is read in UTC, never in the process's zone: a
 * server in UTC-5 must not turn 2018-03-15 into 2018-03-14. A time of day other than midnight is kept after the date.
 */
function dateCellText(d: Date): string {
  if (Number.isNaN(d.getTime())) return '';
  const day = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  const h = d.getUTCHours();
  const m = d.getUTCMinutes();
  const s = d.getUTCSeconds();
  return h || m || s ? `${day} ${pad(h)}:${pad(m)}${s ? `:${pad(s)}` : ''}` : day;
}

/**
 * A mobile number as the 11 digits the platform keys accounts by, or null when it is not a mainland mobile. Spaces
 * (also non-breaking and ideographic), dashes, dots and brackets are dropped; a country code +86 / 0086 / 86 before
 * the 11 digits is dropped; full-width digits count. A number cell (13912345602) reads the same.
 */
export function normaliseMobile(v: unknown): string | null {
  if (typeof v === 'number') v = Number.isSafeInteger(v) ? String(v) : '';
  if (typeof v !== 'string') return null;
  let s = narrow(v).replace(/[\s\u00a0\u3000\-‐‑‒–—―−.()（）[\]]/g, '');
  // a country code: +86, 0086, 86 (written before the 11 digits; 86 alone only when exactly 13 digits remain)
  if (/^\+86\d{11}$/.test(s)) s = s.slice(3);
  else if (/^0086\d{11}$/.test(s)) s = s.slice(4);
  else if (/^86\d{11}$/.test(s)) s = s.slice(2);
  return MOBILE_RE.test(s) ? s : null;
}

/** The largest serial Excel shows as a date: 9999-12-31. */
const MAX_SERIAL = 2_958_465;
const DAY_MS = 86_400_000;

/** YYYY-MM-DD of year, month, day when it is a real calendar date, else null. */
function calendarDay(y: number, m: number, d: number): string | null {
  if (y < 1000 || y > 9999 || m < 1 || m > 12 || d < 1) return null;
  const t = new Date(Date.UTC(y, m - 1, d));
  if (t.getUTCMonth() !== m - 1 || t.getUTCDate() !== d) return null;
  return `${pad(y, 4)}-${pad(m)}-${pad(d)}`;
}

/**
 * The date of an Excel serial (days since 1900-01-00, the time of day in the fraction). Excel's 1900 date system
 * counts a 29 February 1900 that never was (serial 60, Lotus 1-2-3's leap-year bug): serials from 61 are one day
 * further from 1899-12-31 than they look, serials 1-59 are not; 60 itself is no date. The 1904 system (old Mac
 * workbooks) counts from 1904-01-01 = 0 and has no such day.
 */
export function excelSerialDay(serial: number, date1904 = false): string | null {
  if (!Number.isFinite(serial) || serial < 1 || serial > MAX_SERIAL) return null;
  const whole = Math.floor(serial + 1e-9);
  let ms: number;
  if (date1904) ms = Date.UTC(1904, 0, 1) + whole * DAY_MS;
  else if (whole === 60) return null;
  else ms = Date.UTC(1899, 11, whole < 60 ? 31 : 30) + whole * DAY_MS;
  const d = new Date(ms);
  return calendarDay(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
}

/**
 * A date cell as YYYY-MM-DD, or null when it is no date. Reads what staff type and what spreadsheets keep:
 * - a date cell (a JS Date from the reader, read in UTC: see `cellText`), also with a time of day;
 * - 2018-03-15, 2018/3/15, 2017.11.02, 2018年3月15日, 20180315, with a time after it (2018-03-15 08:00:00), with
 *   full-width digits or stray spaces;
 * - an Excel serial, as a number or as numeric text (43000, 43000.5: a date cell that lost its format, or a CSV saved
 *   from such a sheet), in the 1900 date system unless `date1904`.
 * Day-month orders (15/03/2018, 03/15/2018) are ambiguous and not read.
 */
export function readDateCell(v: unknown, date1904 = false): string | null {
  if (v instanceof Date) {
    if (Number.isNaN(v.getTime())) return null;
    return calendarDay(v.getUTCFullYear(), v.getUTCMonth() + 1, v.getUTCDate());
  }
  if (typeof v === 'number') return excelSerialDay(v, date1904);
  if (typeof v !== 'string') return null;
  const s = narrow(v).trim().replace(/\s+/g, ' ');
  if (!s) return null;
  // year first, then month and day, separated by - / . or 年 月 (日), with an optional time of day after
  let m = /^(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*日?(?:[ T]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(s);
  if (m) return calendarDay(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{4})(\d{2})(\d{2})$/.exec(s);
  if (m && (m[1].startsWith('19') || m[1].startsWith('20'))) return calendarDay(Number(m[1]), Number(m[2]), Number(m[3]));
  // an Excel serial as text: up to 7 digits, an optional fraction (the time)
  if (/^\d{1,7}(\.\d+)?$/.test(s)) return excelSerialDay(Number(s), date1904);
  return null;
}

/**
 * A whole number cell (an id) as its digits, or null: full-width digits and spaces are fine, and a number cell that a
 * spreadsheet wrote as 12.0 reads as 12.
 */
export function readWholeCell(v: unknown, maxDigits = 9): string | null {
  if (typeof v === 'number') return Number.isSafeInteger(v) && v >= 0 && String(v).length <= maxDigits ? String(v) : null;
  if (typeof v !== 'string') return null;
  const s = narrow(v).replace(/[\s\u00a0]/g, '');
  const m = /^(\d+)(?:\.0+)?$/.exec(s);
  if (!m) return null;
  const digits = m[1].replace(/^0+(?=\d)/, '');
  return digits.length <= maxDigits ? digits : null;
}
