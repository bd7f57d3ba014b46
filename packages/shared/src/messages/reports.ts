import type { Bilingual } from './bilingual';

/** The child's daily report (issue 27 item 2): reports.* */
export const reportsMessages = {
  'reports.student_not_found': { zh: '学生不存在或不是你可查看的学生', en: 'This student does not exist or is not one you may see' },
  'reports.class_not_found': { zh: '班级不存在或不是你负责的班级', en: 'This class does not exist or is not yours' },
  'reports.comment_forbidden': {
    zh: '只能给自己带的班级或任教班级的学生写评语',
    en: 'You may comment only on students of a class you teach or head',
  },
  'reports.comment_stale': { zh: '评语已被他人修改，请刷新后重试', en: 'Someone changed this comment meanwhile; reload and try again' },
  'reports.v.day_invalid': { zh: '日期格式需为 YYYY-MM-DD', en: 'A date looks like YYYY-MM-DD' },
  'reports.v.student_invalid': { zh: '请选择学生', en: 'Choose a student' },
  'reports.v.class_invalid': { zh: '请选择班级', en: 'Choose a class' },
  'reports.v.preset_invalid': { zh: '未知的快捷评语', en: 'Unknown quick comment' },
  'reports.v.presets_invalid': { zh: '快捷评语最多选 {max} 条，且不能重复', en: 'Choose at most {max} quick comments, each once' },
  'reports.v.photos_invalid': { zh: '照片最多 {max} 张', en: 'At most {max} photos' },
  'reports.v.photo_invalid': { zh: '照片地址无效', en: 'Not a valid photo' },
  'reports.v.version_invalid': { zh: '版本号无效', en: 'Not a valid version' },
  'reports.v.comment_empty': { zh: '请选择快捷评语或填写评语', en: 'Choose a quick comment or write one' },
} satisfies Record<string, Bilingual>;
