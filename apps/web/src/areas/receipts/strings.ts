import { defineStrings } from '../../i18n/strings';

/** Receipts (收据, issue 40): the parent's phone pages and the admin's /principal_receipts. */
export const receiptStrings = defineStrings({
  // the parent's phone pages
  'p.receipt': { zh: '收据', en: 'Receipt' },
  'p.refund_receipt': { zh: '退款收据', en: 'Refund receipt' },
  'p.list_title': { zh: '收据', en: 'Receipts' },
  'p.empty': { zh: '还没有收据：付款后自动开具', en: 'No receipts yet: one is issued after each payment' },
  'p.more': { zh: '查看全部 {n} 张', en: 'Show all {n}' },
  'p.less': { zh: '收起', en: 'Show fewer' },
  'p.opening': { zh: '正在打开收据…', en: 'Opening the receipt…' },
  'p.wechat_hint': {
    zh: '微信内可能无法保存文件：请点右上角“…”，选择“在浏览器打开”后再下载',
    en: 'WeChat may not save files: tap “…” at the top right, open in the browser, then download',
  },
  'p.refund_of': { zh: '冲减 {no}', en: 'Reverses {no}' },
  // both
  'kind.contract': { zh: '合同缴费', en: 'Contract' },
  'kind.meal': { zh: '晚餐', en: 'Dinner' },
  'kind.refund': { zh: '退款', en: 'Refund' },
  file: { zh: '收据-{no}.pdf', en: 'receipt-{no}.pdf' },
  refund_file: { zh: '退款收据-{no}.pdf', en: 'refund-receipt-{no}.pdf' },
  // the admin's page
  'a.title': { zh: '收据管理', en: 'Receipts' },
  'a.intro': {
    zh: '每笔合同缴费、晚餐缴费和退款都会自动开具收据（含学校名称、印章、金额大写），家长可在手机上查看和下载。',
    en: 'Every contract payment, dinner payment and refund gets a receipt (school name, stamp, amount in capitals) that parents see and download on the phone.',
  },
  'a.month': { zh: '月份', en: 'Month' },
  'a.kind': { zh: '类型', en: 'Kind' },
  'a.all_kinds': { zh: '全部类型', en: 'All kinds' },
  'a.keyword': { zh: '学生姓名或收据号', en: 'Child or receipt no.' },
  'a.export': { zh: '导出本月', en: 'Export the month' },
  'a.export_name': { zh: '收据-{month}.xlsx', en: 'receipts-{month}.xlsx' },
  'a.download': { zh: '下载', en: 'Download' },
  'a.empty': { zh: '这个月还没有收据', en: 'No receipts this month' },
  'a.empty_filtered': { zh: '没有符合条件的收据', en: 'No receipt matches' },
  'col.no': { zh: '收据号', en: 'Receipt no.' },
  'col.kind': { zh: '类型', en: 'Kind' },
  'col.issued': { zh: '开具时间', en: 'Issued' },
  'col.student': { zh: '学生', en: 'Child' },
  'col.item': { zh: '项目', en: 'Item' },
  'col.amount': { zh: '金额', en: 'Amount' },
  'col.method': { zh: '支付方式', en: 'Paid by' },
  'col.txn': { zh: '交易单号', en: 'Transaction no.' },
  'col.original': { zh: '原收据号', en: 'Original' },
  'stamp.title': { zh: '收据印章', en: 'Receipt stamp' },
  'stamp.missing': {
    zh: '尚未上传印章：收据照常开具，但不带印章。上传后，新开具的收据会带上印章。',
    en: 'No stamp yet: receipts are issued without one. Receipts issued after an upload carry it.',
  },
  'stamp.present': {
    zh: '新开具的收据带此印章；已开具的收据保持不变。',
    en: 'New receipts carry this stamp; receipts already issued stay as they are.',
  },
  'stamp.hint': {
    zh: 'PNG 或 JPEG，不超过 2 MB，建议透明背景的红色圆章',
    en: 'PNG or JPEG up to 2 MB; a red round seal on a transparent background',
  },
  'stamp.upload': { zh: '上传印章', en: 'Upload a stamp' },
  'stamp.replace': { zh: '更换印章', en: 'Replace the stamp' },
  'stamp.uploaded': { zh: '印章已更新', en: 'Stamp updated' },
  'stamp.alt': { zh: '{school}的印章', en: "{school}'s stamp" },
});
