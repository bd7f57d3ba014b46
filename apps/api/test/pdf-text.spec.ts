import PDFDocument from 'pdfkit';
import { pdfText } from './pdf-text';

/** The tests' PDF reader: a glyph of several characters (the font's ff ligature in a hex transaction number) reads as its characters, and the rest of the text stays in place. */
it('reads a ligature glyph back as its characters', async () => {
  const doc = new PDFDocument({ compress: true });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  doc.registerFont('sc', require.resolve('@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf'));
  doc.font('sc').text('退款单号 5030b7984f3c81ff9e423e77669 收款单位（盖章）', { lineBreak: false });
  doc.end();
  expect(pdfText(await done).join('')).toBe('退款单号 5030b7984f3c81ff9e423e77669 收款单位（盖章）');
});
