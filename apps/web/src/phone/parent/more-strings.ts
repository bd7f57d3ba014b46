import { defineStrings, type KeyOf } from '../../i18n/strings';

/** The phone's words for the parent's homework, notices, scores, points and messages pages (the areas' own are reused). */
export const moreStrings = defineStrings({
  'pm.day': { zh: '日期', en: 'Day' },
  'pm.prev_day': { zh: '前一天', en: 'Day before' },
  'pm.next_day': { zh: '后一天', en: 'Day after' },
  'pm.today': { zh: '今天', en: 'Today' },
  'pm.choose_day': { zh: '选择日期', en: 'Choose a day' },
  'pm.no_more': { zh: '没有更多了', en: 'No more' },
  'pm.loading_more': { zh: '加载中', en: 'Loading' },
  'pm.load_more_failed': { zh: '加载失败，点击重试', en: 'Failed to load: tap to retry' },
  'pm.attachment': { zh: '附件', en: 'Attachment' },
  'pm.home_photo': { zh: '在家完成的照片', en: 'Photo from home' },
  'pm.all': { zh: '全部', en: 'All' },
  'pm.close': { zh: '关闭', en: 'Close' },
  'pm.notices': { zh: '学校通知', en: "The school's notices" },
  'pm.notices_hint': { zh: '老师和机构发布的通知', en: 'Notices from the teachers and the centre' },
  'pm.notices_unread': { zh: '{n} 条未读', en: '{n} unread' },
  'pm.notices_all_read': { zh: '全部已读', en: 'All read' },
  'pm.shop': { zh: '商城', en: 'Shop' },
  'pm.history': { zh: '记录', en: 'History' },
  'pm.orders': { zh: '兑换', en: 'Exchanges' },
  'pm.confirm_exchange': { zh: '确认兑换', en: 'Exchange' },
  'pm.balance_of': { zh: '{name} 的积分', en: "{name}'s points" },
  'pm.choose_photo': { zh: '请先上传一张作业照片', en: 'Upload a photo of the homework first' },
  'pm.upload_failed': { zh: '照片上传失败，请重试', en: 'The photo did not upload: try again' },
});

export type MoreKey = KeyOf<typeof moreStrings>;
