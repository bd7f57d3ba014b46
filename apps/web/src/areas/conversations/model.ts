import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import {
  addDays,
  canRetract,
  localDay,
  localTime,
  validOfficeHours,
  weekdayOf,
  zonedParts,
  type ConversationInfo,
  type ConversationMessage,
  type ConversationSendInput,
  type ConversationSide,
  type OfficeHoursInfo,
  type OfficeHoursSaveInput,
} from '@wantuo/shared';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { get, post } from '../../api/http';
import { pick } from '../../i18n/messages';
import { newRequestId } from '../../lib/request-id';
import { usePreferences } from '../../stores/preferences';
import { useSession } from '../../stores/session';
import { conversationsStrings, WEEKDAY_LABELS } from './strings';

/**
 * Family conversations (issue 40) without a UI kit: the phone's pages and the consoles' share these. One child's
 * conversation is an infinite query (the first page the newest messages, each next page the ones before it); live
 * messages (live.ts) and the answers of writes are merged into that cache by id.
 */

/** messages asked for per page */
export const CONVERSATION_PAGE = 30;

export const conversationKey = (studentId: number) => ['conversationInfo', studentId] as const;
export const LIST_KEY = ['conversationList'] as const;
export const UNREAD_KEY = ['conversationUnread'] as const;
export const OFFICE_KEY = ['officeHoursInfo'] as const;

type Pages = InfiniteData<ConversationInfo, unknown>;

/** The conversation of a child: the newest page first, older pages (before the oldest id) on demand. */
export function useConversation(studentId: number) {
  const q = useInfiniteQuery({
    queryKey: conversationKey(studentId),
    queryFn: ({ pageParam }) =>
      get('conversationInfo', { student_id: studentId, limit: CONVERSATION_PAGE, ...(pageParam ? { before: pageParam } : {}) }),
    initialPageParam: 0,
    getNextPageParam: (last) => (last.has_more && last.messages.length > 0 ? last.messages[0].id : undefined),
  });
  const head = q.data?.pages[0];
  const messages = useMemo(() => (q.data ? messagesOf(q.data) : []), [q.data]);
  return { query: q, head, messages };
}

/** Every message of the pages loaded, oldest first, once each. */
export function messagesOf(data: Pages): ConversationMessage[] {
  const byId = new Map<number, ConversationMessage>();
  for (const p of data.pages) for (const m of p.messages) byId.set(m.id, byId.get(m.id) ?? m);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/**
 * Puts `message` into the cached conversation of `studentId`: replaces the one with its id (a retraction; `mine`
 * kept), else appends it to the newest page. Answers whether the conversation was in the cache.
 */
export function mergeMessage(
  qc: QueryClient,
  studentId: number,
  message: Omit<ConversationMessage, 'mine'> & { mine?: boolean },
  userId?: number,
): boolean {
  let cached = false;
  qc.setQueryData<Pages>(conversationKey(studentId), (data) => {
    if (!data?.pages.length) return data;
    cached = true;
    const mySide = data.pages[0].my_side;
    let found = false;
    const pages = data.pages.map((p) => {
      if (!p.messages.some((m) => m.id === message.id)) return p;
      found = true;
      return { ...p, messages: p.messages.map((m) => (m.id === message.id ? { ...message, mine: message.mine ?? m.mine } : m)) };
    });
    if (found) return { ...data, pages };
    const mine = message.mine ?? (message.side === mySide && message.sender_id !== null && message.sender_id === userId);
    const [first, ...rest] = pages;
    const next = [...first.messages, { ...message, mine }].sort((a, b) => a.id - b.id);
    return { ...data, pages: [{ ...first, messages: next }, ...rest] };
  });
  return cached;
}

/** Updates the newest page's header (office, read marks). */
function patchHead(qc: QueryClient, studentId: number, patch: (head: ConversationInfo) => Partial<ConversationInfo>): void {
  qc.setQueryData<Pages>(conversationKey(studentId), (data) => {
    if (!data?.pages.length) return data;
    const [first, ...rest] = data.pages;
    return { ...data, pages: [{ ...first, ...patch(first) }, ...rest] };
  });
}

/** Whether the signed-in user is one of the school's members of the conversation (an admin may read without being one). */
export function isMember(head: ConversationInfo, userId: number | undefined): boolean {
  return head.my_side === 'family' || head.school.some((m) => m.id === userId);
}

/** The list and the badges after something was sent or read. */
export function refreshCounts(qc: QueryClient): void {
  void qc.invalidateQueries({ queryKey: LIST_KEY });
  void qc.invalidateQueries({ queryKey: UNREAD_KEY });
}

/** Whether the page is shown (not a background tab, not a locked phone). */
export function usePageVisible(): boolean {
  const [visible, setVisible] = useState(() => typeof document === 'undefined' || document.visibilityState !== 'hidden');
  useEffect(() => {
    const on = () => setVisible(document.visibilityState !== 'hidden');
    document.addEventListener('visibilitychange', on);
    return () => document.removeEventListener('visibilitychange', on);
  }, []);
  return visible;
}

/**
 * Marks the conversation read (for the signed-in reader) up to its newest message of someone else's while the page is
 * shown: on opening, on each new message, and when the page comes back into view. Never asks twice for the same message. Not `enabled`: an admin
 * reading a conversation they are not a member of (their look must not tell the family the school has read it).
 */
export function useMarkRead(studentId: number, head: ConversationInfo | undefined, messages: readonly ConversationMessage[], enabled = true): void {
  const qc = useQueryClient();
  const visible = usePageVisible();
  const asked = useRef(0);
  const read = useMutation({
    mutationFn: (upto: number) => post('conversationRead', { student_id: studentId, upto_id: upto }, { silent: true }),
    onSuccess: (_, upto) => {
      patchHead(qc, studentId, (h) => ({ read: { ...h.read, [h.my_side]: Math.max(h.read[h.my_side] ?? 0, upto) } }));
      refreshCounts(qc);
    },
    onError: () => {
      // tried again with the next message or the next time the page is shown
      asked.current = 0;
    },
  });
  // the newest message someone else wrote (my own need no reading). Not compared with head.read: that is the side's
  // mark (a colleague's reading), while each reader's unread count is their own
  const newest = messages.reduce((n, m) => (!m.mine && m.id > n ? m.id : n), 0);
  const { mutate } = read;
  const loaded = head !== undefined;
  useEffect(() => {
    if (!enabled || !loaded || !visible || newest === 0 || newest <= asked.current) return;
    asked.current = newest;
    mutate(newest);
  }, [enabled, loaded, visible, newest, mutate]);
}

export const marksKey = (studentId: number) => ['conversationMarks', studentId] as const;

/**
 * A guardian's page keeps the school's read mark fresh (已读 under their messages): the newest message alone is asked
 * for every 30 s while the page is shown, and at once when a message of the school's arrives (live.ts). Staff pages do
 * not poll: each staff read of a conversation is logged.
 */
export function useReadMarks(studentId: number, head: ConversationInfo): void {
  const qc = useQueryClient();
  const visible = usePageVisible();
  const marks = useQuery({
    queryKey: marksKey(studentId),
    queryFn: () => get('conversationInfo', { student_id: studentId, limit: 1 }, { silent: true }),
    // the page's own first answer stands for the first 30 s
    initialData: head,
    initialDataUpdatedAt: () => Date.now(),
    staleTime: 30_000,
    enabled: head.my_side === 'family' && visible,
    refetchInterval: 30_000,
  });
  const fresh = marks.data;
  useEffect(() => {
    if (!fresh) return;
    patchHead(qc, studentId, (h) => ({
      read: {
        family: Math.max(h.read.family ?? 0, fresh.read.family ?? 0) || null,
        school: Math.max(h.read.school ?? 0, fresh.read.school ?? 0) || null,
      },
      office: fresh.office,
    }));
  }, [fresh, qc, studentId]);
}

/**
 * Sends to the conversation: a text, a photo (its upload's url) or a quick reply. Each message goes with a request_id
 * (the same one again when the very same message is retried after a failure: the server answers it once).
 */
export function useSendMessage(studentId: number, onSent?: (m: ConversationMessage) => void) {
  const qc = useQueryClient();
  const userId = useSession((s) => s.user?.id);
  const attempt = useRef<{ key: string; id: string } | null>(null);
  return useMutation({
    mutationFn: (input: Omit<ConversationSendInput, 'student_id' | 'request_id'>) => {
      const key = JSON.stringify(input);
      if (attempt.current?.key !== key) attempt.current = { key, id: newRequestId() };
      return post('conversationSend', { student_id: studentId, ...input, request_id: attempt.current.id });
    },
    onSuccess: (sent) => {
      attempt.current = null;
      mergeMessage(qc, studentId, { ...sent.message, mine: true }, userId);
      patchHead(qc, studentId, () => ({ office: sent.office }));
      void qc.invalidateQueries({ queryKey: LIST_KEY });
      onSent?.(sent.message);
    },
  });
}

/** Takes back one's own message (within CONVERSATION_LIMITS.retractMs; the server decides). */
export function useRetractMessage(studentId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => post('conversationRetract', { id }),
    onSuccess: (m) => {
      mergeMessage(qc, studentId, { ...m, mine: true });
      void qc.invalidateQueries({ queryKey: LIST_KEY });
    },
  });
}

/** `Date.now()` again every `ms` (the retract window closing while the page is open). */
export function useNow(ms = 10_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(t);
  }, [ms]);
  return now;
}

/**
 * Whether the reader may take this message back now: their own, not yet retracted, within the window. A message sent
 * "after now" (the page's clock ticks every few seconds, and the phone's clock may be behind the server's) counts as
 * just sent; the server decides in the end.
 */
export function retractable(m: ConversationMessage, now: number): boolean {
  const sent = new Date(m.sent_at);
  return m.mine && !m.retracted_at && canRetract(sent, new Date(Math.max(now, sent.getTime())));
}

/** The other side of a conversation (whose read mark says whether my message was read). */
export const otherSide = (side: ConversationSide): ConversationSide => (side === 'family' ? 'school' : 'family');

/** Whether the other side has read my message (their read mark at or past it). */
export function readByOther(head: ConversationInfo, m: ConversationMessage): boolean {
  const mark = head.read[otherSide(head.my_side)];
  return mark !== null && mark >= m.id;
}

/** The caller's unread messages and conversations (the badges). */
export function useUnread(enabled = true) {
  return useQuery({ queryKey: UNREAD_KEY, queryFn: () => get('conversationUnread', undefined, { silent: true }), enabled });
}

/** The signed-in staff member's office hours and their save. */
/** The office-hours form's draft (both forms, phone and console): the fields, what is wrong with them, whether changed. */
export function useOfficeHoursDraft(data: OfficeHoursInfo) {
  const s = conversationsStrings.use();
  const [days, setDays] = useState<number[]>(data.days);
  const [start, setStart] = useState(data.start);
  const [end, setEnd] = useState(data.end);
  const draft = { days: [...days].sort((a, b) => a - b), start, end };
  const problem = days.length === 0 ? s('office.need_days') : !validOfficeHours(draft) ? s('office.bad_range') : null;
  const changed = draft.days.join() !== data.days.join() || start !== data.start || end !== data.end;
  return { days, setDays, start, setStart, end, setEnd, draft, problem, changed };
}

export function useOfficeHours() {
  const qc = useQueryClient();
  const info = useQuery({ queryKey: OFFICE_KEY, queryFn: () => get('officeHoursInfo') });
  const save = useMutation({
    mutationFn: (v: OfficeHoursSaveInput) => post('officeHoursSave', v),
    onSuccess: (saved) => qc.setQueryData(OFFICE_KEY, saved),
  });
  return { info, save };
}

/**
 * When the school answers, in words on the school's clock: 今天 18:00, 明天 08:00, 周一 08:00 (within a week), else
 * 12/24 08:00.
 */
export function answersAtLabel(at: string, now: Date, zone: string, lang: 'zh-CN' | 'en'): string {
  // the words follow the preferences' language (the same `lang` the caller passes for the weekday's name)
  const s = conversationsStrings.t;
  const day = localDay(at, zone);
  const today = localDay(now, zone);
  const clock = localTime(at, zone);
  if (day === today) return `${s('day.today')} ${clock}`;
  if (day === addDays(today, 1)) return `${s('day.tomorrow')} ${clock}`;
  for (let i = 2; i < 7; i++) {
    if (day === addDays(today, i)) return `${s('day.weekday', { d: pick(lang, WEEKDAY_LABELS[weekdayOf(day)]) })} ${clock}`;
  }
  const p = zonedParts(at, zone);
  return `${p.month}/${p.day} ${clock}`;
}

/** The bubble's time: HH:mm today, MM/DD HH:mm before (the school's clock). */
export function bubbleTime(at: string, now: Date, zone: string): string {
  if (localDay(at, zone) === localDay(now, zone)) return localTime(at, zone);
  const p = zonedParts(at, zone);
  return `${p.month}/${p.day} ${localTime(at, zone)}`;
}

/** The language-bound answersAtLabel for a component. */
export function useAnswersAt(zone: string) {
  const lang = usePreferences((p) => p.lang);
  return useCallback((at: string) => answersAtLabel(at, new Date(), zone, lang), [zone, lang]);
}
