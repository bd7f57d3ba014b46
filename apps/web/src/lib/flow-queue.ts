import { Code, type FlowResult, type FlowResults, type PostAction, type PostAnswer, type PostInput } from '@wantuo/shared';
import { ApiError, post } from '../api/http';
import { noteWrite } from './click-guard';
import { storage } from './storage';

/**
 * Flow taps made without a network (a phone in a lift, a school gate with no signal) wait here, in local storage,
 * with the event ids they were given when tapped; they are sent in order when the network returns. The server's
 * idempotency by event id makes a resend after an unknown outcome harmless.
 */
/** The flow's step actions: the POST actions whose answer is the per-student results. */
export type StepAction = { [K in PostAction]: PostAnswer<K> extends FlowResults ? K : never }[PostAction];

export interface QueuedCommand {
  action: StepAction;
  body: { student_ids: number[]; event_id: string } & Record<string, unknown>;
  queuedAt: number;
}

/** One student's outcome of a step (the declared FlowResult). */
export type StepResult = FlowResult;

// a queued body is one of the step inputs (it was built for its action); the union of inputs cannot be named per action
const send = (action: StepAction, body: QueuedCommand['body']) => post(action, body as PostInput<StepAction>, { silent: true });

const KEY = '_flow_queue';
const listeners = new Set<(n: number) => void>();

export function queued(): QueuedCommand[] {
  return storage.get<QueuedCommand[]>(KEY) ?? [];
}

function save(list: QueuedCommand[]): void {
  if (list.length) storage.set(KEY, list);
  else storage.remove(KEY);
  for (const l of listeners) l(list.length);
}

export function onQueueChange(fn: (n: number) => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

const offline = (e: unknown) => e instanceof ApiError && e.code === 0;

/**
 * Sends a step command now, or queues it when there is no network. Answers the per-student results, or null when
 * the command was queued.
 */
export async function sendStep(action: StepAction, body: QueuedCommand['body']): Promise<StepResult[] | null> {
  if (typeof navigator !== 'undefined' && !navigator.onLine) {
    save([...queued(), { action, body, queuedAt: Date.now() }]);
    // a tap queued is a write sent (later): its button is locked like one that posted (spec §5)
    noteWrite();
    return null;
  }
  try {
    return (await send(action, body)).results;
  } catch (e) {
    if (offline(e)) {
      save([...queued(), { action, body, queuedAt: Date.now() }]);
      return null;
    }
    throw e;
  }
}

let flushing = false;

/** Sends what waits, oldest first; stops at the first network failure. Answers the results of what was sent. */
export async function flushQueue(): Promise<StepResult[]> {
  if (flushing) return [];
  flushing = true;
  const results: StepResult[] = [];
  try {
    for (;;) {
      const [next, ...rest] = queued();
      if (!next) break;
      try {
        results.push(...(await send(next.action, next.body)).results);
      } catch (e) {
        if (offline(e)) break;
        // refused as a whole (e.g. signed out: code 401): keep it for after sign-in; bad input: drop it
        if (e instanceof ApiError && e.code === Code.Untoken) break;
      }
      save(rest);
    }
  } finally {
    flushing = false;
  }
  return results;
}
