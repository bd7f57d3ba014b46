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
  type FlowResult,
  type MessageKey,
  type StudentDayInfo,
  type VoidFlowEventInput,
} from '@wantuo/shared';
import { createHash, randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { DomainEvents } from '../../core/events/domain-events';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { RESPONSIBLE } from '../students/students.service';
import { FlowReadService } from './flow-read.service';
import { EVENT_COLUMNS, projectionRow, toFlowEvent, upsertSql } from './flow-store';

/** A student a command is for, with what the state machine needs to know about them. */
interface Target {
  id: number;
  needs_shuttle: boolean;
  class_id: number | null;
  /** authorised (not deleted) pick-up people */
  pickup_ids: number[];
  /** every pick-up person the student ever had (a left_with must be one of them) */
  all_pickup_ids: number[];
  mine: boolean;
}

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

/** The constraint of a unique violation (PostgreSQL 23505), else null. */
function uniqueViolation(err: unknown): string | null {
  const e = err as { driverError?: { code?: string; constraint?: string }; code?: string; constraint?: string };
  const d = e?.driverError ?? e;
  return d?.code === '23505' ? (d.constraint ?? '') : null;
}

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
  ) {}

  /** A head teacher takes back a student's latest step of a day (today by default) with a reason; answers the day after. */
  async voidEvent(user: SessionUser, input: VoidFlowEventInput): Promise<StudentDayInfo> {
    const day = input.date ?? (await this.today(user.schoolId!));
    const [result] = await this.run(user, [input.student_id], { type: 'void', event_id: input.event_id.toLowerCase(), reason: input.reason }, { day });
    if (!result.ok) throw new AppError(result.errorKey ?? 'flow.stale');
    const [student]: Array<{ id: number; name: string; class_id: number | null }> = await this.db.query(
      `select s.id, s.name, ccs.class_id from students s left join care_class_students ccs on ccs.student_id = s.id where s.id = $1`,
      [input.student_id],
    );
    return this.read.dayOf(user.schoolId!, student, day);
  }

  /** The school's local date today (YYYY-MM-DD). */
  async today(schoolId: number): Promise<string> {
    const [row]: Array<{ day: string }> = await this.db.query(`select (now() at time zone timezone)::date::text as day from schools where id = $1`, [schoolId]);
    return row.day;
  }

  /**
   * Runs one command for many students of the caller's school on a day (today by default): per student, decide
   * with the shared state machine and append in its own small transaction with optimistic concurrency (version)
   * and idempotency by event_id (a repeated event_id answers the first result and writes nothing); after commit
   * emit 'flow.committed' per appended event. Never throws for a per-student refusal: it is in the result.
   */
  async command(
    user: SessionUser,
    studentIds: number[],
    cmd: FlowCommand,
    opts: { eventId?: string; day?: string; system?: boolean } = {},
  ): Promise<{ results: { student_id: number; ok: boolean; state?: string; error?: string; event_id?: string }[] }> {
    const raw = await this.run(user, studentIds, cmd, opts);
    return { results: raw.map(({ errorKey, ...r }) => (errorKey ? { ...r, error: t(user.lang, errorKey) } : r)) };
  }

  /** command() with the refusals as message keys. */
  async run(user: SessionUser, studentIds: number[], cmd: FlowCommand, opts: { eventId?: string; day?: string; system?: boolean } = {}): Promise<RawResult[]> {
    const schoolId = user.schoolId!;
    const ids = [...new Set(studentIds)];
    const day = opts.day ?? (await this.today(schoolId));
    const eventIds = new Map(ids.map((id) => [id, opts.eventId ? (ids.length > 1 ? deriveEventId(opts.eventId, id) : opts.eventId.toLowerCase()) : randomUUID()]));
    const targets: Target[] = await this.db.query(
      `select s.id, s.needs_shuttle, ccs.class_id,
              array(select p.id from pickup_people p where p.student_id = s.id and p.deleted_at is null order by p.id) as pickup_ids,
              array(select p.id from pickup_people p where p.student_id = s.id) as all_pickup_ids,
              ${RESPONSIBLE('$3')} as mine
         from students s left join care_class_students ccs on ccs.student_id = s.id
        where s.school_id = $1 and s.id = any($2) and s.status = 1`,
      [schoolId, ids, user.id],
    );
    const byId = new Map(targets.map((s) => [s.id, s]));
    // a repeated event id answers its first result: looked up for the whole batch at once
    const seen = await this.firstResults(this.db.manager, [...eventIds.values()]);
    const mustBeMine = !opts.system && (user.role === Role.Teacher || user.role === Role.HeadTeacher);

    const results: RawResult[] = [];
    const appended: Appended[] = [];
    for (const id of ids) {
      const eventId = eventIds.get(id)!;
      const target = byId.get(id);
      if (!target || (mustBeMine && !target.mine)) {
        results.push({ student_id: id, ok: false, errorKey: 'flow.student_not_found' });
        continue;
      }
      const first = seen.get(eventId);
      if (first) {
        results.push(first.student_id === id ? { student_id: id, ok: true, state: first.state, event_id: eventId } : { student_id: id, ok: false, errorKey: 'flow.event_id_reused' });
        continue;
      }
      results.push(await this.appendOne(user, target, day, cmd, eventId, appended));
    }
    for (const a of appended) this.events.emit('flow.committed', { ...a, school_id: schoolId });
    return results;
  }

  /** Decides and appends for one student in its own transaction; a lost race is 'flow.stale', never a duplicate. */
  private async appendOne(user: SessionUser, target: Target, day: string, cmd: FlowCommand, eventId: string, appended: Appended[]): Promise<RawResult> {
    const schoolId = user.schoolId!;
    const studentId = target.id;
    const done = (first: { student_id: number; state: BoardState }): RawResult =>
      first.student_id === studentId ? { student_id: studentId, ok: true, state: first.state, event_id: eventId } : { student_id: studentId, ok: false, errorKey: 'flow.event_id_reused' };
    try {
      const out = await this.db.transaction(async (em) => {
        const rows: Parameters<typeof toFlowEvent>[0][] = await em.query(
          `select ${EVENT_COLUMNS} from flow_events e where e.student_id = $1 and e.day = $2 order by e.version`,
          [studentId, day],
        );
        // the same event id may have committed since the batch looked: then it is done, whatever the state says now
        // (looked up after reading the stream, so a stream that already holds it is never decided on)
        const first = (await this.firstResults(em, [eventId])).get(eventId);
        if (first) return { result: done(first), events: [] };
        let state = replay(rows.map(toFlowEvent));
        const decision = decide(state, cmd, { role: user.role, needsShuttle: target.needs_shuttle, pickupIds: target.pickup_ids });
        if (!decision.ok) return { result: { student_id: studentId, ok: false, errorKey: decision.reason } satisfies RawResult, events: [] };
        // an override may let a child go with someone unlisted (null), but a given person must be one of the child's
        if (cmd.type === 'leave' && cmd.picked_up_by !== null && !target.all_pickup_ids.includes(cmd.picked_up_by)) {
          return { result: { student_id: studentId, ok: false, errorKey: 'stu.pickup_not_found' } satisfies RawResult, events: [] };
        }
        const at = new Date().toISOString();
        const mine: Appended[] = [];
        let position = 0;
        for (const [i, e] of decision.events.entries()) {
          const event: FlowEvent = { ...e, event_id: i === 0 ? eventId : deriveEventId(eventId, `${studentId}:${i}`), at, actor: user.id };
          state = evolve(state, event);
          const after = boardState(state);
          const [row]: Array<{ position: string }> = await em.query(
            `insert into flow_events (event_id, school_id, student_id, day, version, type, payload, class_id, state_after, actor_id, occurred_at)
             values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) returning global_position::text as position`,
            [event.event_id, schoolId, studentId, day, state.version, event.type, event.payload, target.class_id, after, user.id, at],
          );
          position = Number(row.position);
          mine.push({ position, student_id: studentId, class_id: target.class_id, day, type: event.type, state: after, at, actor: user.id });
        }
        await this.upsertProjection(em, [projectionRow(schoolId, studentId, day, target.class_id, state, position)]);
        const result: RawResult = { student_id: studentId, ok: true, state: boardState(state), event_id: eventId };
        return { result, events: mine };
      });
      appended.push(...out.events);
      return out.result;
    } catch (err) {
      // a lost race: either the same event id won (then it is done) or another command did (stale)
      const constraint = uniqueViolation(err);
      if (constraint !== 'flow_events_event_id_key' && constraint !== 'flow_events_pkey') throw err;
      const first = (await this.firstResults(this.db.manager, [eventId])).get(eventId);
      if (first) return done(first);
      return { student_id: studentId, ok: false, errorKey: 'flow.stale' };
    }
  }

  /** The first results of already stored event ids: the student and the board state after it. */
  private async firstResults(em: EntityManager, eventIds: string[]): Promise<Map<string, { student_id: number; state: BoardState }>> {
    const rows: Array<{ event_id: string; student_id: number; state: BoardState }> = await em.query(
      `select event_id, student_id, state_after as state from flow_events where event_id = any($1::uuid[])`,
      [eventIds],
    );
    return new Map(rows.map((r) => [r.event_id, r]));
  }

  /** Writes projection rows (values of PROJECTION_COLUMNS without updated_at, which is now()). */
  async upsertProjection(em: EntityManager, rows: unknown[][]): Promise<void> {
    if (!rows.length) return;
    await em.query(upsertSql(rows.length, 'now()'), rows.flat());
  }
}
