import { cellText, OFFICE_PREVIEW_LIMITS } from '@wantuo/shared';
import { XMLParser } from 'fast-xml-parser';
import sanitizeHtml from 'sanitize-html';
import { promisify } from 'node:util';
import { inflateRaw as inflateRawCb, type ZlibOptions } from 'node:zlib';
import { AppError } from '../../core/http/app-error';
import { checkUnzippedSize, UNZIPPED_MAX_BYTES, zipEntries, type ZipEntry } from '../students/sheet-read';

const inflateRaw = promisify<Buffer, ZlibOptions, Buffer>(inflateRawCb);

/** The legacy binary office formats, which `preview` does not convert (the download stays). */
export const LEGACY_OFFICE_MIMES: Record<string, string> = {
  'application/msword': 'doc',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.ms-powerpoint': 'ppt',
};

/** The largest office file converted (bigger ones are download-only), and how long a conversion may take. */
export const OFFICE_PREVIEW_MAX_BYTES = 20 * 1024 * 1024;
export const OFFICE_PREVIEW_TIMEOUT_MS = 15_000;
/** A picture of a .docx is inlined as a data URI up to this size (larger ones are dropped), all of them up to the total. */
const IMAGE_MAX_BYTES = 512 * 1024;
const IMAGES_TOTAL_BYTES = 4 * 1024 * 1024;

export interface OfficePreview {
  html: string;
  /** the document's 1, the workbook's sheets, the presentation's slides */
  pages: number;
  truncated: boolean;
}

/**
 * What survives of the converted HTML: structure, tables, links (http/https/mailto) and pictures as data URIs only;
 * no script, style, iframe, form or event attribute, no class or style attribute.
 */
const OFFICE_HTML: sanitizeHtml.IOptions = {
  allowedTags: sanitizeHtml.defaults.allowedTags.concat(['img', 'h1', 'h2', 'section']),
  allowedAttributes: {
    a: ['href', 'target', 'rel'],
    img: ['src', 'alt'],
    td: ['colspan', 'rowspan'],
    th: ['colspan', 'rowspan'],
    '*': ['data-slide', 'data-sheet'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['data'] },
  allowProtocolRelative: false,
  transformTags: { a: sanitizeHtml.simpleTransform('a', { target: '_blank', rel: 'noopener noreferrer' }) },
  exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
};

export const sanitizeOfficeHtml = (html: string): string => sanitizeHtml(html, OFFICE_HTML);

const escape = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * Converts an office file to sanitised HTML, in-process (no office suite): .docx with mammoth, .xlsx with exceljs (the
 * first sheets, rows and columns of OFFICE_PREVIEW_LIMITS), .pptx from its slides' XML (each slide's title and text).
 * The zip is checked first (a zip bomb or a damaged archive is refused before anything is inflated); both libraries
 * are loaded on the first conversion, not when the API starts. A damaged file is refused with
 * courseware.preview_bad_file, one that takes over OFFICE_PREVIEW_TIMEOUT_MS with courseware.preview_timeout.
 */
export async function convertOffice(format: 'docx' | 'xlsx' | 'pptx', file: Buffer): Promise<OfficePreview> {
  const size = await checkUnzippedSize(file);
  if (size === 'too_large') throw new AppError('courseware.preview_too_large', { max: `${UNZIPPED_MAX_BYTES / 1024 / 1024} MB` });
  if (size === 'bad_file') throw new AppError('courseware.preview_bad_file');
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new AppError('courseware.preview_timeout')), OFFICE_PREVIEW_TIMEOUT_MS);
  });
  const work = format === 'docx' ? docx(file) : format === 'xlsx' ? xlsx(file) : pptx(file);
  try {
    const out = await Promise.race([work, timeout]);
    return { ...out, html: sanitizeOfficeHtml(out.html) };
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError('courseware.preview_bad_file');
  } finally {
    clearTimeout(timer);
    work.catch(() => undefined);
  }
}

async function docx(file: Buffer): Promise<OfficePreview> {
  const mammoth = await import('mammoth');
  let budget = IMAGES_TOTAL_BYTES;
  let truncated = false;
  const result = await mammoth.convertToHtml(
    { buffer: file },
    {
      convertImage: mammoth.images.imgElement(async (image) => {
        const data = await image.readAsBase64String();
        const bytes = Math.floor((data.length * 3) / 4);
        const type = /^image\/(png|jpeg|gif|webp)$/.test(image.contentType) ? image.contentType : null;
        if (!type || bytes > IMAGE_MAX_BYTES || bytes > budget) {
          truncated = true;
          return { src: '' }; // dropped by the sanitiser's filter
        }
        budget -= bytes;
        return { src: `data:${type};base64,${data}` };
      }),
    },
  );
  return { html: result.value, pages: 1, truncated };
}

async function xlsx(file: Buffer): Promise<OfficePreview> {
  const { Workbook } = await import('exceljs');
  const wb = new Workbook();
  await wb.xlsx.load(file as unknown as ArrayBuffer);
  // a zip that is no workbook loads as one without sheets
  if (!wb.worksheets.length) throw new AppError('courseware.preview_bad_file');
  const { sheets, rows, columns } = OFFICE_PREVIEW_LIMITS;
  let truncated = wb.worksheets.length > sheets;
  const parts: string[] = [];
  wb.worksheets.slice(0, sheets).forEach((ws, i) => {
    const width = Math.min(ws.columnCount, columns);
    if (ws.rowCount > rows || ws.columnCount > columns) truncated = true;
    const body: string[] = [];
    for (let r = 1; r <= Math.min(ws.rowCount, rows); r++) {
      const row = ws.getRow(r);
      const cells: string[] = [];
      for (let c = 1; c <= width; c++) cells.push(`<td>${escape(cellText(row.getCell(c).value))}</td>`);
      body.push(`<tr>${cells.join('')}</tr>`);
    }
    parts.push(`<section data-sheet="${i + 1}"><h3>${escape(ws.name)}</h3><table><tbody>${body.join('')}</tbody></table></section>`);
  });
  return { html: parts.join(''), pages: wb.worksheets.length, truncated };
}

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  isArray: (_name, _path, _leaf, attribute) => !attribute,
  processEntities: true,
});

/** The texts of every a:p under a node (each paragraph's a:t runs joined), in document order. */
function paragraphs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => paragraphs(n, out));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
      if (key === 'p') {
        for (const p of value as Array<Record<string, unknown>>) {
          const text = runs(p).join('').trim();
          if (text) out.push(text);
        }
      } else if (!key.startsWith('@')) paragraphs(value, out);
    }
  }
  return out;
}
function runs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => runs(n, out));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
      if (key === 't')
        for (const t of value as unknown[]) out.push(typeof t === 'object' && t ? String((t as Record<string, unknown>)['#text'] ?? '') : String(t));
      else if (!key.startsWith('@')) runs(value, out);
    }
  }
  return out;
}

async function entryText(zip: Buffer, e: ZipEntry): Promise<string> {
  const data = zip.subarray(e.dataOffset, e.dataOffset + e.compressedSize);
  const bytes = e.method === 0 ? data : await inflateRaw(data, { maxOutputLength: Math.max(1, e.uncompressedSize) });
  return bytes.toString('utf8');
}

async function pptx(file: Buffer): Promise<OfficePreview> {
  const entries = zipEntries(file) ?? [];
  const slideNo = (name: string) => Number(/^ppt\/slides\/slide(\d+)\.xml$/.exec(name)?.[1] ?? NaN);
  const slides = entries.filter((e) => Number.isFinite(slideNo(e.name))).sort((a, b) => slideNo(a.name) - slideNo(b.name));
  if (!slides.length) throw new AppError('courseware.preview_bad_file');
  const parts: string[] = [];
  for (const [i, e] of slides.slice(0, OFFICE_PREVIEW_LIMITS.slides).entries()) {
    const doc = xml.parse(await entryText(file, e)) as Record<string, unknown>;
    const tree = (doc.sld as Array<Record<string, unknown>> | undefined)?.[0];
    if (!tree) throw new AppError('courseware.preview_bad_file');
    // the title: the text of the shape whose placeholder is the (centred) title; the rest: every other paragraph
    let title = '';
    const shapes: unknown[] = [];
    const collect = (node: unknown) => {
      if (Array.isArray(node)) node.forEach(collect);
      else if (node && typeof node === 'object') {
        for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
          if (key === 'sp') shapes.push(...(value as unknown[]));
          else if (!key.startsWith('@')) collect(value);
        }
      }
    };
    collect(tree);
    const body: string[] = [];
    for (const sp of shapes as Array<Record<string, unknown>>) {
      const ph = JSON.stringify(sp.nvSpPr ?? '').match(/"@type":"(ctrTitle|title)"/);
      const texts = paragraphs(sp.txBody ?? []);
      if (ph && !title) title = texts.join(' ');
      else body.push(...texts);
    }
    parts.push(
      `<section data-slide="${i + 1}"><h3>${escape(`${i + 1}. ${title}`.trim())}</h3>${body.map((p) => `<p>${escape(p)}</p>`).join('')}</section>`,
    );
  }
  return { html: parts.join(''), pages: slides.length, truncated: slides.length > OFFICE_PREVIEW_LIMITS.slides };
}
