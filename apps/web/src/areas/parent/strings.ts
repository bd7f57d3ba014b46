import { defineStrings } from '../../i18n/strings';

/** The parent's home: the children, their care class, today. */
export const parentStrings = defineStrings({
  'parent.children': { zh: '我的孩子', en: 'My children' },
  'parent.children_empty': {
    zh: '您绑定的孩子将显示在这里：机构为孩子建档并登记您为监护人后，即可查看孩子每天的接送、入园、晚餐、辅导和离园动态。',
    en: "Your children will appear here: once the centre registers a child with you as guardian, you can follow the child's pick-up, arrival, dinner, tutoring and leaving every day.",
  },
  'parent.care_class': { zh: '晚托班：{name} · 班主任：{head}', en: 'Care class: {name} · head teacher: {head}' },
  'parent.no_care_class': { zh: '尚未加入晚托班', en: 'Not in a care class yet' },
  'parent.today': { zh: '今日', en: 'Today' },
  'growth.no_children': {
    zh: '机构登记您为孩子的监护人后，这里会显示孩子的成长记录和兴趣班。',
    en: "Once the centre registers you as a child's guardian, the child's growth record and classes show here.",
  },
  'growth.comments': { zh: '老师评语', en: "Teachers' comments" },
  'growth.classes': { zh: '兴趣班', en: 'Classes' },
});
