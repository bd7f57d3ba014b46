/**
 * Messages the API sends in `msg`, in both languages (zh-CN default, en on request).
 * Keys are stable; `{name}` marks are filled from params.
 * One file per module prefix, each entry side by side: `'contracts.not_found': { zh: '…', en: '…' }`.
 * A key lives in exactly one file (messages.spec.ts checks it).
 */
import { authMessages } from './auth';
import type { Bilingual } from './bilingual';
import { careMessages } from './care';
import { commonMessages } from './common';
import { contractsMessages } from './contracts';
import { coursewareMessages } from './courseware';
import { examsMessages } from './exams';
import { flowMessages } from './flow';
import { homeworkMessages } from './homework';
import { leaveMessages } from './leave';
import { mealsMessages } from './meals';
import { noticesMessages } from './notices';
import { pointsMessages } from './points';
import { schoolMessages } from './school';
import { smsMessages } from './sms';
import { staffMessages } from './staff';
import { storeMessages } from './store';
import { studentsMessages } from './students';
import { teachingMessages } from './teaching';
import { timetableMessages } from './timetable';
import { tutoringMessages } from './tutoring';
import { wechatMessages } from './wechat';
import { pickupMessages } from './pickup';
import { reportsMessages } from './reports';
import { privacyMessages } from './privacy';
import { conversationsMessages } from './conversations';
import { receiptsMessages } from './receipts';

export type Lang = 'zh-CN' | 'en';
export const DEFAULT_LANG: Lang = 'zh-CN';

export function normalizeLang(value: unknown): Lang {
  return typeof value === 'string' && /^en\b/i.test(value.trim()) ? 'en' : 'zh-CN';
}

const messages = {
  ...commonMessages,
  ...authMessages,
  ...schoolMessages,
  ...smsMessages,
  ...contractsMessages,
  ...mealsMessages,
  ...staffMessages,
  ...studentsMessages,
  ...flowMessages,
  ...leaveMessages,
  ...careMessages,
  ...timetableMessages,
  ...storeMessages,
  ...pointsMessages,
  ...noticesMessages,
  ...teachingMessages,
  ...tutoringMessages,
  ...homeworkMessages,
  ...examsMessages,
  ...coursewareMessages,
  ...wechatMessages,
  ...pickupMessages,
  ...reportsMessages,
  ...privacyMessages,
  ...conversationsMessages,
  ...receiptsMessages,
} satisfies Record<string, Bilingual>;

export type MessageKey = keyof typeof messages;

const FIELD: Record<Lang, keyof Bilingual> = { 'zh-CN': 'zh', en: 'en' };

export function isMessageKey(value: string): value is MessageKey {
  return Object.prototype.hasOwnProperty.call(messages, value);
}

export function t(lang: Lang, key: MessageKey, params: Record<string, string | number> = {}): string {
  return (messages[key] as Bilingual)[FIELD[lang]].replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? `{${name}}`));
}
