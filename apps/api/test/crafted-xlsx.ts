import JSZip from 'jszip';
import { constants, crc32, createDeflateRaw, deflateRawSync } from 'node:zlib';

/** One part of a zip: its name, the deflated data, the CRC and size of the inflated data (which may be declared wrong). */
interface Part {
  name: string;
  deflated: Buffer;
  crc: number;
  size: number;
}

/** A zip of deflated parts, written by hand so that the central directory may declare what a test wants. */
export function zipOf(parts: Part[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const p of parts) {
    const name = Buffer.from(p.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(p.crc >>> 0, 14);
    local.writeUInt32LE(p.deflated.length, 18);
    local.writeUInt32LE(p.size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(p.crc >>> 0, 16);
    central.writeUInt32LE(p.deflated.length, 20);
    central.writeUInt32LE(p.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, p.deflated);
    centrals.push(central, name);
    offset += 30 + name.length + p.deflated.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/**
 * A zip bomb shaped as an .xlsx: the parts of `xlsx` (a real workbook), with the first sheet's XML padded by one
 * cell of `zeros` '0' characters (200 MB of zeros deflate to about 200 KB). The padding is deflated as a stream, so
 * the test never holds it in memory. `declare: 'true'` writes the real sizes in the zip's directory; 'lie' declares
 * the sheet at its original size, so that only inflating it shows what it is.
 */
export async function zipBombXlsx(xlsx: Buffer, zeros: number, declare: 'true' | 'lie'): Promise<Buffer> {
  const zip = await JSZip.loadAsync(xlsx);
  const parts: Part[] = [];
  for (const name of Object.keys(zip.files)) {
    if (zip.files[name].dir) continue;
    const data = await zip.files[name].async('nodebuffer');
    if (name !== 'xl/worksheets/sheet1.xml') {
      parts.push({ name, deflated: deflateRawSync(data), crc: crc32(data), size: data.length });
      continue;
    }
    const xml = data.toString('utf8');
    const at = xml.indexOf('</sheetData>');
    const head = Buffer.from(`${xml.slice(0, at)}<row r="2"><c r="A2"><v>`);
    const tail = Buffer.from(`</v></c></row>${xml.slice(at)}`);
    const chunk = Buffer.alloc(1024 * 1024, '0');
    const deflate = createDeflateRaw({ level: constants.Z_BEST_COMPRESSION });
    const out: Buffer[] = [];
    deflate.on('data', (b: Buffer) => out.push(b));
    const done = new Promise((resolve) => deflate.on('end', resolve));
    let crc = crc32(head);
    deflate.write(head);
    for (let left = zeros; left > 0; left -= chunk.length) {
      const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
      crc = crc32(piece, crc);
      if (!deflate.write(piece)) await new Promise((resolve) => deflate.once('drain', resolve));
    }
    crc = crc32(tail, crc);
    deflate.end(tail);
    await done;
    const size = head.length + zeros + tail.length;
    parts.push({ name, deflated: Buffer.concat(out), crc, size: declare === 'true' ? size : data.length });
  }
  return zipOf(parts);
}

/** The highest resident memory of this process while `work` runs (sampled every few milliseconds), above the start. */
export async function peakRssGrowth<T>(work: () => Promise<T>): Promise<{ result: T; growth: number; ms: number }> {
  const start = process.memoryUsage().rss;
  let peak = start;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 2);
  const t0 = Date.now();
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, growth: peak - start, ms: Date.now() - t0 };
  } finally {
    clearInterval(timer);
  }
}
