import { defineStrings, type KeyOf } from '../../i18n/strings';

/** The teacher's phone pages' own words (the flow's, the pick-up's and the reports' come from their areas). */
export const teacherPhoneStrings = defineStrings({
  'tp.filter': { zh: '按状态筛选', en: 'Filter by state' },
  'tp.select_shown': { zh: '全选（{n}）', en: 'Select all ({n})' },
  'tp.clear': { zh: '取消选择', en: 'Clear' },
  'tp.scan_entry': { zh: '扫码放学', en: 'Scan a pick-up code' },
  'tp.scan_entry_hint': { zh: '扫家长或接送人出示的接送码，核验后离园', en: 'Scan the code a parent or pick-up person shows, then they leave' },
  'tp.comments_entry': { zh: '每日评语', en: 'Daily comments' },
  'tp.leave_confirm': { zh: '确认离园', en: 'Confirm departure' },
  'tp.leave_or_scan': { zh: '或扫接送码核验', en: 'or scan their pick-up code' },
  'tp.back_to_people': { zh: '返回选择接送人', en: 'Back to the pick-up people' },
  'tp.close': { zh: '关闭', en: 'Close' },
  'tp.wechat_scan': { zh: '微信扫一扫', en: 'Scan with WeChat' },
  'tp.camera_hint': { zh: '将接送码对准取景框', en: 'Point the camera at the code' },
  'tp.scan_again': { zh: '重新扫码', en: 'Scan again' },
  'tp.scan_none_here': {
    zh: '这张接送码的孩子不在您今天的名单里，或已离园',
    en: 'The children of this code are not on your list today, or have left',
  },
  'tp.scan_choose': { zh: '选择要接走的孩子', en: 'Children leaving now' },
  'tp.scan_loading': { zh: '正在读取今天的名单…', en: 'Reading today’s list…' },
  'tp.handover_title': { zh: '转交', en: 'Hand over' },
  'tp.detail': { zh: '详情', en: 'Details' },
  'tp.class_pick': { zh: '选择班级', en: 'Choose a class' },
  'tp.photos_add': { zh: '拍照 / 相册', en: 'Camera / photos' },
  'tp.saving': { zh: '保存中…', en: 'Saving…' },
});
export type TeacherPhoneKey = KeyOf<typeof teacherPhoneStrings>;
