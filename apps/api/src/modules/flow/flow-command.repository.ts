import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { StudentStatus } from '@wantuo/shared';
import { sql, type Kysely } from 'kysely';
import { DataSource, type EntityManager } from 'typeorm';
import { responsibleFor } from '../../core/access/access';
import { anyOfSlot, compiledOnce, type Slots } from '../../core/database/compiled';
import { kdb, type DB } from '../../core/database/kysely';
import { preparedQuery } from '../../core/database/prepared-query';
import { APPEND_SQL, columnsOf, PROJECTION_COLUMNS, REWRITE_DAYS_SQL } from './flow-store';

/** A stored event's columns as the state machine folds it (toFlowEvent), with its student and the board state after it. */
const eventColumns = ['e.event_id', 'e.type', 'e.payload', 'e.actor_id as actor', 'e.occurred_at as at', 'e.student_id', 'e.state_after'] as const;

/**
 * The students of a command with what deciding needs and their streams of the day, in ONE statement: a row per event
 * of the day (in stream order), or one row without an event for a student whose day is empty. Driven by the ids
 * (unnest, each looked up by its key), so the generic plan of the prepared statement never walks a school's students.
 * `mine`: the caller is responsible for the student, or it was handed over to them today.
 */
const LOAD = compiledOnce('flow.load', (db: Kysely<DB>, p: Slots<{ schoolId: number; ids: number[]; userId: number; day: string | null }>) =>
  db
    .selectFrom(sql<{ x: number }>`unnest(${p.ids}::int[])`.as('x'))
    .innerJoin('students as s', 's.id', 'x.x')
    .crossJoin((eb) =>
      eb
        .selectFrom('schools as sc')
        .select(sql<string>`(now() at time zone sc.timezone)::date`.as('today'))
        .where('sc.id', '=', p.schoolId)
        .offset(sql.lit(0))
        .as('d'),
    )
    .leftJoin('care_class_students as ccs', 'ccs.student_id', 's.id')
    .leftJoin('flow_events as e', (j) =>
      j.onRef('e.student_id', '=', 's.id').on((eb) => eb('e.day', '=', sql<string>`coalesce(${p.day}::date, ${eb.ref('d.today')})`)),
    )
    .select((eb) => [
      's.id',
      's.needs_shuttle',
      'ccs.class_id',
      eb
        .fn<number[]>('array', [
          eb
            .selectFrom('pickup_people as pp')
            .select('pp.id')
            .whereRef('pp.student_id', '=', 's.id')
            .where('pp.deleted_at', 'is', null)
            .orderBy('pp.id'),
        ])
        .as('pickup_ids'),
      eb.fn<number[]>('array', [eb.selectFrom('pickup_people as pa').select('pa.id').whereRef('pa.student_id', '=', 's.id')]).as('all_pickup_ids'),
      eb
        .or([
          responsibleFor(eb, eb.ref('s.id'), p.userId),
          eb.exists(
            eb
              .selectFrom('task_handovers as ho')
              .select(sql.lit(1).as('one'))
              .whereRef('ho.student_id', '=', 's.id')
              .where('ho.to_teacher_id', '=', p.userId)
              .whereRef('ho.day', '=', 'd.today'),
          ),
        ])
        .$castTo<boolean>()
        .as('mine'),
      sql<string>`${eb.ref('d.today')}::text`.as('today'),
      ...eventColumns,
    ])
    .where('s.school_id', '=', p.schoolId)
    .where('s.status', '=', sql.lit(StudentStatus.Active))
    .orderBy('s.id')
    .orderBy('e.version'),
);

/** A row of the load: a target student, and one event of its day's stream (all null when the day is empty). */
export type LoadRow = Awaited<ReturnType<typeof LOAD.run>>[number];

/** The streams of these students on a day (a lost race read again), in stream order. */
const STREAMS = compiledOnce('flow.streams', (db: Kysely<DB>, p: Slots<{ ids: number[]; day: string }>) =>
  db
    .selectFrom('flow_events as e')
    .select(eventColumns)
    .where('e.student_id', '=', anyOfSlot(p.ids))
    .where('e.day', '=', sql<string>`${p.day}::date`)
    .orderBy('e.student_id')
    .orderBy('e.version'),
);

/** The daily flow's command path: the hot statements, each compiled once and prepared per connection. */
@Injectable()
export class FlowCommandRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  load(v: { schoolId: number; ids: number[]; userId: number; day: string | null }) {
    return LOAD.run(this.db, v);
  }

  streams(ids: number[], day: string) {
    return STREAMS.run(this.db, { ids, day });
  }

  /**
   * The append (flow-store.ts APPEND_SQL, a set-based statement over unnest columns, kept as its prepared text): on the
   * pool as a named prepared statement, or inside the transaction of `em` after a claim.
   */
  append(params: unknown[], em?: EntityManager): Promise<Array<{ student_id: number; version: number; position: string }>> {
    return em ? em.query(APPEND_SQL, params) : preparedQuery(this.db, 'flow.append', APPEND_SQL, params);
  }
}

/** The rebuild (rebuild.ts) holds off appends while it runs: a share lock on the events for its transaction. */
export async function lockEvents(em: EntityManager): Promise<void> {
  await sql`lock table flow_events in share mode`.execute(kdb(em));
}

/** The projection rows of one school, or of all (null), deleted before the rebuild writes them again. */
export async function clearDays(em: EntityManager, schoolId: number | null): Promise<void> {
  await kdb(em)
    .deleteFrom('student_days')
    .$call((q) => (schoolId === null ? q : q.where('school_id', '=', schoolId)))
    .execute();
}

/** The next `limit` events in stream order (student, day, version) after `after`, of one school or all. */
export function eventsAfter(em: EntityManager, schoolId: number | null, after: readonly [number, string, number], limit: number) {
  return kdb(em)
    .selectFrom('flow_events as e')
    .select((eb) => [
      'e.event_id',
      'e.type',
      'e.payload',
      'e.actor_id as actor',
      'e.occurred_at as at',
      'e.school_id',
      'e.student_id',
      sql<string>`${eb.ref('e.day')}::text`.as('day'),
      'e.version',
      'e.class_id',
      sql<string>`${eb.ref('e.global_position')}::text`.as('position'),
      'e.recorded_at',
    ])
    .$call((q) => (schoolId === null ? q : q.where('e.school_id', '=', schoolId)))
    .where((eb) =>
      eb(
        eb.refTuple('e.student_id', 'e.day', 'e.version'),
        '>',
        eb.tuple(sql<number>`${after[0]}::int`, sql<string>`${after[1]}::date`, sql<number>`${after[2]}::int`),
      ),
    )
    .orderBy('e.student_id')
    .orderBy('e.day')
    .orderBy('e.version')
    .limit(limit)
    .execute();
}
export type RebuildEventRow = Awaited<ReturnType<typeof eventsAfter>>[number];

/** Whole projection rows written in one set-based statement (REWRITE_DAYS_SQL over unnest columns). */
export async function rewriteDays(em: EntityManager, rows: unknown[][]): Promise<void> {
  await em.query(REWRITE_DAYS_SQL, columnsOf(rows, PROJECTION_COLUMNS.length));
}
