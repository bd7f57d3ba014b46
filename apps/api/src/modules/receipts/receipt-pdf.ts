import { amountInCapitals, amountInFigures, localDateTime, RECEIPT_METHOD_LABELS, type ReceiptMethod } from '@wantuo/shared';
import { readFileSync } from 'node:fs';
import PDFDocument from 'pdfkit';

/** What a receipt's PDF shows: its snapshot (written when it was issued), the original's number, the stamp's bytes. */
export interface ReceiptSnapshot {
  receipt_no: string;
  kind: 'contract' | 'meal' | 'refund';
  school_name: string;
  student_name: string;
  item: string;
  period_start: string | null;
  period_end: string | null;
  amount_fen: number;
  method: ReceiptMethod;
  txn_no: string;
  paid_at: Date;
  issued_at: Date;
  timezone: string;
  original_receipt_no: string | null;
}

/**
 * Noto Sans SC (SIL Open Font License 1.1, from @expo-google-fonts/noto-sans-sc): read from the package the first time a
 * receipt is rendered, then kept (module-level; about 10 MB each). pdfkit embeds only the glyphs a receipt uses.
 */
let fonts: { regular: Buffer; bold: Buffer } | null = null;
function receiptFonts(): { regular: Buffer; bold: Buffer } {
  if (!fonts) {
    const dir = require.resolve('@expo-google-fonts/noto-sans-sc/package.json').replace(/package\.json$/, '');
    fonts = {
      regular: readFileSync(`${dir}400Regular/NotoSansSC_400Regular.ttf`),
      bold: readFileSync(`${dir}700Bold/NotoSansSC_700Bold.ttf`),
    };
  }
  return fonts;
}

const RED = '#c8161d';
/** A5 landscape, in points */
const PAGE_W = 595.28;
const PAGE_H = 419.53;
const INK = '#222222';
const GREY = '#666666';

/**
 * Renders a receipt (收据) as an A5 landscape PDF, from its snapshot only: the school's name, the title (a refund's is
 * 退款收据, red, naming the original receipt), the number and the issue time in the school's zone, a table of the child,
 * the item, the period, the amount in figures and in capitals, the method, the transaction number and the payment
 * time, the payee line with the stamp. Deterministic: the document's dates are the issue time (its /ID is derived from
 * them), the font subset's tag from the font's id, no random ids — the same receipt renders to the same bytes. One page:
 * everything is placed inside its margins.
 */
export function renderReceiptPdf(r: ReceiptSnapshot, stamp: Buffer | null): Promise<Buffer> {
  const { regular, bold } = receiptFonts();
  const refund = r.kind === 'refund';
  const title = refund ? '退款收据' : '收据';
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: [PAGE_W, PAGE_H],
      margin: 36,
      compress: true,
      info: {
        Title: `${title} ${r.receipt_no}`,
        Author: r.school_name,
        Subject: `${r.student_name} ${r.item}`,
        Creator: '晚托管理平台',
        Producer: '晚托管理平台',
        CreationDate: r.issued_at,
        ModDate: r.issued_at,
      },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.registerFont('sc', regular);
    doc.registerFont('sc-bold', bold);

    const left = 36;
    const width = PAGE_W - 72;
    const local = (at: Date) => localDateTime(at, r.timezone);

    doc.font('sc-bold').fontSize(15).fillColor(INK).text(r.school_name, left, 30, { width, align: 'center' });
    doc
      .font('sc-bold')
      .fontSize(22)
      .fillColor(refund ? RED : INK)
      .text(title.split('').join(' '), left, 52, { width, align: 'center', characterSpacing: 4 });
    doc
      .font('sc')
      .fontSize(9)
      .fillColor(GREY)
      .text(`收据号 No. ${r.receipt_no}`, left, 88, { width: width / 2 })
      .text(`开具时间 ${local(r.issued_at)}`, left + width / 2, 88, { width: width / 2, align: 'right' });

    const period = r.period_start ? (r.period_end && r.period_end !== r.period_start ? `${r.period_start} 至 ${r.period_end}` : r.period_start) : '—';
    const method = RECEIPT_METHOD_LABELS[r.method].zh;
    const rows: Array<[string, string, boolean?]> = [
      ['学生', r.student_name],
      ['项目', r.item],
      ['期间', period],
      [refund ? '退款金额（小写）' : '金额（小写）', amountInFigures(r.amount_fen), true],
      [refund ? '退款金额（大写）' : '金额（大写）', amountInCapitals(r.amount_fen), true],
      [refund ? '退款方式' : '支付方式', refund && r.method === 'wechat' ? `${method}（原路退回）` : method],
      [refund ? '退款单号' : '交易单号', r.txn_no],
      [refund ? '退款时间' : '付款时间', local(r.paid_at)],
    ];
    if (refund && r.original_receipt_no) rows.push(['原收据号', r.original_receipt_no]);

    const top = 104;
    const rowH = 24;
    const labelW = 120;
    doc.lineWidth(0.8).strokeColor(INK);
    doc.rect(left, top, width, rowH * rows.length).stroke();
    rows.forEach(([label, value, money], i) => {
      const y = top + i * rowH;
      if (i > 0)
        doc
          .moveTo(left, y)
          .lineTo(left + width, y)
          .stroke();
      doc
        .font('sc')
        .fontSize(10)
        .fillColor(GREY)
        .text(label, left + 8, y + 6, { width: labelW - 16, lineBreak: false });
      doc
        .font(money ? 'sc-bold' : 'sc')
        .fontSize(money ? 11 : 10)
        .fillColor(money && refund ? RED : INK)
        .text(value, left + labelW + 8, y + (money ? 5 : 6), { width: width - labelW - 16, lineBreak: false, ellipsis: true });
    });
    doc
      .moveTo(left + labelW, top)
      .lineTo(left + labelW, top + rowH * rows.length)
      .stroke();

    const footY = top + rowH * rows.length + 14;
    doc
      .font('sc')
      .fontSize(10)
      .fillColor(INK)
      .text(`收款单位（盖章）：${r.school_name}`, left + width / 2, footY, { width: width / 2, align: 'left' });
    if (stamp) doc.image(stamp, left + width - 110, footY - 40, { fit: [96, 96] });
    doc
      .font('sc')
      .fontSize(8)
      .fillColor(GREY)
      .text(
        refund ? `本收据为退款收据，冲减原收据 ${r.original_receipt_no ?? ''} 所列金额。` : '本收据由系统依付款记录开具，每次打开内容相同。',
        left,
        PAGE_H - 50,
        { width, align: 'left', lineBreak: false },
      );
    doc.end();
  });
}

/**
 * Whether pdfkit can embed these bytes as an image: a page with the image is rendered to the end (a stamp is checked
 * when it is uploaded, never when a receipt is opened).
 */
export function canEmbedImage(bytes: Buffer): Promise<boolean> {
  return new Promise((resolve) => {
    try {
      const doc = new PDFDocument({ size: [100, 100], margin: 0 });
      doc.on('data', () => undefined);
      doc.on('end', () => resolve(true));
      doc.on('error', () => resolve(false));
      doc.image(bytes, 0, 0, { fit: [100, 100] });
      doc.end();
    } catch {
      resolve(false);
    }
  });
}
