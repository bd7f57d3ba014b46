import { defineStrings } from '../../i18n/strings';

/** The care screens' own strings (the older ones are in i18n/console-messages.ts under `care.`). */
export const careStrings = defineStrings({
  // a student's own time slots (addStudentClassTime)
  'own_slots.col': { zh: '个人时间段', en: 'Own time slots' },
  'own_slots.none': { zh: '随班级', en: "The class's" },
  'own_slots.button': { zh: '时间段', en: 'Time slots' },
  'own_slots.title': { zh: '{name} 的个人时间段', en: "{name}'s own time slots" },
  'own_slots.hint': {
    zh: '选中的时间段替换该学生原有的个人时间段；一个都不选时，学生按班级的时间段上课。接送名单按当天最早的时间段排放学时间。',
    en: "The slots chosen replace the student's own; with none, the student follows the class's slot. The shuttle list uses the earliest slot of the day as the dismissal time.",
  },
  'own_slots.saved': { zh: '已保存 {name} 的时间段', en: "Saved {name}'s time slots" },
});
