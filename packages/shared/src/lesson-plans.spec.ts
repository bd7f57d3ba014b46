import {
  formatPages,
  itemSlides,
  LESSON_PLAN_MAX_ITEM_PAGES,
  parsePages,
  planMinutes,
  planSlides,
  type PagesParse,
  type SlideSource,
} from './lesson-plans';

describe('parsePages', () => {
  it.each<[string, number | null, PagesParse]>([
    ['', 5, { ok: true, pages: null }],
    ['   ', 5, { ok: true, pages: null }],
    ['1', 5, { ok: true, pages: [1] }],
    ['1-3', 5, { ok: true, pages: [1, 2, 3] }],
    ['1-3, 5', 5, { ok: true, pages: [1, 2, 3, 5] }],
    ['1～3，5', 5, { ok: true, pages: [1, 2, 3, 5] }],
    ['2至4', 5, { ok: true, pages: [2, 3, 4] }],
    ['3 2 1', 5, { ok: true, pages: [3, 2, 1] }],
    ['1-3,2-4', 5, { ok: true, pages: [1, 2, 3, 4] }],
    ['5、1', 5, { ok: true, pages: [5, 1] }],
    ['1 - 2', 5, { ok: true, pages: [1, 2] }],
    ['1 -', 5, { ok: false, error: 'courseware.plan_pages_invalid' }],
    ['0', 5, { ok: false, error: 'courseware.plan_pages_invalid' }],
    ['3-1', 5, { ok: false, error: 'courseware.plan_pages_invalid' }],
    ['a', 5, { ok: false, error: 'courseware.plan_pages_invalid' }],
    ['1-', 5, { ok: false, error: 'courseware.plan_pages_invalid' }],
    ['1.5', 5, { ok: false, error: 'courseware.plan_pages_invalid' }],
    ['6', 5, { ok: false, error: 'courseware.plan_pages_out_of_range' }],
    ['4-6', 5, { ok: false, error: 'courseware.plan_pages_out_of_range' }],
    ['120', null, { ok: true, pages: [120] }],
    ['10000', null, { ok: false, error: 'courseware.plan_pages_invalid' }],
  ])('%j of %s pages', (text, max, expected) => expect(parsePages(text, max)).toEqual(expected));

  it('refuses more pages than an item may list', () => {
    expect(parsePages(`1-${LESSON_PLAN_MAX_ITEM_PAGES}`, null)).toMatchObject({ ok: true });
    expect(parsePages(`1-${LESSON_PLAN_MAX_ITEM_PAGES + 1}`, null)).toEqual({ ok: false, error: 'courseware.plan_pages_invalid' });
  });
});

describe('formatPages', () => {
  it.each<[number[] | null, string]>([
    [null, ''],
    [[], ''],
    [[4], '4'],
    [[1, 2, 3], '1-3'],
    [[1, 2, 3, 5], '1-3, 5'],
    [[5, 1, 2], '5, 1-2'],
    [[1, 3, 5], '1, 3, 5'],
  ])('%j', (pages, text) => expect(formatPages(pages)).toBe(text));

  it('reads back what it writes', () => {
    for (const pages of [
      [1, 2, 3, 5],
      [9, 8, 7],
      [2, 3, 10, 11, 12, 1],
    ])
      expect(parsePages(formatPages(pages), null)).toEqual({ ok: true, pages });
  });
});

describe('planSlides', () => {
  const pdf = (pages: number[] | null, total: number, open = true): SlideSource => ({ kind: 'pdf', pages, total, open });
  it.each<[string, SlideSource[], Array<[number, number | null, boolean]>]>([
    ['nothing', [], []],
    [
      'a whole PDF',
      [pdf(null, 3)],
      [
        [0, 1, false],
        [0, 2, false],
        [0, 3, false],
      ],
    ],
    [
      'chosen pages in their order',
      [pdf([3, 1], 5)],
      [
        [0, 3, false],
        [0, 1, false],
      ],
    ],
    [
      'a PDF, an image, a video, a download',
      [
        pdf([2], 5),
        { kind: 'image', pages: null, total: 1, open: true },
        { kind: 'video', pages: null, total: null, open: true },
        { kind: 'other', pages: null, total: null, open: true },
      ],
      [
        [0, 2, false],
        [1, null, false],
        [2, null, false],
        [3, null, false],
      ],
    ],
    [
      'a locked PDF is one locked slide',
      [pdf(null, 5, false), pdf([1], 2)],
      [
        [0, null, true],
        [1, 1, false],
      ],
    ],
    ['a PDF of unknown length shows its first page', [pdf(null, 0)], [[0, 1, false]]],
  ])('%s', (_, items, expected) => {
    expect(planSlides(items).map((s) => [s.item, s.page, s.locked])).toEqual(expected);
    // the API's count is the viewer's, for open items
    if (items.every((i) => i.open)) expect(items.reduce((n, i) => n + itemSlides(i), 0)).toBe(expected.length);
  });
});

describe('planMinutes', () => {
  it.each<[Array<{ minutes?: number | null }>, number]>([
    [[], 0],
    [[{ minutes: 5 }, { minutes: 30 }, {}], 35],
    [[{ minutes: null }], 0],
  ])('%j', (steps, n) => expect(planMinutes(steps)).toBe(n));
});
