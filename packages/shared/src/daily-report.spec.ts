import {
  COMMENT_CATEGORIES,
  COMMENT_PRESETS,
  commentSaysSomething,
  commentText,
  departureWho,
  normalizePresets,
  presetsOf,
  reportLacks,
  reportLink,
  reportMessageKey,
  type ReportFacts,
  type ReportLack,
} from './daily-report';

describe('comment presets', () => {
  it('every category has phrases, keys are unique, both languages present', () => {
    for (const c of COMMENT_CATEGORIES) expect(presetsOf(c).length).toBeGreaterThanOrEqual(3);
    expect(new Set(COMMENT_PRESETS.map((p) => p.key)).size).toBe(COMMENT_PRESETS.length);
    for (const p of COMMENT_PRESETS) {
      expect(p.zh).toMatch(/[\u4e00-\u9fff]/);
      expect(p.en).toMatch(/[a-z]/i);
    }
  });

  it('normalizes to the picker order, each once, unknown keys dropped', () => {
    expect(normalizePresets(['happy', 'focused', 'happy', 'nope'])).toEqual(['focused', 'happy']);
  });

  it.each<[string[], string, boolean]>([
    [[], '', false],
    [[], '   ', false],
    [['calm'], '', true],
    [[], '今天很棒', true],
  ])('presets %j and text %j say something: %s', (presets, text, says) => {
    expect(commentSaysSomething({ presets, text })).toBe(says);
  });

  it('renders presets then free text in the language', () => {
    expect(commentText({ presets: ['happy', 'focused'], text: ' 继续加油 ' })).toBe('今天学习很专注；心情愉快；继续加油');
    expect(commentText({ presets: ['calm'], text: '' }, 'en')).toBe('Calm and settled');
  });
});

describe('reportLacks', () => {
  const base: ReportFacts = { on_leave: false, arrived_at: '2026-03-02T08:00:00Z', left_at: '2026-03-02T10:00:00Z', has_comment: true, homework: [] };
  it.each<[string, Partial<ReportFacts>, ReportLack[]]>([
    ['complete', {}, []],
    ['no comment', { has_comment: false }, ['comment']],
    ['not left yet, no comment', { left_at: null, has_comment: false }, ['comment', 'departure']],
    ['homework done, not checked', { homework: [{ done: true, marked: false }] }, ['homework_unchecked']],
    ['homework not done is not the report’s lack', { homework: [{ done: false, marked: false }] }, []],
    ['homework checked', { homework: [{ done: true, marked: true }] }, []],
    ['on leave lacks nothing', { on_leave: true, has_comment: false, left_at: null }, []],
    ['never came lacks nothing', { arrived_at: null, left_at: null, has_comment: false }, []],
  ])('%s', (_, facts, lacks) => {
    expect(reportLacks({ ...base, ...facts })).toEqual(lacks);
  });
});

describe('departureWho', () => {
  const grandma = { name: '王奶奶', relation: '奶奶' };
  it.each<[string, Parameters<typeof departureWho>[0], typeof grandma | null, ReturnType<typeof departureWho>]>([
    [
      'a verified code names the person',
      { picked_up_by: 7, pickup_verified: { person: 7, name: '王奶奶', relation: '奶奶', code_id: 'c1', offline: true } },
      null,
      { person: 7, name: '王奶奶', relation: '奶奶', how: 'verified', override: null, offline: true },
    ],
    [
      'manual: the pick-up person of picked_up_by',
      { picked_up_by: 7 },
      grandma,
      { person: 7, name: '王奶奶', relation: '奶奶', how: 'manual', override: null, offline: false },
    ],
    [
      'manual with the head teacher’s reason',
      { picked_up_by: null, override: '手机没电' },
      null,
      { person: null, name: null, relation: null, how: 'manual', override: '手机没电', offline: false },
    ],
  ])('%s', (_, payload, pickup, who) => {
    expect(departureWho(payload, pickup)).toEqual(who);
  });
});

it('link and key per child and day', () => {
  expect(reportLink(12, '2026-03-02')).toBe('/parent_report?student=12&day=2026-03-02');
  expect(reportMessageKey(12, '2026-03-02', 5)).toBe('report:12:2026-03-02:5');
});
