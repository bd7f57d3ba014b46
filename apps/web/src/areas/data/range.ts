import { addDays, addMonthsToDay, dataRangeOk, type DataGroup } from '@wantuo/shared';

export type Preset = '7' | '30' | '12w' | '6m' | '12m';

/** The presets offered for each grouping, the first being the default. */
export const PRESETS: Record<DataGroup, Preset[]> = { day: ['30', '7'], week: ['12w'], month: ['6m', '12m'] };

/** The range of a preset ending today. */
export function presetRange(p: Preset, today: string): { from: string; to: string } {
  switch (p) {
    case '7':
      return { from: addDays(today, -6), to: today };
    case '30':
      return { from: addDays(today, -29), to: today };
    case '12w':
      return { from: addDays(today, -7 * 12 + 1), to: today };
    case '6m':
      return { from: `${addMonthsToDay(today, -5).slice(0, 7)}-01`, to: today };
    case '12m':
      return { from: `${addMonthsToDay(today, -11).slice(0, 7)}-01`, to: today };
  }
}

export const rangeOk = (r: { from: string; to: string }, group: DataGroup) => dataRangeOk(r.from, r.to, group);
