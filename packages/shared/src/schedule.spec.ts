import {
  calendarDayProblem,
  describeClash,
  effectiveWeekday,
  findClashes,
  freeWindows,
  generateSessions,
  mondayOf,
  toHHMM,
  weekdayOf,
  type BusyInterval,
  type CalendarDay,
  type ProposedSession,
} from './schedule';

const m = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3));

describe('days', () => {
  it.each([
    ['2026-03-01', 7],
    ['2026-03-02', 1],
    ['2026-03-07', 6],
    ['2024-02-29', 4],
    ['2026-12-31', 4],
  ])('%s is weekday %i', (day, w) => expect(weekdayOf(day)).toBe(w));

  it.each([
    ['2026-03-02', '2026-03-02'],
    ['2026-03-08', '2026-03-02'],
    ['2026-03-01', '2026-02-23'],
    ['2027-01-01', '2026-12-28'],
  ])('the Monday of %s is %s', (day, monday) => expect(mondayOf(day)).toBe(monday));

  it.each([
    [0, '00:00'],
    [990, '16:30'],
    [1440, '24:00'],
  ])('%i minutes is %s', (n, s) => expect(toHHMM(n)).toBe(s));
});

describe('the school calendar', () => {
  it.each<[CalendarDay, ReturnType<typeof calendarDayProblem>]>([
    [{ day: '2026-03-04', kind: 'holiday' }, null],
    [{ day: '2026-03-07', kind: 'holiday' }, null],
    [{ day: '2026-03-04', kind: 'holiday', works_as: 1 }, 'holiday_works_as'],
    [{ day: '2026-03-07', kind: 'makeup', works_as: 3 }, null],
    [{ day: '2026-03-08', kind: 'makeup', works_as: 5 }, null],
    [{ day: '2026-03-06', kind: 'makeup', works_as: 3 }, 'makeup_not_weekend'],
    [{ day: '2026-03-07', kind: 'makeup', works_as: 6 }, 'works_as_invalid'],
    [{ day: '2026-03-07', kind: 'makeup' }, 'works_as_invalid'],
  ])('%j: %s', (d, problem) => expect(calendarDayProblem(d)).toBe(problem));

  it('a holiday runs nothing, a make-up day runs its works_as weekday, other days their own', () => {
    const cal = new Map<string, CalendarDay>([
      ['2026-03-04', { day: '2026-03-04', kind: 'holiday' }],
      ['2026-03-07', { day: '2026-03-07', kind: 'makeup', works_as: 3 }],
    ]);
    expect(effectiveWeekday('2026-03-04', cal)).toBeNull();
    expect(effectiveWeekday('2026-03-07', cal)).toBe(3);
    expect(effectiveWeekday('2026-03-05', cal)).toBe(4);
  });
});

describe('generateSessions', () => {
  const monWed = [
    { weekday: 1, start_time: '16:00', end_time: '17:00' },
    { weekday: 3, start_time: '16:00', end_time: '17:00' },
  ];
  const calendar: CalendarDay[] = [
    { day: '2026-03-04', kind: 'holiday', note: '校庆' },
    { day: '2026-03-07', kind: 'makeup', works_as: 3, note: '调休' },
  ];
  const days = (g: ReturnType<typeof generateSessions>) => g.sessions.map((s) => s.day);

  it.each<[string, Parameters<typeof generateSessions>[0], string[]]>([
    [
      'two weeks of Monday and Wednesday',
      { pattern: monWed, from: '2026-03-02', to: '2026-03-15' },
      ['2026-03-02', '2026-03-04', '2026-03-09', '2026-03-11'],
    ],
    [
      'the holiday skipped, the make-up Saturday runs as Wednesday',
      { pattern: monWed, from: '2026-03-02', to: '2026-03-15', calendar },
      ['2026-03-02', '2026-03-07', '2026-03-09', '2026-03-11'],
    ],
    ['a range starting mid-week', { pattern: monWed, from: '2026-03-05', to: '2026-03-11', calendar }, ['2026-03-07', '2026-03-09', '2026-03-11']],
    ['one day', { pattern: monWed, from: '2026-03-09', to: '2026-03-09' }, ['2026-03-09']],
    ['an empty range', { pattern: monWed, from: '2026-03-10', to: '2026-03-09' }, []],
    ['the limit stops it', { pattern: monWed, from: '2026-03-02', to: '2026-06-30', calendar, limit: 3 }, ['2026-03-02', '2026-03-07', '2026-03-09']],
    [
      'a Saturday class does not run on a make-up Saturday working as Wednesday',
      { pattern: [{ weekday: 6, start_time: '09:00', end_time: '10:30' }], from: '2026-03-02', to: '2026-03-15', calendar },
      ['2026-03-14'],
    ],
  ])('%s', (_, input, expected) => expect(days(generateSessions(input))).toEqual(expected));

  it('answers times in minutes and HH:MM, the weekday run, make-up sessions marked, skipped slots with the reason', () => {
    const g = generateSessions({
      pattern: [...monWed, { weekday: 6, start_time: '09:00', end_time: '10:30' }, { weekday: 3, start_time: '08:00', end_time: '09:00' }],
      from: '2026-03-02',
      to: '2026-03-08',
      calendar,
    });
    expect(g.sessions).toEqual([
      { day: '2026-03-02', weekday: 1, start: 960, end: 1020, start_time: '16:00', end_time: '17:00' },
      { day: '2026-03-07', weekday: 3, start: 480, end: 540, start_time: '08:00', end_time: '09:00', makeup: true },
      { day: '2026-03-07', weekday: 3, start: 960, end: 1020, start_time: '16:00', end_time: '17:00', makeup: true },
    ]);
    expect(g.skipped).toEqual([
      { day: '2026-03-04', weekday: 3, start_time: '08:00', end_time: '09:00', reason: 'holiday', note: '校庆' },
      { day: '2026-03-04', weekday: 3, start_time: '16:00', end_time: '17:00', reason: 'holiday', note: '校庆' },
      { day: '2026-03-07', weekday: 6, start_time: '09:00', end_time: '10:30', reason: 'makeup', note: '调休' },
    ]);
    expect(g.limit_reached).toBe(false);
  });

  it('20 weeks of three slots a week are 60 sessions', () => {
    const g = generateSessions({
      pattern: [...monWed, { weekday: 5, start_time: '18:00', end_time: '19:00' }],
      from: '2026-03-02',
      to: '2026-07-19',
    });
    expect(g.sessions).toHaveLength(60);
  });
});

describe('findClashes', () => {
  const session = (over: Partial<ProposedSession> = {}): ProposedSession => ({
    day: '2026-03-02',
    weekday: 1,
    start: m('16:00'),
    end: m('17:00'),
    teacher_id: 1,
    room_id: 10,
    student_ids: [100, 101],
    ...over,
  });
  const busy = (over: Partial<BusyInterval>): BusyInterval => ({
    kind: 'teacher',
    who: 1,
    day: '2026-03-02',
    start: m('16:30'),
    end: m('17:30'),
    ref: { source: 'teaching', session_id: 7, class_id: 3, label: '英语班' },
    ...over,
  });

  it.each<[string, ProposedSession[], BusyInterval[], Array<[string, number, string]>]>([
    ['nothing busy', [session()], [], []],
    ['the teacher in another session', [session()], [busy({})], [['teacher', 1, '英语班']]],
    ['touching ends do not clash', [session()], [busy({ start: m('17:00'), end: m('18:00') }), busy({ start: m('15:00'), end: m('16:00') })], []],
    ['another teacher, another day', [session()], [busy({ who: 2 }), busy({ day: '2026-03-03' })], []],
    ['the room', [session()], [busy({ kind: 'room', who: 10 })], [['room', 10, '英语班']]],
    ['no room proposed: no room clash', [session({ room_id: null })], [busy({ kind: 'room', who: 10 })], []],
    ['a student in another class', [session()], [busy({ kind: 'student', who: 101 })], [['student', 101, '英语班']]],
    [
      "a student's weekly care slot on the weekday run",
      [session(), session({ day: '2026-03-07', weekday: 1 }), session({ day: '2026-03-03', weekday: 2 })],
      [
        {
          kind: 'student',
          who: 100,
          weekdays: [1, 3],
          start: m('16:30'),
          end: m('18:00'),
          ref: { source: 'care', class_id: 5, label: '晚托一班 放学托管' },
        },
      ],
      [
        ['student', 100, '晚托一班 放学托管'],
        ['student', 100, '晚托一班 放学托管'],
      ],
    ],
    [
      'two proposed sessions of the same teacher and room at once',
      [session(), session({ start: m('16:45'), end: m('17:45') }), session({ start: m('17:45'), end: m('18:00') })],
      [],
      [
        ['teacher', 1, '16:00-17:00'],
        ['room', 10, '16:00-17:00'],
      ],
    ],
    [
      'every side of one session',
      [session()],
      [busy({}), busy({ kind: 'room', who: 10 }), busy({ kind: 'student', who: 100 }), busy({ kind: 'student', who: 101 })],
      [
        ['teacher', 1, '英语班'],
        ['room', 10, '英语班'],
        ['student', 100, '英语班'],
        ['student', 101, '英语班'],
      ],
    ],
  ])('%s', (_, proposed, existing, expected) => {
    expect(findClashes(proposed, existing).map((c) => [c.kind, c.who, c.with.label])).toEqual(expected);
  });

  it('names both sides: the proposed day and times, what it clashes with and its times', () => {
    const [c] = findClashes([session()], [busy({})], { teacher: new Map([[1, '王老师']]) });
    expect(c).toEqual({
      kind: 'teacher',
      who: 1,
      who_name: '王老师',
      day: '2026-03-02',
      start_time: '16:00',
      end_time: '17:00',
      with: { source: 'teaching', session_id: 7, class_id: 3, label: '英语班', day: '2026-03-02', start_time: '16:30', end_time: '17:30' },
    });
    expect(describeClash(c)).toBe('教师 王老师 2026-03-02 16:00-17:00 与 英语班 16:30-17:30 冲突');
  });

  it('200 classes x 20 weeks (8,000 sessions, 15 students each) against a busy school in well under a second', () => {
    const proposed: ProposedSession[] = [];
    const existing: BusyInterval[] = [];
    for (let c = 0; c < 200; c++) {
      const g = generateSessions({
        pattern: [
          { weekday: (c % 5) + 1, start_time: '16:00', end_time: '17:00' },
          { weekday: ((c + 2) % 5) + 1, start_time: '18:00', end_time: '19:00' },
        ],
        from: '2026-03-02',
        to: '2026-07-19',
      });
      const students = Array.from({ length: 15 }, (_, i) => c * 15 + i);
      for (const s of g.sessions) {
        proposed.push({ ...s, teacher_id: c, room_id: 1000 + c, student_ids: students });
        existing.push({ kind: 'teacher', who: c, day: s.day, start: s.start + 5, end: s.end + 5, ref: { source: 'teaching', label: 'x' } });
      }
      for (const st of students)
        existing.push({
          kind: 'student',
          who: st,
          weekdays: [1, 2, 3, 4, 5],
          start: m('19:00'),
          end: m('20:00'),
          ref: { source: 'care', label: 'care' },
        });
    }
    const t0 = performance.now();
    const clashes = findClashes(proposed, existing);
    const ms = performance.now() - t0;
    expect(proposed).toHaveLength(8000);
    expect(clashes).toHaveLength(8000);
    expect(ms).toBeLessThan(1000);
  });
});

describe('freeWindows', () => {
  it.each<[string, Array<[string, string]>, number, Array<[string, string]>]>([
    ['an empty day is one window', [], 60, [['08:00', '21:00']]],
    [
      'gaps between busy intervals, overlapping ones merged',
      [
        ['09:00', '10:00'],
        ['09:30', '11:00'],
        ['16:00', '17:00'],
      ],
      60,
      [
        ['08:00', '09:00'],
        ['11:00', '16:00'],
        ['17:00', '21:00'],
      ],
    ],
    [
      'too short gaps left out',
      [
        ['08:30', '12:00'],
        ['12:30', '20:30'],
      ],
      45,
      [],
    ],
    [
      'busy past the closing',
      [
        ['20:00', '22:00'],
        ['07:00', '08:30'],
      ],
      60,
      [['08:30', '20:00']],
    ],
  ])('%s', (_, busy, length, expected) => {
    const w = freeWindows(
      busy.map(([a, b]) => ({ start: m(a), end: m(b) })),
      m('08:00'),
      m('21:00'),
      length,
    );
    expect(w.map((x) => [x.start_time, x.end_time])).toEqual(expected);
  });
});
