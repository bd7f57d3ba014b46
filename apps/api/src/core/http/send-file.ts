import type { Response } from 'express';

/** A file answered past the JSON envelope (exports, templates). */
export interface FileAnswer {
  body: Buffer;
  contentType: string;
  filename: string;
}

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Sends a file past the JSON envelope, with an RFC 5987 file name (Chinese names) and an ASCII fallback. */
export function sendFile(res: Response, file: FileAnswer): void {
  const ascii = file.filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  res.status(200);
  res.setHeader('Content-Type', file.contentType);
  res.setHeader('Content-Disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`);
  res.setHeader('Cache-Control', 'no-store');
  res.send(file.body);
}
