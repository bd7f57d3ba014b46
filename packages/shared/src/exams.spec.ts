import { competitionRanks, defaultPass2, parseScoreCell, scoreBands, scoreStats, toHalfPoints } from './exams';

describe('parseScoreCell', () => {
  it.each<[string, string | number | null, number, ReturnType<typeof parseScoreCell>]>([
    ['a whole mark', '87', 100, { ok: true, absent: false, score2: 174 }],
    ['a half mark', '87.5', 100, { ok: true, absent: false, score2: 175 }],
    ['a number', 92.5, 100, { ok: true, absent: false, score2: 185 }],
    ['zero', '0', 100, { ok: true, absent: false, score2: 0 }],
    ['the full mark', '150', 150, { ok: true, absent: false, score2: 300 }],
    ['full-width digits and 分', '９５分', 100, { ok: true, absent: false, score2: 190 }],
    ['spaces around', ' 60 ', 100, { ok: true, absent: false, score2: 120 }],
    ['缺考', '缺考', 100, { ok: true, absent: true, score2: null }],
    ['absent in English', 'Absent', 100, { ok: true, absent: true, score2: null }],
    ['empty', '', 100, null],
    ['null', null, 100, null],
    ['over the full mark', '101', 100, { ok: false, error: 'exams.score_out_of_range' }],
    ['negative', -1, 100, { ok: false, error: 'exams.score_out_of_range' }],
    ['a minus sign in text', '-5', 100, { ok: false, error: 'exams.score_not_number' }],
    ['a quarter', '87.25', 100, { ok: false, error: 'exams.score_not_half' }],
    ['letters', 'abc', 100, { ok: false, error: 'exams.score_not_number' }],
    ['NaN', Number.NaN, 100, { ok: false, error: 'exams.score_not_number' }],
  ])('%s', (_, raw, full, expected) => expect(parseScoreCell(raw, full)).toEqual(expected));

  it('half points', () => {
    expect(toHalfPoints(0.5)).toBe(1);
    expect(toHalfPoints(0.3)).toBeNull();
  });
});

describe('competitionRanks', () => {
  it.each<[string, Array<number | null>, Array<number | null>]>([
    ['ties share the best rank and skip (1, 1, 3)', [90, 90, 80], [1, 1, 3]],
    ['in any order', [80, 90, 90], [3, 1, 1]],
    ['three tied then one', [70, 70, 70, 60], [1, 1, 1, 4]],
    ['absent has no rank', [null, 50, 60], [null, 2, 1]],
    ['all absent', [null, null], [null, null]],
    ['empty', [], []],
    ['half points', [175, 174, 175], [1, 3, 1]],
  ])('%s', (_, scores, ranks) => expect(competitionRanks(scores)).toEqual(ranks));
});

describe('scoreStats', () => {
  it.each<[string, Array<number | null>, number, ReturnType<typeof scoreStats>]>([
    ['mixed with an absent', [180, 100, null, 121], 120, { count: 3, absent: 1, average: 66.8, highest: 90, lowest: 50, passed: 2, pass_rate: 66.7 }],
    ['exactly the pass mark passes', [120], 120, { count: 1, absent: 0, average: 60, highest: 60, lowest: 60, passed: 1, pass_rate: 100 }],
    ['nobody sat', [null], 120, { count: 0, absent: 1, average: null, highest: null, lowest: null, passed: 0, pass_rate: null }],
    ['nothing', [], 120, { count: 0, absent: 0, average: null, highest: null, lowest: null, passed: 0, pass_rate: null }],
  ])('%s', (_, scores, pass2, expected) => expect(scoreStats(scores, pass2)).toEqual(expected));

  it('the default pass mark is 60% of the full mark, rounded up to a half point', () => {
    expect(defaultPass2(100)).toBe(120);
    expect(defaultPass2(150)).toBe(180);
    expect(defaultPass2(15)).toBe(18);
    expect(defaultPass2(7)).toBe(9); // 4.2 -> 4.5
  });
});

describe('scoreBands', () => {
  it('puts each score in its band, the full mark in the top one, absent nowhere', () => {
    const b = scoreBands([0, 119, 120, 139, 140, 170, 179, 180, 200, null], 100);
    expect(b.map((x) => [x.label, x.count])).toEqual([
      ['0–59.5', 2],
      ['60–69.5', 2],
      ['70–79.5', 1],
      ['80–89.5', 2],
      ['90–100', 2],
    ]);
  });
  it('a full mark of 150', () => {
    expect(scoreBands([300, 180, 179], 150).map((x) => [x.label, x.count])).toEqual([
      ['0–89.5', 1],
      ['90–104.5', 1],
      ['105–119.5', 0],
      ['120–134.5', 0],
      ['135–150', 1],
    ]);
  });
});
