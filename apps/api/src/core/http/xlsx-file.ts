import type { Worksheet } from 'exceljs';
import { XLSX_TYPE, type FileAnswer } from './send-file';

type Cell = string | number | null | undefined;

/** One column of a sheet: its header, how to read it from a row, its width; `money` shows fen as yuan (#,##0.00). */
export interface Column<R> {
  header: string;
  value: (row: R) => Cell;
  width?: number;
  /** the value is integer fen: written as yuan with two decimals */
  money?: boolean;
  /** summed into the total row */
  sum?: boolean;
  /** the column's number format, e.g. '@' (text: what is typed stays as typed); `money` implies #,##0.00 */
  format?: string;
}

export interface Sheet<R> {
  name: string;
  columns: Column<R>[];
  rows: readonly R[];
  /** a bold 合计 row under the rows, summing the columns marked `sum` */
  total?: boolean;
  /** free rows after the table (notes, a legend) */
  after?: Cell[][];
}

/** A sheet of label/value or free rows (a template's notes, an exam's details): the first row bold when `header`. */
export interface PlainSheet {
  name: string;
  rows: Cell[][];
  header?: boolean;
  widths?: number[];
}

const MONEY_FORMAT = '#,##0.00';

/**
 * The one way an export writes an .xlsx: typed columns (header, value, width, money, sum) instead of parallel arrays of
 * headers, cells and widths. exceljs is loaded on the first export, not when the API starts.
 */
export async function xlsxFile(filename: string, sheets: Array<Sheet<never> | PlainSheet>): Promise<FileAnswer> {
  const { Workbook } = await import('exceljs');
  const wb = new Workbook();
  for (const sheet of sheets) {
    const ws = wb.addWorksheet(sheet.name);
    if ('columns' in sheet) writeTable(ws, sheet as unknown as Sheet<unknown>);
    else writePlain(ws, sheet);
  }
  return { body: Buffer.from(await wb.xlsx.writeBuffer()), contentType: XLSX_TYPE, filename };
}

/** A typed sheet for xlsxFile (keeps the row type of `columns` and `rows` together). */
export const sheet = <R>(s: Sheet<R>): Sheet<never> => s as unknown as Sheet<never>;

function writeTable<R>(ws: Worksheet, s: Sheet<R>): void {
  const cellOf = (c: Column<R>, r: R): Cell => {
    const v = c.value(r);
    return c.money && typeof v === 'number' ? v / 100 : (v ?? '');
  };
  ws.addRow(s.columns.map((c) => c.header)).font = { bold: true };
  ws.addRows(s.rows.map((r) => s.columns.map((c) => cellOf(c, r))));
  if (s.total) {
    const sums = s.columns.map((c, i) => {
      if (i === 0) return '合计';
      if (!c.sum) return '';
      const fen = s.rows.reduce((n, r) => n + (Number(c.value(r)) || 0), 0);
      return c.money ? fen / 100 : fen;
    });
    ws.addRow(sums).font = { bold: true };
  }
  for (const row of s.after ?? []) ws.addRow(row.map((v) => v ?? ''));
  s.columns.forEach((c, i) => {
    const col = ws.getColumn(i + 1);
    if (c.width) col.width = c.width;
    const format = c.format ?? (c.money ? MONEY_FORMAT : undefined);
    if (format) col.numFmt = format;
  });
}

function writePlain(ws: Worksheet, s: PlainSheet): void {
  s.rows.forEach((row, i) => {
    const added = ws.addRow(row.map((v) => v ?? ''));
    if (i === 0 && s.header) added.font = { bold: true };
  });
  s.widths?.forEach((w, i) => {
    ws.getColumn(i + 1).width = w;
  });
}
