/**
 * Family conversations (issue 40): one conversation per child between the child's guardians and the school. Pure
 * rules used by the API's conversations module and the pages: the limits, the quick replies, who may retract, and the
 * staff's office hours (when the school answers, whom a message may notify). Days and clocks are the school's local
 * ones (school-time.ts), never the server's zone.
 */
import { addDays } from './contracts';
import { weekdayOf } from './schedule';
import { instantOf, localDay, localMinutes } from './school-time';

export const CONVERSATION_LIMITS = {
  /** the longest text of one message (characters) */
  textMax: 1000,
  /** a guardian may send at most this many messages a minute (all their conversations together) */
  guardianPerMinute: 6,
  /** a sender may retract their message this long after sending it; a mark stays */
  retractMs: 2 * 60_000,
  /** a guardian not reading within this long is told by WeChat or SMS (once per quiet period) */
  notifyDelayMs: 60_000,
  /** at most one WeChat/SMS notice per conversation and guardian in this long */
  notifyQuietMs: 30 * 60_000,
  /** messages per page */
  pageMax: 50,
} as const;

/** The two sides of a conversation. */
export const CONVERSATION_SIDES = ['family', 'school'] as const;
export type ConversationSide = (typeof CONVERSATION_SIDES)[number];

/** Quick replies, by the side that sends them (the index is what the API receives; the text is sent in zh). */
export const QUICK_REPLIES: Record<ConversationSide, ReadonlyArray<{ zh: string; en: string }>> = {
  family: [
    { zh: '收到，谢谢老师！', en: 'Got it, thank you!' },
    { zh: '今天由其他家人来接，稍后告知姓名。', en: 'Someone else in the family picks up today; name to follow.' },
    { zh: '孩子今天身体不太舒服，请多留意。', en: 'My child is a little unwell today, please keep an eye on them.' },
    { zh: '今天会晚一点来接，请多照看一会儿。', en: 'I will be a little late for pick-up today.' },
  ],
  school: [
    { zh: '收到，我们会留意。', en: 'Noted, we will keep an eye on it.' },
    { zh: '好的，已转告当班老师。', en: 'OK, I have told the teacher on duty.' },
    { zh: '孩子今天表现很好！', en: 'Your child did very well today!' },
    { zh: '请方便时回电，谢谢。', en: 'Please call us back when convenient.' },
  ],
};

/** A member of staff's weekly office hours: ISO weekdays (1 = Monday … 7 = Sunday) and a daily window HH:mm–HH:mm. */
export interface OfficeHours {
  days: number[];
  start: string;
  end: string;
}

/** Office hours of a member of staff who has not set theirs: weekdays 08:00–18:00. */
export const DEFAULT_OFFICE_HOURS: OfficeHours = { days: [1, 2, 3, 4, 5], start: '08:00', end: '18:00' };

const minutesOf = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Whether the hours are well formed: some distinct weekdays 1–7, start before end, both HH:mm. */
export function validOfficeHours(h: OfficeHours): boolean {
  const clock = /^([01]\d|2[0-3]):[0-5]\d$/;
  return (
    h.days.length > 0 &&
    h.days.every((d) => Number.isInteger(d) && d >= 1 && d <= 7) &&
    new Set(h.days).size === h.days.length &&
    clock.test(h.start) &&
    clock.test(h.end) &&
    minutesOf(h.start) < minutesOf(h.end)
  );
}

/** Whether `at` falls within the hours, on the school's wall clock (start inclusive, end exclusive). */
export function officeOpen(h: OfficeHours, at: Date, timeZone: string): boolean {
  const day = localDay(at, timeZone);
  if (!h.days.includes(weekdayOf(day))) return false;
  const m = localMinutes(at, timeZone);
  return m >= minutesOf(h.start) && m < minutesOf(h.end);
}

/** When the hours next open from `at`: `at` itself while open; null for hours without a day. */
export function nextOfficeOpening(h: OfficeHours, at: Date, timeZone: string): Date | null {
  if (officeOpen(h, at, timeZone)) return at;
  if (!h.days.length) return null;
  const today = localDay(at, timeZone);
  for (let i = 0; i <= 7; i++) {
    const day = addDays(today, i);
    if (!h.days.includes(weekdayOf(day))) continue;
    const opens = instantOf(day, h.start, timeZone);
    if (opens.getTime() > at.getTime()) return opens;
  }
  return null;
}

/**
 * When the school side answers a message sent at `at`: now when one of them is within office hours, else the
 * earliest next opening among them (null: nobody has office hours).
 */
export function schoolAnswersAt(hours: readonly OfficeHours[], at: Date, timeZone: string): Date | null {
  let best: Date | null = null;
  for (const h of hours) {
    const n = nextOfficeOpening(h, at, timeZone);
    if (n && (!best || n.getTime() < best.getTime())) best = n;
  }
  return best;
}

/** Whether a message sent at `sentAt` may still be retracted at `now` by its sender. */
export function canRetract(sentAt: Date, now: Date): boolean {
  const age = now.getTime() - sentAt.getTime();
  return age >= 0 && age <= CONVERSATION_LIMITS.retractMs;
}
