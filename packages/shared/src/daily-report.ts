/**
 * The child's daily report (每日反馈, issue 27 item 2): the teacher's quick-comment presets, the limits of a comment,
 * what a report still lacks, who took the child home, and the report's link. Pure; used by the API's reports module
 * (the projection `daily_reports`, the comment, the head teacher's status list) and the web's report pages.
 */

/** The categories of the quick-comment picker: 表现 / 作业 / 情绪. */
export const COMMENT_CATEGORIES = ['conduct', 'homework', 'mood'] as const;
export type CommentCategory = (typeof COMMENT_CATEGORIES)[number];

export interface CommentPreset {
  key: string;
  category: CommentCategory;
  zh: string;
  en: string;
}

/** The preset phrases a teacher taps (stored by key, shown in the reader's language). */
export const COMMENT_PRESETS: readonly CommentPreset[] = [
  { key: 'focused', category: 'conduct', zh: '今天学习很专注', en: 'Focused on work today' },
  { key: 'active', category: 'conduct', zh: '积极举手发言', en: 'Took part eagerly' },
  { key: 'helpful', category: 'conduct', zh: '乐于帮助同学', en: 'Helped classmates' },
  { key: 'polite', category: 'conduct', zh: '讲礼貌、守纪律', en: 'Polite and well-behaved' },
  { key: 'distracted', category: 'conduct', zh: '有些分心，需要提醒', en: 'A little distracted, needed reminders' },
  { key: 'hw_quick', category: 'homework', zh: '作业完成得又快又好', en: 'Homework done quickly and well' },
  { key: 'hw_neat', category: 'homework', zh: '书写工整', en: 'Neat handwriting' },
  { key: 'hw_corrected', category: 'homework', zh: '错题订正认真', en: 'Corrected mistakes carefully' },
  { key: 'hw_careless', category: 'homework', zh: '需要更仔细地检查', en: 'Should check work more carefully' },
  { key: 'hw_unfinished', category: 'homework', zh: '作业未全部完成，请在家督促', en: 'Homework not finished, please follow up at home' },
  { key: 'happy', category: 'mood', zh: '心情愉快', en: 'In a happy mood' },
  { key: 'calm', category: 'mood', zh: '情绪平稳', en: 'Calm and settled' },
  { key: 'tired', category: 'mood', zh: '有些疲惫，请注意休息', en: 'A little tired, please make sure they rest' },
  { key: 'upset', category: 'mood', zh: '有点小情绪，老师已沟通安抚', en: 'Was a bit upset; the teacher talked it through' },
];

export const COMMENT_PRESET_KEYS = COMMENT_PRESETS.map((p) => p.key);
const PRESET_BY_KEY = new Map(COMMENT_PRESETS.map((p) => [p.key, p]));
export const isCommentPreset = (key: string): boolean => PRESET_BY_KEY.has(key);
export const presetsOf = (category: CommentCategory): CommentPreset[] => COMMENT_PRESETS.filter((p) => p.category === category);

/** The free text of a comment (characters), the presets and photos it may hold. */
export const COMMENT_TEXT_MAX = 200;
export const COMMENT_PRESETS_MAX = 6;
export const COMMENT_PHOTOS_MAX = 6;

/** A comment's presets in the picker's order (category, then the list's order), each once; unknown keys dropped. */
export function normalizePresets(keys: readonly string[]): string[] {
  const chosen = new Set(keys);
  return COMMENT_PRESET_KEYS.filter((k) => chosen.has(k));
}

/** A comment says something: a preset or some free text. */
export const commentSaysSomething = (c: { presets: readonly string[]; text: string }): boolean => c.presets.length > 0 || c.text.trim().length > 0;

/** The comment as one text in a language: the presets' phrases, then the free text. */
export function commentText(c: { presets: readonly string[]; text: string }, lang: 'zh' | 'en' = 'zh'): string {
  const phrases = normalizePresets(c.presets).map((k) => PRESET_BY_KEY.get(k)![lang]);
  const text = c.text.trim();
  if (text) phrases.push(text);
  return phrases.join(lang === 'zh' ? '；' : '; ');
}

/** What a report may still lack: the teacher's comment, the departure (the report goes out at 离园), homework not yet checked. */
export const REPORT_LACKS = ['comment', 'departure', 'homework_unchecked'] as const;
export type ReportLack = (typeof REPORT_LACKS)[number];

export interface ReportFacts {
  /** the child was on leave that day: nothing is expected */
  on_leave: boolean;
  arrived_at: string | null;
  left_at: string | null;
  has_comment: boolean;
  homework: ReadonlyArray<{ done: boolean; marked: boolean }>;
}

/**
 * What a day's report lacks, in REPORT_LACKS order. A day on leave, or one the child never came, lacks nothing. A
 * homework handed in (done) but not checked lacks the teacher's check; one not done is the child's, not the report's.
 */
export function reportLacks(r: ReportFacts): ReportLack[] {
  if (r.on_leave || !r.arrived_at) return [];
  const lacks: ReportLack[] = [];
  if (!r.has_comment) lacks.push('comment');
  if (!r.left_at) lacks.push('departure');
  if (r.homework.some((h) => h.done && !h.marked)) lacks.push('homework_unchecked');
  return lacks;
}

/** The departure's payload as the flow writes it (issue 27 item 1 adds pickup_verified). */
export interface DeparturePayload {
  picked_up_by?: number | null;
  override?: string;
  pickup_verified?: { person?: number | null; name?: string; relation?: string; code_id?: string; offline?: boolean } | null;
}

export interface DepartureWho {
  /** the pick-up person's id (pickup_people), when known */
  person: number | null;
  /** their name from the verified code, else the one given (the pick-up person's name of picked_up_by) */
  name: string | null;
  relation: string | null;
  /** 'verified': a pick-up code was scanned; 'manual': recorded without a code */
  how: 'verified' | 'manual';
  /** the head teacher's reason for a departure past a rule (no code, …) */
  override: string | null;
  offline: boolean;
}

/** Who took the child home, from the departure's payload and the pick-up person of picked_up_by (name, relation). */
export function departureWho(payload: DeparturePayload, pickup: { name: string; relation: string } | null): DepartureWho {
  const v = payload.pickup_verified ?? null;
  return {
    person: v?.person ?? payload.picked_up_by ?? null,
    name: v?.name ?? pickup?.name ?? null,
    relation: v?.relation ?? pickup?.relation ?? null,
    how: v ? 'verified' : 'manual',
    override: payload.override ?? null,
    offline: !!v?.offline,
  };
}

/** The web path of a child's report of a day (the message's link). */
export const reportLink = (studentId: number, day: string): string => `/parent_report?student=${studentId}&day=${day}`;

/** The message key of a day's report to one guardian: one report message per child, day and guardian. */
export const reportMessageKey = (studentId: number, day: string, userId: number): string => `report:${studentId}:${day}:${userId}`;
