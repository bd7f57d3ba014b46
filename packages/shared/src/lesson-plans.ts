/**
 * Lesson plans (issue 15, module `courseware`): the pure rules shared by the API and the web. A plan uses courseware
 * files in order; a PDF contributes the pages chosen (all of them when none are), any other file one slide. /attendClass
 * shows the slides one after another.
 */

export const LESSON_CLASS_KINDS = ['care', 'teaching', 'tutoring'] as const;
export type LessonClassKind = (typeof LESSON_CLASS_KINDS)[number];

export const LESSON_PLAN_MAX_STEPS = 20;
export const LESSON_PLAN_MAX_ITEMS = 40;
/** The most pages one item may list. */
export const LESSON_PLAN_MAX_ITEM_PAGES = 500;
/** The most slides a plan may have in class. */
export const LESSON_PLAN_MAX_SLIDES = 300;
/** The highest page number accepted at all (a file's own page count is the real bound). */
export const LESSON_PLAN_MAX_PAGE = 9999;

export type PagesParse =
  { ok: true; pages: number[] | null } | { ok: false; error: 'courseware.plan_pages_invalid' | 'courseware.plan_pages_out_of_range' };

/**
 * Pages as a teacher types them: "1-3, 5" (also "1～3，5"、"3 2"): in the order typed, each page once. Empty: every
 * page (null). `max` is the file's page count (null: unknown, only the global bound applies).
 */
export function parsePages(text: string, max: number | null): PagesParse {
  // "1 - 3" is a range: no spaces around its dash before splitting on spaces
  const src = text.trim().replace(/\s*([-–—~～至])\s*/g, '$1');
  if (!src) return { ok: true, pages: null };
  const bound = max ?? LESSON_PLAN_MAX_PAGE;
  const seen = new Set<number>();
  const pages: number[] = [];
  for (const part of src.split(/[\s,，、;；]+/).filter(Boolean)) {
    const m = /^(\d{1,4})(?:\s*[-–—~～至]\s*(\d{1,4}))?$/.exec(part);
    if (!m) return { ok: false, error: 'courseware.plan_pages_invalid' };
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    if (from < 1 || to < from) return { ok: false, error: 'courseware.plan_pages_invalid' };
    if (to > bound) return { ok: false, error: 'courseware.plan_pages_out_of_range' };
    for (let p = from; p <= to; p++) {
      if (seen.has(p)) continue;
      seen.add(p);
      pages.push(p);
      if (pages.length > LESSON_PLAN_MAX_ITEM_PAGES) return { ok: false, error: 'courseware.plan_pages_invalid' };
    }
  }
  return { ok: true, pages };
}

/** Pages written back as a teacher reads them: runs of consecutive pages as ranges ("1-3, 5"); null or empty: "". */
export function formatPages(pages: readonly number[] | null): string {
  if (!pages?.length) return '';
  const parts: string[] = [];
  let start = pages[0];
  let prev = pages[0];
  const flush = () => parts.push(start === prev ? String(start) : `${start}-${prev}`);
  for (const p of pages.slice(1)) {
    if (p === prev + 1) {
      prev = p;
      continue;
    }
    flush();
    start = prev = p;
  }
  flush();
  return parts.join(', ');
}

export type LessonFileKind = 'pdf' | 'image' | 'video' | 'other';

/** What a slide needs to know of its item. */
export interface SlideSource {
  kind: LessonFileKind;
  /** the pages chosen (PDF), null: all */
  pages: readonly number[] | null;
  /** the file's page count (PDF) */
  total: number | null;
  /** the school may still open it (a refund locks it) */
  open: boolean;
}

export interface Slide {
  /** the item's index in the plan */
  item: number;
  /** the PDF page; null for other kinds and locked items */
  page: number | null;
  locked: boolean;
}

/** The slides of a plan in class: each item in order, a PDF's pages one after another, anything else (or a locked item) one slide. */
export function planSlides(items: readonly SlideSource[]): Slide[] {
  const slides: Slide[] = [];
  items.forEach((it, item) => {
    if (!it.open) {
      slides.push({ item, page: null, locked: true });
      return;
    }
    if (it.kind !== 'pdf') {
      slides.push({ item, page: null, locked: false });
      return;
    }
    const pages = it.pages ?? Array.from({ length: Math.max(1, it.total ?? 1) }, (_, i) => i + 1);
    for (const page of pages) slides.push({ item, page, locked: false });
  });
  return slides;
}

/** How many slides an item gives (the API's count on save and in lists; planSlides' length for open items). */
export const itemSlides = (it: Pick<SlideSource, 'kind' | 'pages' | 'total'>): number =>
  it.kind === 'pdf' ? (it.pages?.length ?? Math.max(1, it.total ?? 1)) : 1;

/** The minutes of a plan's steps (those that give one). */
export const planMinutes = (steps: ReadonlyArray<{ minutes?: number | null }>): number => steps.reduce((n, s) => n + (s.minutes ?? 0), 0);
