import type { Bilingual } from './bilingual';

/** Receipts (收据, issue 40: receipts.*). */
export const receiptsMessages = {
  'receipts.not_found': { zh: '未找到该收据', en: 'No such receipt' },
  'receipts.student_not_found': { zh: '未找到该学生', en: 'No such student' },
  'receipts.stamp_not_image': {
    zh: '印章图片只能是 PNG 或 JPEG 格式',
    en: 'The stamp must be a PNG or JPEG image',
  },
  'receipts.stamp_unreadable': { zh: '无法读取该印章图片，请换一张 PNG 或 JPEG 图片', en: 'The stamp image cannot be read: use another PNG or JPEG' },
  'receipts.v.id_invalid': { zh: '编号无效', en: 'Invalid id' },
  'receipts.v.month_invalid': { zh: '月份格式应为 YYYY-MM', en: 'The month must be YYYY-MM' },
  'receipts.v.kind_invalid': { zh: '收据类型无效', en: 'Invalid receipt kind' },
} satisfies Record<string, Bilingual>;
