/**
 * Text safety rules shared by the API's input layer, the schemas and the web.
 *
 * Two levels:
 * - every string that reaches any action (query, JSON at any depth, object keys, multipart fields, file names) is
 *   refused when it holds a character no text field may hold: NUL and the other control characters except tab and
 *   line breaks, and unpaired UTF-16 surrogates (not text at all: PostgreSQL refuses both with an error).
 *   `findUnsafeText` finds the first such string and says where it is.
 * - plain-text fields (names, titles, remarks: everything that is not a rich-text field sanitised on the server)
 *   also refuse HTML markup and, when single-line, tabs and line breaks: `isPlainText`.
 */

/** Control characters no text may hold: C0 (but tab, line feed, carriage return), DEL and C1. */
const FORBIDDEN_CONTROL_RE = /(?![\t\n\r])\p{Cc}/u;
/** Anything that starts an HTML tag, comment or declaration. */
const MARKUP_RE = /<[a-z!?/]/i;
const ANY_CONTROL_RE = /\p{Cc}/u;
/**
 * A UTF-16 surrogate without its partner (no `u` flag: it must see code units). Written without lookbehind and
 * String.prototype.isWellFormed, which older phone browsers lack.
 */
const LONE_SURROGATE_RE = /(^|[^\uD800-\uDBFF])[\uDC00-\uDFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])/;

export type UnsafeReason = 'control' | 'surrogate' | 'depth';

/** Why a string cannot be stored as text, or null when it can. */
export function unsafeTextReason(s: string): UnsafeReason | null {
  if (LONE_SURROGATE_RE.test(s)) return 'surrogate';
  if (FORBIDDEN_CONTROL_RE.test(s)) return 'control';
  return null;
}

export interface UnsafeText {
  /** where it was: `body.nav.0.title`, `query.keyword`, a key itself is named by its parent's path and `[key]` */
  path: string;
  reason: UnsafeReason;
}

/** Deeper than this is not a form: a body nested deeper is refused as a whole. */
export const MAX_INPUT_DEPTH = 32;

/**
 * Walks a parsed input (strings, arrays, plain objects: keys and values) and answers the first string that cannot be
 * text, or null. `root` names the source (`query`, `body`, `file`). Iterative, so a deeply nested body cannot
 * exhaust the stack; beyond MAX_INPUT_DEPTH it answers `depth` at that path.
 */
export function findUnsafeText(value: unknown, root: string): UnsafeText | null {
  const stack: Array<[unknown, string, number]> = [[value, root, 0]];
  while (stack.length) {
    const [v, path, depth] = stack.pop()!;
    if (typeof v === 'string') {
      const reason = unsafeTextReason(v);
      if (reason) return { path, reason };
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (depth >= MAX_INPUT_DEPTH) return { path, reason: 'depth' };
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${path}.${i}`, depth + 1]);
      continue;
    }
    const keys = Object.keys(v);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i];
      const reason = unsafeTextReason(key);
      if (reason) return { path: `${path}[key]`, reason };
      stack.push([(v as Record<string, unknown>)[key], `${path}.${key}`, depth + 1]);
    }
  }
  return null;
}

/**
 * Plain text: no HTML markup and no forbidden control characters. Multi-line fields (remarks, notes, messages) may
 * hold tabs and line breaks; single-line ones (names, titles, searches) may not.
 */
export function isPlainText(v: string, multiline = true): boolean {
  if (MARKUP_RE.test(v) || LONE_SURROGATE_RE.test(v)) return false;
  return !(multiline ? FORBIDDEN_CONTROL_RE : ANY_CONTROL_RE).test(v);
}

/** isPlainText for a single-line field. */
export const isSingleLineText = (v: string) => isPlainText(v, false);

/** Characters a file name shown to people may not hold: markup and quoting, path separators, what Windows refuses. */
const FILE_NAME_UNSAFE_RE = /[<>:"'`/\\|?*]/g;
export const MAX_FILE_NAME = 255;

/**
 * A safe display name for an uploaded file: the last path segment of what the client sent, without control
 * characters, markup or path characters, white space folded, at most MAX_FILE_NAME characters with the extension
 * kept; `file` when nothing is left. The stored name is only ever shown, never used as a path.
 */
export function safeFileName(raw: string): string {
  const base = raw.split(/[/\\]/).pop() ?? '';
  let name = dropLoneSurrogates(base)
    .replace(/\p{Cc}|\p{Cf}/gu, '')
    .replace(FILE_NAME_UNSAFE_RE, '')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.]+|[\s.]+$/g, '');
  if ([...name].length > MAX_FILE_NAME) {
    const dot = name.lastIndexOf('.');
    const ext = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
    name = [...name.slice(0, name.length - ext.length)].slice(0, MAX_FILE_NAME - ext.length).join('') + ext;
  }
  return name || 'file';
}

/** The string without unpaired surrogates (paired ones, i.e. characters beyond the BMP, are kept). */
function dropLoneSurrogates(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        out += s[i] + s[i + 1];
        i++;
      }
      continue;
    }
    if (c >= 0xdc00 && c <= 0xdfff) continue;
    out += s[i];
  }
  return out;
}
