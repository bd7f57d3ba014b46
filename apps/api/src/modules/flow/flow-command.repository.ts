import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { StudentStatus } from '@wantuo/shared';
import { sql, type Kysely } from 'kysely';
import { DataSource, type EntityManager } from 'typeorm';
import { responsibleFor } from '../../core/access/access';
import { anyOfSlot, compiledOnce, type Slots } from '../../core/database/compiled';
import type { DB } from '../../core/database/kysely';
import { preparedQuery } from '../../core/database/prepared-query';
import { APPEND_SQL } from './flow-store';

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
