/**
 * Exams and scores (issue 14): the pure rules shared by the API and the screens. Scores are kept as whole
 * half-points (`score2`: 87.5 -> 175) so that sums, ranks and bands are exact; an absent student has no score.
 */
import type { ScoreBand, ScoreStats } from './answers/exams';

/** The largest full mark of an exam (a whole number of points). */
export const EXAM_MAX_FULL_MARK = 1000;
/** The most classes one exam covers, and the most rows one batch of scores carries. */
export const EXAM_MAX_CLASSES = 30;
export const EXAM_MAX_BATCH = 2000;
/** The words a typed or pasted cell may use for an absent student. */
export const ABSENT_WORDS = ['缺考', '缺', 'absent', 'abs', '-'] as const;
/** Common subjects the forms offer (any other text is allowed). */
export const EXAM_SUBJECTS = ['语文', '数学', '英语', '科学', '物理', '化学', '道德与法治', '历史', '地理', '生物'] as const;

export type ScoreCell =
  | { ok: true; absent: true; score2: null }
  | { ok: true; absent: false; score2: number }
  | { ok: false; error: 'exams.score_not_number' | 'exams.score_out_of_range' | 'exams.score_not_half' };

/** Twice a mark (half-points), or null for a mark that is not a whole or half number. */
export function toHalfPoints(v: number): number | null {
  const x = v * 2;
  return Number.isFinite(x) && Math.abs(x - Math.round(x)) < 1e-9 ? Math.round(x) : null;
}

/** A mark from half-points: 175 -> 87.5. */
export const fromHalfPoints = (score2: number): number => score2 / 2;

/** The default pass mark: 60% of the full mark, rounded up to a half point (in half-points). */
export const defaultPass2 = (fullMark: number): number => Math.ceil(fullMark * 2 * 0.6);

/**
 * Reads one cell as typed or pasted: a number 0..fullMark in steps of 0.5 (full-width digits and a trailing 分
 * accepted), or an absent word. An empty cell is `null` (no entry).
 */
export function parseScoreCell(raw: string | number | null | undefined, fullMark: number): ScoreCell | null {
  if (raw === null || raw === undefined) return null;
  let v: number;
  if (typeof raw === 'number') v = raw;
  else {
    const text = raw
      .replace(/[０-９．]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
      .replace(/\s+/g, '')
      .replace(/分$/, '');
    if (text === '') return null;
    if ((ABSENT_WORDS as readonly string[]).includes(text.toLowerCase())) return { ok: true, absent: true, score2: null };
    if (!/^\d+(\.\d+)?$/.test(text)) return { ok: false, error: 'exams.score_not_number' };
    v = Number(text);
  }
  if (!Number.isFinite(v)) return { ok: false, error: 'exams.score_not_number' };
  if (v < 0 || v > fullMark) return { ok: false, error: 'exams.score_out_of_range' };
  const score2 = toHalfPoints(v);
  if (score2 === null) return { ok: false, error: 'exams.score_not_half' };
  return { ok: true, absent: false, score2 };
}

/**
 * Competition ranks ("1, 1, 3"): higher is better, equal scores share the best rank, the next rank skips the tied
 * ones; null (absent) has no rank. Answers ranks in the order given.
 */
export function competitionRanks(scores: ReadonlyArray<number | null>): Array<number | null> {
  const present = scores.filter((s): s is number => s !== null).sort((a, b) => b - a);
  const first = new Map<number, number>();
  present.forEach((s, i) => {
    if (!first.has(s)) first.set(s, i + 1);
  });
  return scores.map((s) => (s === null ? null : first.get(s)!));
}

const round1 = (v: number) => Math.round(v * 10) / 10;

/** Count, average (one decimal), highest, lowest and pass rate of half-point scores (null = absent). */
export function scoreStats(scores2: ReadonlyArray<number | null>, pass2: number): ScoreStats {
  let count = 0;
  let absent = 0;
  let sum = 0;
  let hi = -Infinity;
  let lo = Infinity;
  let passed = 0;
  for (const s of scores2) {
    if (s === null) {
      absent++;
      continue;
    }
    count++;
    sum += s;
    if (s > hi) hi = s;
    if (s < lo) lo = s;
    if (s >= pass2) passed++;
  }
  if (!count) return { count, absent, average: null, highest: null, lowest: null, passed: 0, pass_rate: null };
  return { count, absent, average: round1(sum / count / 2), highest: hi / 2, lowest: lo / 2, passed, pass_rate: round1((passed / count) * 100) };
}

/** The bands of the distribution: below 60%, then 60–70%, 70–80%, 80–90%, 90–100% of the full mark. */
export const BAND_EDGES = [0, 60, 70, 80, 90, 100] as const;

/** The distribution of half-point scores in the bands (absent ones not counted). */
export function scoreBands(scores2: ReadonlyArray<number | null>, fullMark: number): ScoreBand[] {
  const full2 = fullMark * 2;
  // a band's lowest half-point score: the first half point at or above its edge
  const low2 = BAND_EDGES.map((p) => Math.ceil((full2 * p) / 100));
  const bands: ScoreBand[] = [];
  for (let i = 0; i < BAND_EDGES.length - 1; i++) {
    const last = i === BAND_EDGES.length - 2;
    const lo = low2[i];
    const hi = last ? full2 : low2[i + 1] - 1;
    bands.push({ from: BAND_EDGES[i], to: BAND_EDGES[i + 1], label: `${lo / 2}–${Math.max(lo, hi) / 2}`, count: 0 });
  }
  for (const s of scores2) {
    if (s === null) continue;
    let i = bands.length - 1;
    while (i > 0 && s < low2[i]) i--;
    bands[i].count++;
  }
  return bands;
}
