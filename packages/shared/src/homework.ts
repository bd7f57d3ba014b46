/**
 * Homework (issue 14): the state of one student's homework and who may move it where. Pure rules, table-tested in
 * homework.spec.ts; the API applies them to every row of a batch before one statement writes the changes.
 */
import { dayDiff } from './contracts';

/** todo: not done yet; done: done (at the centre during tutoring, or at home); checked: the teacher checked it. */
export const HOMEWORK_STATES = ['todo', 'done', 'checked'] as const;
export type HomeworkState = (typeof HOMEWORK_STATES)[number];

/** Who acts: a teacher (teacher or head teacher of the class) or a guardian at home. */
export type HomeworkActor = 'teacher' | 'guardian';

/** The commands: mark done, mark checked, reopen (back to not done: the teacher only). */
export const HOMEWORK_COMMANDS = ['done', 'checked', 'todo'] as const;
export type HomeworkCommand = (typeof HOMEWORK_COMMANDS)[number];

/** The classes homework is set for: a care class (晚托班) or a teaching class (兴趣班, the "teaching task"). */
export const HOMEWORK_KINDS = ['care', 'teaching'] as const;
export type HomeworkKind = (typeof HOMEWORK_KINDS)[number];

export const HOMEWORK_MAX_STUDENTS = 200;
export const HOMEWORK_MAX_FILES = 9;
/** the longest a homework may run: due at most 60 days after it is set */
export const HOMEWORK_MAX_DAYS = 60;

export type HomeworkDecision = { ok: true; state: HomeworkState; repeat: boolean } | { ok: false; error: string };

/**
 * The state machine: todo -> done -> checked. The teacher may also check homework not marked done (checked in one go)
 * and reopen done or checked homework (todo). A guardian marks done at home only homework not done yet; homework the
 * teacher checked stays checked (refused). A command whose target is the current state is a `repeat`: nothing written.
 */
export function homeworkTransition(state: HomeworkState, cmd: HomeworkCommand, actor: HomeworkActor): HomeworkDecision {
  if (actor === 'guardian') {
    if (cmd !== 'done') return { ok: false, error: 'homework.guardian_only_done' };
    if (state === 'checked') return { ok: false, error: 'homework.already_checked' };
    return { ok: true, state: 'done', repeat: state === 'done' };
  }
  if (cmd === state) return { ok: true, state, repeat: true };
  // a checked homework marked "done" again would undo the check: the teacher reopens it explicitly instead
  if (state === 'checked' && cmd === 'done') return { ok: false, error: 'homework.already_checked' };
  return { ok: true, state: cmd, repeat: false };
}

/** What a state allows a guardian (the parent page's button). */
export const guardianMayMarkDone = (s: HomeworkState) => s === 'todo';

/** A due date is valid when it is not before the day the homework is set and at most HOMEWORK_MAX_DAYS later. */
export function dueDayOk(setDay: string, dueDay: string): boolean {
  const d = dayDiff(setDay, dueDay);
  return d >= 0 && d <= HOMEWORK_MAX_DAYS;
}
