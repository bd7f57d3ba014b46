import { cellText, type MessageKey } from '@wantuo/shared';
import { promisify } from 'node:util';
import { inflateRaw as inflateRawCb, type ZlibOptions } from 'node:zlib';
import { AppError } from '../../core/http/app-error';

const inflateRaw = promisify<Buffer, ZlibOptions, Buffer>(inflateRawCb);

/**
 * How many bytes an uploaded workbook may unpack to, all its parts together. An import sheet of the largest allowed
 * size (5,000 rows of the longest texts) unpacks to about 30 MB; anything much larger is padding or a zip bomb, and
 * exceljs would hold all of it in memory (several times over, as strings and cell objects) before counting a row.
 */
export const UNZIPPED_MAX_BYTES = 40 * 1024 * 1024;
/** The most parts an .xlsx may have (a workbook has about ten; a few hundred with many sheets and pictures). */
const MAX_ENTRIES = 2000;

const SIG_EOCD = 0x06054b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_LOCAL = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  /** where the entry's data begins in the file */
  dataOffset: number;
}

/** The entries of a zip as its central directory lists them, or null when it is not a readable zip. */
export function zipEntries(zip: Buffer): ZipEntry[] | null {
  // the end-of-central-directory record: 22 bytes and a comment of at most 65,535, at the end of the file
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === SIG_EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return null;
  const count = zip.readUInt16LE(eocd + 10);
  const cdOffset = zip.readUInt32LE(eocd + 16);
  if (count > MAX_ENTRIES) return null;
  const entries: ZipEntry[] = [];
  let p = cdOffset;
  for (let n = 0; n < count; n++) {
    if (p + 46 > zip.length || zip.readUInt32LE(p) !== SIG_CENTRAL) return null;
    const method = zip.readUInt16LE(p + 10);
    const compressedSize = zip.readUInt32LE(p + 20);
    const uncompressedSize = zip.readUInt32LE(p + 24);
    const nameLen = zip.readUInt16LE(p + 28);
    const extraLen = zip.readUInt16LE(p + 30);
    const commentLen = zip.readUInt16LE(p + 32);
    const local = zip.readUInt32LE(p + 42);
    const name = zip.toString('utf8', p + 46, p + 46 + nameLen);
    p += 46 + nameLen + extraLen + commentLen;
    if (local + 30 > zip.length || zip.readUInt32LE(local) !== SIG_LOCAL) return null;
    const dataOffset = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    // 0xffffffff: a zip64 size (gigabytes), or a size past the end of the file: not an upload we read
    if (dataOffset + compressedSize > zip.length) return null;
    entries.push({ name, method, compressedSize, uncompressedSize, dataOffset });
  }
  return entries;
}

type SizeCheck = 'ok' | 'bad_file' | 'too_large';

/**
 * Whether the zip unpacks to at most `maxBytes`: first by the sizes its central directory declares (a zip bomb
 * usually says what it is, and is refused before a byte is inflated), then by inflating each part with a hard cap of
 * its declared size, so that a part whose header lies stops at that size instead of filling the memory.
 */
export async function checkUnzippedSize(zip: Buffer, maxBytes = UNZIPPED_MAX_BYTES): Promise<SizeCheck> {
  const entries = zipEntries(zip);
  if (!entries) return 'bad_file';
  const declared = entries.reduce((sum, e) => sum + e.uncompressedSize, 0);
  if (declared > maxBytes) return 'too_large';
  for (const e of entries) {
    const data = zip.subarray(e.dataOffset, e.dataOffset + e.compressedSize);
    if (e.method === STORED) {
      if (e.compressedSize !== e.uncompressedSize) return 'bad_file';
    } else if (e.method === DEFLATED) {
      try {
        const out = await inflateRaw(data, { maxOutputLength: Math.max(1, e.uncompressedSize) });
        if (out.length !== e.uncompressedSize) return 'bad_file';
      } catch (err) {
        return (err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' ? 'too_large' : 'bad_file';
      }
    } else return 'bad_file';
  }
  return 'ok';
}

export const isZip = (file: Buffer) => file.length > 4 && file[0] === 0x50 && file[1] === 0x4b && file[2] === 0x03 && file[3] === 0x04;

/**
 * The text of an uploaded .csv as Excel saves one: UTF-8 (with or without a BOM: 另存为 "CSV UTF-8"), UTF-16LE with a
 * BOM ("Unicode 文本"), else GB18030 (a plain "CSV" on a Chinese Windows is in the ANSI
 * code page, GBK, which GB18030 contains). Each decoder is fatal, so bytes valid in none of them answer null instead
 * of a text with replacement characters; so do NULs (a binary file that happens to decode).
 */
export function decodeCsvText(file: Buffer): { text: string; tabs: boolean } | null {
  const attempt = (encoding: string, bytes: Uint8Array) => {
    try {
      return new TextDecoder(encoding, { fatal: true }).decode(bytes);
    } catch {
      return null;
    }
  };
  const utf16 = file.length >= 2 && file[0] === 0xff && file[1] === 0xfe;
  const text = utf16 ? attempt('utf-16le', file) : (attempt('utf-8', file) ?? attempt('gb18030', file));
  if (text === null || text.includes('\u0000')) return null;
  // "Unicode 文本" (and 文本文件（制表符分隔）) separate the cells by tabs: a header of tabs without a comma
  const header = text.split(/\r\n|\r|\n/, 1)[0];
  return { text, tabs: header.includes('\t') && !header.includes(',') };
}

export interface SheetErrors {
  badFile: MessageKey;
  unzippedTooLarge: MessageKey;
  tooManyRows: MessageKey;
}

/**
 * The first sheet of an .xlsx: its rows as text (header first, at least `columns` cells each) and its date system.
 * exceljs is loaded on the first sheet read, not when the API starts (as xlsxFile does for the exports).
 */
export async function readFirstSheet(
  file: Buffer,
  limits: { maxRows: number; columns: number },
  errors: SheetErrors,
): Promise<{ rows: string[][]; date1904: boolean }> {
  const size = await checkUnzippedSize(file);
  if (size === 'too_large') throw new AppError(errors.unzippedTooLarge, { max: `${UNZIPPED_MAX_BYTES / 1024 / 1024} MB` });
  if (size === 'bad_file') throw new AppError(errors.badFile);
  const { Workbook } = await import('exceljs');
  const wb = new Workbook();
  try {
    await wb.xlsx.load(file as unknown as ArrayBuffer);
  } catch {
    throw new AppError(errors.badFile);
  }
  const ws = wb.worksheets[0];
  if (!ws) throw new AppError(errors.badFile);
  if (ws.rowCount > limits.maxRows + 1) throw new AppError(errors.tooManyRows, { max: limits.maxRows });
  const rows: string[][] = [];
  for (let r = 1; r <= ws.rowCount; r++) {
    const row = ws.getRow(r);
    const cells: string[] = [];
    for (let c = 1; c <= Math.max(row.cellCount, limits.columns); c++) cells.push(cellText(row.getCell(c).value));
    rows.push(cells);
  }
  return { rows, date1904: Boolean((wb.properties as { date1904?: boolean }).date1904) };
}
