import {
  dueDayOk,
  guardianMayMarkDone,
  HOMEWORK_STATES,
  homeworkTransition,
  type HomeworkActor,
  type HomeworkCommand,
  type HomeworkDecision,
  type HomeworkState,
} from './homework';

describe('homeworkTransition', () => {
  it.each<[HomeworkState, HomeworkCommand, HomeworkActor, HomeworkDecision]>([
    // the teacher during tutoring
    ['todo', 'done', 'teacher', { ok: true, state: 'done', repeat: false }],
    ['todo', 'checked', 'teacher', { ok: true, state: 'checked', repeat: false }],
    ['todo', 'todo', 'teacher', { ok: true, state: 'todo', repeat: true }],
    ['done', 'checked', 'teacher', { ok: true, state: 'checked', repeat: false }],
    ['done', 'done', 'teacher', { ok: true, state: 'done', repeat: true }],
    ['done', 'todo', 'teacher', { ok: true, state: 'todo', repeat: false }],
    ['checked', 'checked', 'teacher', { ok: true, state: 'checked', repeat: true }],
    ['checked', 'done', 'teacher', { ok: false, error: 'homework.already_checked' }],
    ['checked', 'todo', 'teacher', { ok: true, state: 'todo', repeat: false }],
    // the guardian at home
    ['todo', 'done', 'guardian', { ok: true, state: 'done', repeat: false }],
    ['done', 'done', 'guardian', { ok: true, state: 'done', repeat: true }],
    ['checked', 'done', 'guardian', { ok: false, error: 'homework.already_checked' }],
    ['todo', 'checked', 'guardian', { ok: false, error: 'homework.guardian_only_done' }],
    ['done', 'todo', 'guardian', { ok: false, error: 'homework.guardian_only_done' }],
  ])('%s + %s by the %s', (state, cmd, actor, expected) => expect(homeworkTransition(state, cmd, actor)).toEqual(expected));

  it('the parent page button follows the machine', () => {
    for (const s of HOMEWORK_STATES) {
      const d = homeworkTransition(s, 'done', 'guardian');
      expect(guardianMayMarkDone(s)).toBe(d.ok && !d.repeat);
    }
  });
});

describe('dueDayOk', () => {
  it.each<[string, string, boolean]>([
    ['2026-11-23', '2026-11-23', true],
    ['2026-11-23', '2026-11-24', true],
    ['2026-11-23', '2026-11-22', false],
    ['2026-11-23', '2027-01-22', true],
    ['2026-11-23', '2027-01-23', false],
  ])('set %s, due %s', (set, due, ok) => expect(dueDayOk(set, due)).toBe(ok));
});
