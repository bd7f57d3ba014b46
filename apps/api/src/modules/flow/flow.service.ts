import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  boardState,
  decide,
  evolve,
  replay,
  Role,
  t,
  type BoardState,
  type FlowCommand,
  type FlowEvent,
  type FlowEventType,
  type FlowPayload,
  type FlowResult,
  type FlowResults,
  type MessageKey,
  type StudentDayInfo,
  type VoidFlowEventInput,
} from '@wantuo/shared';
import { createHash, randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { schoolToday, uniqueViolationOf } from '../../core/database/sql-kit';
import { DomainEvents } from '../../core/events/domain-events';
import { AppError } from '../../core/http/app-error';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { FlowReadRepository } from './flow-read.repository';
import { FlowReadService } from './flow-read.service';
import { FlowCommandRepository, type LoadRow } from './flow-command.repository';
import { APPEND_EVENT_WIDTH, columnsOf, projectionRow, toFlowEvent } from './flow-store';

/**
 * A student a command is for, with what the state machine needs to know about them (FlowCommandRepository.load):
 * pickup_ids the authorised (not deleted) pick-up people, all_pickup_ids every one the student ever had (a left_with
 * must be one of them), mine whether the caller is responsible for the student or was handed their task today.
 */
type Target = Pick<LoadRow, 'id' | 'needs_shuttle' | 'class_id' | 'pickup_ids' | 'all_pickup_ids' | 'mine'>;

/** A stored event of a student's stream of the day (a load row with its event, or a streams row), as the state machine folds it. */
function streamRow(r: Pick<LoadRow, 'event_id' | 'type' | 'payload' | 'actor' | 'at' | 'student_id' | 'state_after'>) {
  return {
    event_id: r.event_id!,
    type: r.type!,
    payload: r.payload as FlowPayload,
    actor: r.actor,
    at: r.at!,
    student_id: r.student_id!,
    state_after: r.state_after as BoardState,
  };
}
type StreamRow = ReturnType<typeof streamRow>;

/** One appended event, for the domain event after commit. */
interface Appended {
  position: number;
  student_id: number;
  class_id: number | null;
  day: string;
  type: FlowEventType;
  state: ReturnType<typeof boardState>;
  at: string;
  actor: number | null;
}

/**
 * Run in the transaction of a command's append, before it (only when there is something to append): a module's rows
 * that must commit with the events or not at all (the pick-up code a departure used). Throwing rolls the append back.
 */
export type AppendClaim = (em: EntityManager) => Promise<void>;

/** A result before translation: the refusal as a message key. */
export type RawResult = Omit<FlowResult, 'error'> & { errorKey?: MessageKey };

/**
 * A deterministic UUID (v5-like, sha1) for student `studentId` of a batch sent with one client event id, so a
 * retried batch is idempotent per student.
 */
export function deriveEventId(eventId: string, studentId: number | string): string {
  const h = createHash('sha1').update(`${eventId.toLowerCase()}:${studentId}`).digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

/**
 * Whether an append failed because it lost a race: a version or an event id someone stored since the streams were
 * read (unique violation of flow_events), or a deadlock with another batch (PostgreSQL aborts one of the two).
 */
function lostRace(err: unknown): boolean {
  const e = err as { driverError?: { code?: string }; code?: string };
  if ((e?.driverError ?? e)?.code === '40P01') return true;
  const constraint = uniqueViolationOf(err);
  return constraint === 'flow_events_event_id_key' || constraint === 'flow_events_pkey';
}

/** The answer for a student whose event id is already stored: its first result, or a refusal if it was another student's. */
const doneResult = (studentId: number, eventId: string, first: { student_id: number; state: BoardState }): RawResult =>
  first.student_id === studentId
    ? { student_id: studentId, ok: true, state: first.state, event_id: eventId }
    : { student_id: studentId, ok: false, errorKey: 'flow.event_id_reused' };

/**
 * The event store of the daily flow (design.md §4): per student-day an append-only stream in flow_events, the
 * student_days projection updated in the same transaction, optimistic concurrency on the stream version,
 * idempotency by event id, and 'flow.committed' domain events after commit.
 */
@Injectable()
export class FlowService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly events: DomainEvents,
    private readonly read: FlowReadService,
    private readonly repo: FlowReadRepository,
    private readonly commands: FlowCommandRepository,
  ) {}

  /** A head teacher takes back a student's latest step of a day (today by default) with a reason; answers the day after. */
  async voidEvent(user: SchoolCaller, input: VoidFlowEventInput): Promise<StudentDayInfo> {
    const day = input.date ?? (await schoolToday(this.db, user.schoolId));
    const [result] = await this.run(
      user,
      [input.student_id],
      { type: 'void', event_id: input.event_id.toLowerCase(), reason: input.reason },
      { day },
    );
    if (!result.ok) throw new AppError(result.errorKey ?? 'flow.stale');
    const student = await this.repo.student(input.student_id);
    return this.read.dayOf(user.schoolId, student, day);
  }

  /**
   * Runs one command for many students of the caller's school on a day (today by default): decides for each
   * student with the shared state machine and appends every student's events in one set-based statement with
   * optimistic concurrency (version) and idempotency by event_id (a repeated event_id answers the first result and
   * writes nothing); after commit emits 'flow.committed' per appended event. Never throws for a per-student
   * refusal: it is in the result.
   */
  async command(
    user: SchoolCaller,
    studentIds: number[],
    cmd: FlowCommand,
    opts: { eventId?: string; day?: string; system?: boolean; claim?: AppendClaim } = {},
  ): Promise<FlowResults> {
    const raw = await this.run(user, studentIds, cmd, opts);
    return { results: raw.map(({ errorKey, ...r }) => (errorKey ? { ...r, error: t(user.lang, errorKey) } : r)) };
  }

  /**
   * command() with the refusals as message keys. Two round trips whatever the batch size (the session comes from the
   * guard's cache, else it is a third): the students with the school's day and their streams of that day in one
   * prepared statement, then one append statement.
   * When the append loses a race (someone appended to one of the streams since they were read, or sent the same
   * event id), nothing of it was written and each student is tried again alone, so only the students concerned
   * are told.
   */
  async run(
    user: SchoolCaller,
    studentIds: number[],
    cmd: FlowCommand,
    opts: { eventId?: string; day?: string; system?: boolean; claim?: AppendClaim } = {},
  ): Promise<RawResult[]> {
    const schoolId = user.schoolId;
    const ids = [...new Set(studentIds)];
    const eventIds = new Map(
      ids.map((id) => [id, opts.eventId ? (ids.length > 1 ? deriveEventId(opts.eventId, id) : opts.eventId.toLowerCase()) : randomUUID()]),
    );
    const { day, targets, streams } = await this.load(schoolId, ids, user.id, opts.day);
    const byId = new Map(targets.map((s) => [s.id, s]));
    const mustBeMine = !opts.system && (user.role === Role.Teacher || user.role === Role.HeadTeacher);

    const results = new Map<number, RawResult>();
    const mine: Target[] = [];
    for (const id of ids) {
      const target = byId.get(id);
      if (!target || (mustBeMine && !target.mine)) results.set(id, { student_id: id, ok: false, errorKey: 'flow.student_not_found' });
      else mine.push(target);
    }
    // in student order, so two batches over the same students take their index entries in the same order
    mine.sort((a, b) => a.id - b.id);
    const appended: Appended[] = [];
    try {
      const batch = mine.length ? await this.tryAppend(user, mine, day, cmd, eventIds, streams, opts.claim) : { results: [], events: [] };
      if (batch) {
        for (const r of batch.results) results.set(r.student_id, r);
        appended.push(...batch.events);
      } else {
        for (const target of mine) {
          const eventId = eventIds.get(target.id)!;
          const one = await this.tryAppend(user, [target], day, cmd, eventIds, undefined, opts.claim);
          if (one) {
            results.set(target.id, one.results[0]);
            appended.push(...one.events);
            continue;
          }
          // lost again: either the same event id won meanwhile (then it is done) or another command did (stale)
          const first = (await this.firstResults([eventId])).get(eventId);
          results.set(target.id, first ? doneResult(target.id, eventId, first) : { student_id: target.id, ok: false, errorKey: 'flow.stale' });
        }
      }
      if (opts.eventId) await this.answerStoredElsewhere(mine, eventIds, results);
    } finally {
      // whatever committed is published, even when a later student's append failed
      for (const a of appended) this.events.emit('flow.committed', { ...a, school_id: schoolId });
    }
    return ids.map((id) => results.get(id)!);
  }

  /**
   * A client's event id refused by the state machine may have been stored outside the day's stream that was read:
   * a retry sent after midnight, or an id used for another student. Such a student gets the first result (or the
   * reuse refusal) rather than the rule's refusal. One query, only when something was refused.
   */
  private async answerStoredElsewhere(targets: Target[], eventIds: Map<number, string>, results: Map<number, RawResult>): Promise<void> {
    const refused = targets.filter((s) => results.get(s.id)?.ok === false && results.get(s.id)?.errorKey !== 'flow.stale');
    if (!refused.length) return;
    const stored = await this.firstResults(refused.map((s) => eventIds.get(s.id)!));
    for (const s of refused) {
      const first = stored.get(eventIds.get(s.id)!);
      if (first) results.set(s.id, doneResult(s.id, eventIds.get(s.id)!, first));
    }
  }

  /**
   * The school's students of a command (active ones), with what deciding needs, the day (today unless given) and each
   * student's stream of that day, in ONE prepared statement: a row per event of the day (in stream order), or one row
   * without an event for a student whose day is empty. Driven by the ids (unnest, each looked up by its key), so the
   * generic plan of the prepared statement never walks a school's students.
   */
  private async load(
    schoolId: number,
    ids: number[],
    userId: number,
    day?: string,
  ): Promise<{ day: string; targets: Target[]; streams: StreamRow[] }> {
    const rows = await this.commands.load({ schoolId, ids, userId, day: day ?? null });
    const targets: Target[] = [];
    const streams: StreamRow[] = [];
    for (const r of rows) {
      if (targets[targets.length - 1]?.id !== r.id) {
        targets.push({
          id: r.id,
          needs_shuttle: r.needs_shuttle,
          class_id: r.class_id,
          pickup_ids: r.pickup_ids,
          all_pickup_ids: r.all_pickup_ids,
          mine: r.mine,
        });
      }
      if (r.event_id !== null) streams.push(streamRow(r));
    }
    return { day: day ?? rows[0]?.today ?? (await schoolToday(this.db, schoolId)), targets, streams };
  }

  /**
   * Decides for each student on their streams of the day (those load() read with the students, or read again here
   * when a lost race is tried again) and appends all new events with their projection rows in one statement.
   * Answers null when the statement lost a race (nothing written); a student whose event id is already stored gets
   * its first result.
   */
  private async tryAppend(
    user: SchoolCaller,
    targets: Target[],
    day: string,
    cmd: FlowCommand,
    eventIds: Map<number, string>,
    read?: StreamRow[],
    claim?: AppendClaim,
  ): Promise<{ results: RawResult[]; events: Appended[] } | null> {
    const schoolId = user.schoolId;
    // a retry of this command is in the student's stream of the day; an event id stored anywhere else (another
    // student, another day) fails the append on its unique key and is answered on the way back
    const rows: StreamRow[] =
      read ??
      (
        await this.commands.streams(
          targets.map((s) => s.id),
          day,
        )
      ).map(streamRow);
    const wanted = new Set(targets.map((s) => eventIds.get(s.id)!));
    const streams = new Map<number, FlowEvent[]>();
    const seen = new Map<string, { student_id: number; state: BoardState }>();
    for (const r of rows) {
      (streams.get(r.student_id) ?? streams.set(r.student_id, []).get(r.student_id)!).push(toFlowEvent(r));
      if (wanted.has(r.event_id)) seen.set(r.event_id, { student_id: r.student_id, state: r.state_after });
    }

    const at = new Date().toISOString();
    const results: RawResult[] = [];
    const events: unknown[][] = [];
    const days: unknown[][] = [];
    const pending: Omit<Appended, 'position'>[] = [];
    for (const target of targets) {
      const studentId = target.id;
      const eventId = eventIds.get(studentId)!;
      const first = seen.get(eventId);
      if (first) {
        results.push(doneResult(studentId, eventId, first));
        continue;
      }
      let state = replay(streams.get(studentId) ?? []);
      const decision = decide(state, cmd, { role: user.role, needsShuttle: target.needs_shuttle, pickupIds: target.pickup_ids });
      if (!decision.ok) {
        results.push({ student_id: studentId, ok: false, errorKey: decision.reason });
        continue;
      }
      // an override may let a child go with someone unlisted (null), but a given person must be one of the child's
      if (cmd.type === 'leave' && cmd.picked_up_by !== null && !target.all_pickup_ids.includes(cmd.picked_up_by)) {
        results.push({ student_id: studentId, ok: false, errorKey: 'stu.pickup_not_found' });
        continue;
      }
      for (const [i, e] of decision.events.entries()) {
        const event: FlowEvent = { ...e, event_id: i === 0 ? eventId : deriveEventId(eventId, `${studentId}:${i}`), at, actor: user.id };
        state = evolve(state, event);
        const after = boardState(state);
        events.push([event.event_id, studentId, state.version, event.type, event.payload, target.class_id, after]);
        pending.push({ student_id: studentId, class_id: target.class_id, day, type: event.type, state: after, at, actor: user.id });
      }
      days.push(projectionRow(schoolId, studentId, day, target.class_id, state));
      results.push({ student_id: studentId, ok: true, state: boardState(state), event_id: eventId });
    }
    if (!events.length) return { results, events: [] };

    let written: Array<{ student_id: number; version: number; position: string }>;
    try {
      const params = [schoolId, day, user.id, at, ...columnsOf(events, APPEND_EVENT_WIDTH), ...columnsOf(days, days[0].length)];
      written = claim
        ? await this.db.transaction(async (em) => {
            await claim(em);
            return this.commands.append(params, em);
          })
        : await this.commands.append(params);
    } catch (err) {
      if (lostRace(err)) return null;
      throw err;
    }
    const positions = new Map(written.map((w) => [`${w.student_id}:${w.version}`, Number(w.position)]));
    const appended = pending.map((p, i) => ({ ...p, position: positions.get(`${p.student_id}:${events[i][2]}`)! }));
    return { results, events: appended.sort((a, b) => a.position - b.position) };
  }

  /** The first results of already stored event ids: the student and the board state after it. */
  private async firstResults(eventIds: string[]): Promise<Map<string, { student_id: number; state: BoardState }>> {
    const rows = await this.repo.storedEvents(eventIds);
    return new Map(rows.map((r) => [r.event_id, r]));
  }
}
