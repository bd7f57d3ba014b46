import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FlowEventMessage } from '@wantuo/shared';
import { DatabaseError } from 'pg';
import { DataSource } from 'typeorm';
import { poolOf } from '../../core/database/prepared-query';
import { POSITION_SEQUENCE } from '../flow/flow-store';

/**
 * `last`: a position read from the sequence; `xid`: the id of a transaction that began after it was read. Every
 * writer has its transaction id before it takes a position (the column's default), and ids are handed out in time
 * order, so whoever holds a position up to `last` has an id below `xid`: once no transaction of this database older
 * than `xid` is running, every position up to `last` is final — committed and visible, or never to be.
 */
export interface Fence {
  last: number;
  xid: number;
}

/** A committed event as the tail reads it: the socket message and the school whose rooms it goes to. */
export type TailEvent = FlowEventMessage & { school_id: number };

export interface TailRead {
  /** the fence this read took */
  fence: Fence;
  /** the oldest transaction of this database still running after the fence was taken (its own id when none is older) */
  oldest: number;
  /** committed events of the schools after the position asked for, in position order, at most TAIL_BATCH */
  events: TailEvent[];
}

/** Events one read takes at most; the rest come with the next. */
export const TAIL_BATCH = 500;

/**
 * Of the fences (oldest first), the last position of the newest one that is final given the oldest running
 * transaction, and the fences still to wait for.
 */
export function settle(fences: readonly Fence[], oldest: number): { final: number | null; waiting: Fence[] } {
  let final: number | null = null;
  const waiting: Fence[] = [];
  for (const f of fences) {
    if (f.xid <= oldest) final = Math.max(final ?? f.last, f.last);
    else waiting.push(f);
  }
  return { final, waiting: waiting.filter((f) => final === null || f.last > final) };
}

type EventRow = Omit<TailEvent, 'position' | 'at'> & { position: string; at: Date };

const toEvent = (r: EventRow): TailEvent => ({
  position: Number(r.position),
  student_id: r.student_id,
  class_id: r.class_id,
  day: r.day,
  type: r.type,
  state: r.state,
  at: new Date(r.at).toISOString(),
  actor: r.actor,
  school_id: r.school_id,
});

/**
 * The safe horizon of the live flow (issue 9): positions are taken at insert, so a transaction can commit a lower
 * position after a higher one was served; a client that saw the higher one and reconnects with it as `since` would
 * never get the lower one. Live delivery and catch-up therefore stop at positions known to be final (Fence).
 *
 * One round trip takes a fence, finds the oldest transaction still running in this database and reads the committed
 * events after a position: three statements sent as one simple query, which PostgreSQL runs in one implicit
 * transaction, each statement with a snapshot of its own. The fence's transaction id is this transaction's (it takes
 * one: a write-less commit, not flushed); the running transactions are read after it (`age()` against our own id
 * tells older from newer), and the events after that, so whatever the check found finished is visible to the read.
 * Only this database's transactions count (pg_stat_get_activity, not the cluster-wide snapshot): other databases on
 * the same server cannot hold a position, and their long transactions must not hold the boards back. Prepared
 * (two-phase) transactions are not seen: nothing writes flow_events through PREPARE TRANSACTION.
 *
 * The values are integers of our own, written into the text: a simple query takes no parameters.
 */
@Injectable()
export class FlowHorizon {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Takes a fence and reads the committed events of `schools` after `after` (none when `after` is null or no schools). */
  async read(schools: readonly number[], after: number | null): Promise<TailRead> {
    const ints = (xs: readonly number[]) => xs.map((x) => String(Math.trunc(x))).join(',');
    const statements = [
      `select (case when is_called then last_value else last_value - 1 end)::text as last, pg_current_xact_id()::text as xid
         from ${POSITION_SEQUENCE}`,
      `select coalesce(max(age(a.backend_xid)), 0)::int as behind
         from pg_stat_get_activity(null) a
        where a.datid = (select oid from pg_database where datname = current_database()) and a.backend_xid is not null`,
    ];
    const reading = after !== null && schools.length > 0;
    if (reading) {
      statements.push(`select e.global_position::text as position, e.school_id, e.student_id, e.class_id, to_char(e.day, 'YYYY-MM-DD') as day,
                              e.type, e.state_after as state, e.occurred_at as at, e.actor_id as actor
                         from flow_events e
                        where e.school_id = any('{${ints(schools)}}'::int[]) and e.global_position > ${Math.trunc(after)}
                        order by e.global_position
                        limit ${TAIL_BATCH}`);
    }
    const client = await poolOf(this.db).connect();
    let results: Array<{ rows: unknown[] }>;
    try {
      results = (await client.query(statements.join(';\n'))) as unknown as Array<{ rows: unknown[] }>;
      client.release();
    } catch (err) {
      // as preparedQuery: an error the server answered leaves the connection usable, anything else drops it
      client.release(err instanceof DatabaseError ? undefined : (err as Error));
      throw err;
    }
    const [{ last, xid }] = results[0].rows as Array<{ last: string; xid: string }>;
    const [{ behind }] = results[1].rows as Array<{ behind: number }>;
    const fence = { last: Number(last), xid: Number(xid) };
    return {
      fence,
      // age() is how many ids older than ours a running transaction is (newer ones are negative, ours is 0)
      oldest: fence.xid - Math.max(0, behind),
      events: reading ? (results[2].rows as EventRow[]).map(toEvent) : [],
    };
  }
}
