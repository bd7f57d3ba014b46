import { z } from 'zod';
import { addDays, dayDiff } from './contracts';
import { weekdayOf, type CalendarDay } from './schedule';
import { isCalendarDay } from './school-time';

/**
 * The State Council's arrangement of the public holidays and their 调休 make-up working days (国务院办公厅关于
 * 部分节假日安排的通知), by year, as data: what "导入法定节假日" on the school calendar applies (issue 27, item 3).
 *
 * Where it comes from: each year's notice of the General Office of the State Council (国办发明电), published on
 * www.gov.cn in the autumn before the year. Each festival line is copied from the notice: the closed days (放假, a
 * range, weekends included as the notice counts them) and the make-up working days (调休上班, always a Saturday or a
 * Sunday). For every make-up day the table says explicitly which weekday's timetable it runs (`works_as`): by the
 * convention schools follow, the weekday of the nearest closed workday of the same festival (the day it pays back).
 * holidays.spec.ts checks each line against that convention and that the day is a weekend.
 *
 * Adding a year (e.g. 2027, whose notice was not available when this table was written, so it is NOT here), either
 * - without a release: write the year into a JSON file (an array of entries shaped as below, e.g.
 *   `[{ "year": 2027, "notice": "国办发明电〔2026〕N号", "issued": "YYYY-MM-DD", "festivals": [...] }]`) and point the
 *   API's NATIONAL_HOLIDAYS_FILE at it: checked at start by HolidayFileSchema (a bad file stops the API, naming it),
 *   merged over this table by mergeHolidayYears (a year in the file replaces the built-in one); or
 * - in code:
 * 1. add `NATIONAL_HOLIDAYS[2027] = { year: 2027, notice: '国办发明电〔2026〕N号', issued: 'YYYY-MM-DD', festivals: [...] }`;
 * 2. one festival per line of the notice: `{ name: '春节', from, to, makeup: [{ day, works_as }] }`;
 * 3. run `npx jest src/holidays.spec.ts` in packages/shared: it checks the days, the weekends and the works_as.
 * Never guess a year's arrangement: a year without its notice stays absent (the import answers "no table").
 */

/** A make-up working day (调休上班): a Saturday or Sunday running the timetable of `works_as` (1 Monday .. 5 Friday). */
export interface HolidayMakeup {
  day: string;
  works_as: 1 | 2 | 3 | 4 | 5;
}

/** One festival of a notice: closed from..to (inclusive) and its make-up working days. */
export interface HolidayFestival {
  /** as the notice names it: 元旦, 春节, 清明节, 劳动节, 端午节, 中秋节, 国庆节 (or 国庆节、中秋节 together) */
  name: string;
  from: string;
  to: string;
  makeup: HolidayMakeup[];
}

/** One year's notice. */
export interface HolidayYear {
  year: number;
  /** the notice's number, e.g. 国办发明电〔2025〕7号 */
  notice: string;
  /** the day it was issued */
  issued: string;
  festivals: HolidayFestival[];
}

/** The arrangements known, by year. */
export const NATIONAL_HOLIDAYS: Record<number, HolidayYear> = {
  2025: {
    year: 2025,
    notice: '国办发明电〔2024〕12号',
    issued: '2024-11-12',
    festivals: [
      { name: '元旦', from: '2025-01-01', to: '2025-01-01', makeup: [] },
      {
        name: '春节',
        from: '2025-01-28',
        to: '2025-02-04',
        makeup: [
          { day: '2025-01-26', works_as: 2 },
          { day: '2025-02-08', works_as: 2 },
        ],
      },
      { name: '清明节', from: '2025-04-04', to: '2025-04-06', makeup: [] },
      { name: '劳动节', from: '2025-05-01', to: '2025-05-05', makeup: [{ day: '2025-04-27', works_as: 4 }] },
      { name: '端午节', from: '2025-05-31', to: '2025-06-02', makeup: [] },
      {
        name: '国庆节、中秋节',
        from: '2025-10-01',
        to: '2025-10-08',
        makeup: [
          { day: '2025-09-28', works_as: 3 },
          { day: '2025-10-11', works_as: 3 },
        ],
      },
    ],
  },
  2026: {
    year: 2026,
    notice: '国办发明电〔2025〕7号',
    issued: '2025-11-04',
    festivals: [
      { name: '元旦', from: '2026-01-01', to: '2026-01-03', makeup: [{ day: '2026-01-04', works_as: 5 }] },
      {
        name: '春节',
        from: '2026-02-15',
        to: '2026-02-23',
        makeup: [
          { day: '2026-02-14', works_as: 1 },
          { day: '2026-02-28', works_as: 1 },
        ],
      },
      { name: '清明节', from: '2026-04-04', to: '2026-04-06', makeup: [] },
      { name: '劳动节', from: '2026-05-01', to: '2026-05-05', makeup: [{ day: '2026-05-09', works_as: 2 }] },
      { name: '端午节', from: '2026-06-19', to: '2026-06-21', makeup: [] },
      { name: '中秋节', from: '2026-09-25', to: '2026-09-27', makeup: [] },
      {
        name: '国庆节',
        from: '2026-10-01',
        to: '2026-10-07',
        makeup: [
          { day: '2026-09-20', works_as: 4 },
          { day: '2026-10-10', works_as: 3 },
        ],
      },
    ],
  },
};

/** The arrangements by year: NATIONAL_HOLIDAYS, or it merged with a file's years (mergeHolidayYears). */
export type HolidayTable = Readonly<Record<number, HolidayYear>>;

const issue = (ctx: z.core.$RefinementCtx, path: PropertyKey[], message: string) => ctx.addIssue({ code: 'custom', path, message });

/**
 * One year's notice as NATIONAL_HOLIDAYS holds it, with the checks holidays.spec.ts makes of the built-in table: every
 * day a real day inside the year, from <= to, each closed day once in the year, a make-up day a Saturday or Sunday
 * running a weekday 1..5, never a closed day and listed once. (Which weekday it pays back is the notice's word: not
 * checked here; the built-in table's spec checks the convention.)
 */
export const HolidayYearSchema = z
  .strictObject({
    year: z.number().int().min(2000).max(2099),
    notice: z.string().trim().min(1).max(100),
    issued: z.string().refine((d) => isCalendarDay(d), 'not a YYYY-MM-DD day'),
    festivals: z
      .array(
        z.strictObject({
          name: z.string().trim().min(1).max(50),
          from: z.string().refine((d) => isCalendarDay(d), 'not a YYYY-MM-DD day'),
          to: z.string().refine((d) => isCalendarDay(d), 'not a YYYY-MM-DD day'),
          makeup: z.array(
            z.strictObject({
              day: z.string().refine((d) => isCalendarDay(d), 'not a YYYY-MM-DD day'),
              works_as: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5)], {
                error: 'works_as is a weekday 1 (Monday) .. 5 (Friday)',
              }),
            }),
          ),
        }),
      )
      .min(1),
  })
  .superRefine((y, ctx) => {
    const inYear = (d: string) => d.slice(0, 4) === String(y.year);
    const closed = new Map<string, string>();
    const made = new Map<string, string>();
    y.festivals.forEach((f, i) => {
      const at = ['festivals', i];
      if (!inYear(f.from) || !inYear(f.to)) issue(ctx, at, `${f.name}: ${f.from}..${f.to} is not inside ${y.year}`);
      if (f.from > f.to) {
        issue(ctx, at, `${f.name}: from ${f.from} is after to ${f.to}`);
        return;
      }
      for (let d = f.from; d <= f.to; d = addDays(d, 1)) {
        const other = closed.get(d);
        if (other) issue(ctx, at, `${f.name}: ${d} is already closed by ${other}`);
        closed.set(d, f.name);
      }
    });
    y.festivals.forEach((f, i) =>
      f.makeup.forEach((m, j) => {
        const at = ['festivals', i, 'makeup', j];
        if (!inYear(m.day)) issue(ctx, at, `${f.name}: make-up day ${m.day} is not inside ${y.year}`);
        if (weekdayOf(m.day) < 6) issue(ctx, at, `${f.name}: make-up day ${m.day} is not a Saturday or Sunday`);
        if (closed.has(m.day)) issue(ctx, at, `${f.name}: make-up day ${m.day} is a closed day of ${closed.get(m.day)}`);
        if (made.has(m.day)) issue(ctx, at, `${f.name}: make-up day ${m.day} is already one of ${made.get(m.day)}`);
        made.set(m.day, f.name);
      }),
    );
  });

/** The content of NATIONAL_HOLIDAYS_FILE: an array of further years' notices (each year once). */
export const HolidayFileSchema = z.array(HolidayYearSchema).superRefine((ys, ctx) => {
  const seen = new Set<number>();
  ys.forEach((y, i) => {
    if (seen.has(y.year)) issue(ctx, [i, 'year'], `${y.year} is in the file twice`);
    seen.add(y.year);
  });
});

/** The built-in table with further years: a year of `extra` replaces the built-in one. */
export function mergeHolidayYears(base: HolidayTable, extra: readonly HolidayYear[]): Record<number, HolidayYear> {
  const merged: Record<number, HolidayYear> = { ...base };
  for (const y of extra) merged[y.year] = y;
  return merged;
}

/** The years a table holds (the built-in one by default), in order. */
export function holidayYears(table: HolidayTable = NATIONAL_HOLIDAYS): number[] {
  return Object.keys(table)
    .map(Number)
    .sort((a, b) => a - b);
}

/** A day the arrangement sets: a holiday, or a make-up day with the weekday it runs as; `note` names the festival. */
export interface NationalDay {
  day: string;
  kind: 'holiday' | 'makeup';
  works_as: number | null;
  note: string;
}

/** Every day of a year's arrangement in day order (closed days, then make-up days, merged), or null without a table. */
export function nationalDays(year: number, table: HolidayTable = NATIONAL_HOLIDAYS): NationalDay[] | null {
  const y = table[year];
  if (!y) return null;
  const days: NationalDay[] = [];
  for (const f of y.festivals) {
    for (let d = f.from; d <= f.to; d = addDays(d, 1)) days.push({ day: d, kind: 'holiday', works_as: null, note: f.name });
    for (const m of f.makeup) days.push({ day: m.day, kind: 'makeup', works_as: m.works_as, note: `${f.name}调休` });
  }
  return days.sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
}

/**
 * The weekday a make-up day pays back by the convention: the weekday of the closed workday (Monday..Friday) of the
 * festival nearest to it (the earlier on a tie). The table encodes works_as explicitly; this checks it.
 */
export function conventionalWorksAs(f: Pick<HolidayFestival, 'from' | 'to'>, day: string): number | null {
  let best: { gap: number; day: string } | null = null;
  for (let d = f.from; d <= f.to; d = addDays(d, 1)) {
    if (weekdayOf(d) > 5) continue;
    const gap = Math.abs(dayDiff(d, day));
    if (!best || gap < best.gap) best = { gap, day: d };
  }
  return best ? weekdayOf(best.day) : null;
}

/** A day of the school's calendar as it is now. */
export type ExistingCalendarDay = Pick<CalendarDay, 'day' | 'kind' | 'works_as'>;

/** What importing a year does to a school's calendar. */
export interface HolidayPlan {
  year: number;
  notice: string;
  issued: string;
  /** the days to write (the school has nothing on them) */
  set: NationalDay[];
  /** the days the school already has exactly as the arrangement says (nothing to do: a second import) */
  same: NationalDay[];
  /** the days the school set otherwise: the school's own day wins and is kept */
  skipped: Array<NationalDay & { own: { kind: 'holiday' | 'makeup'; works_as: number | null } }>;
}

/**
 * The plan of importing `year` into a calendar holding `existing`: a day the school has is never overwritten (kept
 * as `same` when it already says the same, `skipped` otherwise); the others are `set`. Null without a table.
 */
export function holidayPlan(year: number, existing: readonly ExistingCalendarDay[], table: HolidayTable = NATIONAL_HOLIDAYS): HolidayPlan | null {
  const y = table[year];
  const days = nationalDays(year, table);
  if (!y || !days) return null;
  const own = new Map(existing.map((e) => [e.day, e]));
  const plan: HolidayPlan = { year, notice: y.notice, issued: y.issued, set: [], same: [], skipped: [] };
  for (const d of days) {
    const o = own.get(d.day);
    if (!o) plan.set.push(d);
    else if (o.kind === d.kind && (o.works_as ?? null) === d.works_as) plan.same.push(d);
    else plan.skipped.push({ ...d, own: { kind: o.kind, works_as: o.works_as ?? null } });
  }
  return plan;
}
