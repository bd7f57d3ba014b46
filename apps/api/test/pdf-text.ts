import { inflateSync } from 'node:zlib';

/**
 * The text of a PDF as pdfkit writes it (tests): the objects are read from the file (pdfkit does not pack them into
 * object streams), each page's content stream is inflated, its text operators (`Tf`, `TJ`, `Tj`) are followed, and each
 * font's glyph codes are turned back into characters through the font's ToUnicode CMap (bfchar and bfrange, pdfkit's
 * array form included). Answers one string per text operator, in order.
 */
export function pdfText(pdf: Buffer): string[] {
  const src = pdf.toString('latin1');
  const objects = new Map<number, { dict: string; stream: Buffer | null }>();
  const re = /(\d+) 0 obj\s*([\s\S]*?)endobj/g;
  for (let m = re.exec(src); m; m = re.exec(src)) {
    const body = m[2];
    const s = body.indexOf('stream');
    if (s < 0) {
      objects.set(Number(m[1]), { dict: body, stream: null });
      continue;
    }
    const dict = body.slice(0, s);
    let start = m.index + m[0].indexOf(body) + s + 'stream'.length;
    if (src[start] === '\r') start++;
    if (src[start] === '\n') start++;
    const len = Number(/\/Length (\d+)/.exec(dict)?.[1]);
    let raw = pdf.subarray(start, start + len);
    if (/\/Filter \/FlateDecode/.test(dict)) raw = inflateSync(raw);
    objects.set(Number(m[1]), { dict, stream: raw });
  }
  const ref = (dict: string, key: string) => Number(new RegExp(`/${key} (\\d+) 0 R`).exec(dict)?.[1]);
  const cmapOf = (id: number): Map<number, string> => {
    const map = new Map<number, string>();
    const text = objects.get(id)?.stream?.toString('latin1') ?? '';
    // a glyph of several characters (a ligature such as ff in a hex transaction number) is `<0066 0066>`
    const hex = (h: string) => String.fromCodePoint(...(h.replace(/\s+/g, '').match(/.{4}/g) ?? []).map((x) => parseInt(x, 16)));
    for (const b of text.matchAll(/beginbfchar([\s\S]*?)endbfchar/g))
      for (const [, c, u] of b[1].matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g)) map.set(parseInt(c, 16), hex(u));
    for (const b of text.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
      for (const [, lo, hi, rest] of b[1].matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(\[[^\]]*\]|<[0-9a-fA-F]+>)/g)) {
        const from = parseInt(lo, 16);
        const to = parseInt(hi, 16);
        if (rest.startsWith('[')) {
          [...rest.matchAll(/<([0-9a-fA-F\s]+)>/g)].forEach(([, u], i) => map.set(from + i, hex(u)));
        } else {
          const base = parseInt(rest.slice(1, -1), 16);
          for (let c = from; c <= to; c++) map.set(c, String.fromCodePoint(base + c - from));
        }
      }
    }
    return map;
  };
  const out: string[] = [];
  for (const [, page] of objects) {
    if (!/\/Type \/Page\b/.test(page.dict)) continue;
    const resources = objects.get(ref(page.dict, 'Resources'))?.dict ?? page.dict;
    const fontDict = /\/Font\s*<<([\s\S]*?)>>/.exec(resources)?.[1] ?? '';
    const fonts = new Map<string, Map<number, string>>();
    for (const [, name, id] of fontDict.matchAll(/\/(\S+?) (\d+) 0 R/g))
      fonts.set(name, cmapOf(ref(objects.get(Number(id))?.dict ?? '', 'ToUnicode')));
    const contents = objects.get(ref(page.dict, 'Contents'))?.stream?.toString('latin1') ?? '';
    let font = new Map<number, string>();
    for (const op of contents.matchAll(/\/(\S+) [\d.]+ Tf|\[([^\]]*)\]\s*TJ|<([0-9a-fA-F]*)>\s*Tj/g)) {
      if (op[1]) {
        font = fonts.get(op[1]) ?? new Map();
        continue;
      }
      const hexes = op[2] !== undefined ? [...op[2].matchAll(/<([0-9a-fA-F]*)>/g)].map((h) => h[1]) : [op[3]];
      out.push(
        hexes
          .join('')
          .match(/.{4}/g)!
          .map((c) => font.get(parseInt(c, 16)) ?? '�')
          .join(''),
      );
    }
  }
  return out;
}
