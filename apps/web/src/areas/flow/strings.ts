import { defineStrings } from '../../i18n/strings';

/** The flow screens' own strings (the older ones are in i18n/messages.ts under `flow.`). */
export const flowStrings = defineStrings({
  // teacher's phone: a day/session contract running out (LOW_UNITS_BADGE or fewer units left)
  'units_left': { zh: '剩 {n} 次', en: '{n} left' },
  'units_left_hint': { zh: '合同剩余次数', en: 'Units left on the contract' },
});
