/**
 * Recognises a file by its first bytes (never by the name or the browser's word for it).
 * Only kinds the product accepts are known; anything else is refused.
 */
export interface FileKind {
  mime: string;
  ext: string;
  image: boolean;
}

const startsWith = (buf: Buffer, bytes: number[], offset = 0) => bytes.every((b, i) => buf[offset + i] === b);
const ascii = (buf: Buffer, text: string, offset = 0) => buf.toString('latin1', offset, offset + text.length) === text;

export function sniffFileKind(buf: Buffer, originalName: string): FileKind | null {
  if (startsWith(buf, [0xff, 0xd8, 0xff])) return { mime: 'image/jpeg', ext: 'jpg', image: true };
  if (startsWith(buf, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { mime: 'image/png', ext: 'png', image: true };
  if (ascii(buf, 'GIF87a') || ascii(buf, 'GIF89a')) return { mime: 'image/gif', ext: 'gif', image: true };
  if (ascii(buf, 'RIFF') && ascii(buf, 'WEBP', 8)) return { mime: 'image/webp', ext: 'webp', image: true };
  if (ascii(buf, '%PDF-')) return { mime: 'application/pdf', ext: 'pdf', image: false };
  if (ascii(buf, 'ftyp', 4)) return { mime: 'video/mp4', ext: 'mp4', image: false };
  const ext = (/\.([a-z0-9]{1,5})$/i.exec(originalName)?.[1] ?? '').toLowerCase();
  // Office Open XML files are zip archives; the legacy ones OLE compound files: the extension says which
  if (startsWith(buf, [0x50, 0x4b, 0x03, 0x04])) {
    const ooxml: Record<string, string> = {
      docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
      zip: 'application/zip',
    };
    return ooxml[ext] ? { mime: ooxml[ext], ext, image: false } : null;
  }
  if (startsWith(buf, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) {
    const ole: Record<string, string> = { doc: 'application/msword', xls: 'application/vnd.ms-excel', ppt: 'application/vnd.ms-powerpoint' };
    return ole[ext] ? { mime: ole[ext], ext, image: false } : null;
  }
  return null;
}
