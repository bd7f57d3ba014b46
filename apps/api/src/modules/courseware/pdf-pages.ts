/**
 * The page count of a PDF from its bytes: the page objects (`/Type /Page`, not `/Pages`) of a PDF whose objects are
 * not packed into object streams (what the seed, office exports and most scanners write). A PDF whose page objects are
 * compressed answers null: its count is not known here (the viewer still counts them).
 */
export function countPdfPages(buf: Buffer): number | null {
  if (buf.toString('latin1', 0, 5) !== '%PDF-') return null;
  const text = buf.toString('latin1');
  const pages = text.match(/\/Type\s*\/Page(?![A-Za-z])/g)?.length ?? 0;
  return pages > 0 ? pages : null;
}
