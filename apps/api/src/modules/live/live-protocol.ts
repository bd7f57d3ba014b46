import type { FlowEventMessage } from '@wantuo/shared';
import type { SessionUser } from '../../core/http/request-context';
import type { TailEvent } from './flow-horizon';
import type { Audience } from './live-auth';

// The live flow's wire protocol and timing constants (flow.gateway.ts).

/** The server event every client listens to (design.md §2). */
export const FLOW_EVENT = 'flow.event';
/**
 * Sockets that asked for batches (handshake `auth.batch: true`) get their live events as `flow.events`: an array of
 * FlowEventMessage in position order, one message per flush instead of one per event. What a board pays for is the
 * messages, not their size: a class's batch of 30 events is one write per board instead of 30.
 */
export const FLOW_EVENTS = 'flow.events';
/** Under load, live events are flushed at most this often (a flush after a quiet moment goes out at once). */
export const FLUSH_MS = 20;
/**
 * When a transaction still running held the horizon back at a flush, the horizon is checked again after this long,
 * then twice as long each time it is still held, up to HELD_MAX_MS: an append in flight ends within milliseconds, a
 * long transaction (an import) should not cost a query every few milliseconds while it runs.
 */
export const HELD_FIRST_MS = 2;
export const HELD_MAX_MS = 250;
/** fences kept while the horizon is held back (the oldest ones and the newest: enough to move on as soon as it can) */
export const MAX_FENCES = 8;
/**
 * How long a catch-up waits for a fresh horizon (one taken after the client connected) while a running transaction
 * holds it back; then it goes up to the horizon it has and the tail brings the rest, held for it, in order.
 */
export const FRESH_WAIT_MS = 1_000;
/** at shutdown, how long the last flush may wait for the database */
export const LAST_FLUSH_MS = 1_000;
/** the room every batch socket joins, so the per-event broadcast leaves them out */
export const BATCH_ROOM = 'batch';
/**
 * Between API processes (Redis adapter serverSideEmit): "positions up to this one were committed here". A wake-up
 * only: each process reads the committed events itself, up to its own horizon, for its own sockets.
 */
export const PEER_EVENT = 'flow.committed.position';
/** what a process of the previous release sends instead (the committed events of a flush): a wake-up too */
export const LEGACY_PEER_EVENT = 'flow.committed.batch';
/**
 * A day's meal counts of the school (MealCountMessage) after a booking, a payment, a leave or a served dinner changed
 * today's: to the school's admins and to the classes of the students concerned (their head teachers' boards). Not a
 * flow event: no position, no catch-up; a page reads the counts when it opens and takes these as they come.
 */
export const MEALS_COUNT = 'meals.count';
/**
 * A family conversation's new or retracted message (ConversationLiveMessage), to the sockets of the users concerned
 * (room user:<id>, every socket joins its user's room). Not a flow event: no position, no catch-up; a page reads the
 * conversation when it opens and takes these as they come.
 */
export const CONVERSATION_MESSAGE = 'conversation.message';
/** Sent before the server drops a socket whose session ended (logout, password change, expiry, account disabled). */
export const FLOW_ERROR = 'flow.error';
/** how often the sessions of open sockets are checked again */
export const RECHECK_MS = 60_000;

export interface LiveData {
  user: SessionUser;
  audience: Audience;
  /** the last global_position the client saw; null: live events only */
  since: number | null;
  /** live events as `flow.events` batches */
  batch: boolean;
  /** follows the flow (false: only the user's own room, for a conversation page) */
  flow: boolean;
}

/** Strips a read event to the wire shape (no school_id, nothing else). */
export const toMessage = (e: TailEvent): FlowEventMessage => ({
  position: e.position,
  student_id: e.student_id,
  class_id: e.class_id,
  day: e.day,
  type: e.type,
  state: e.state,
  at: e.at,
  actor: e.actor,
});

export function parseSince(v: unknown): number | null | 'bad' {
  if (v === undefined || v === null || v === '') return null;
  const n = typeof v === 'string' && /^\d{1,15}$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : 'bad';
}
