import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Positions of flow_events are taken at insert, so two appends can commit out of position order. The live flow serves
 * events only up to a safe horizon (FlowHorizon, modules/live/flow-horizon.ts): a position L read from the sequence,
 * then a transaction id X taken after it; once no transaction of this database older than X is running, every
 * position up to L is final (committed or never will be). That holds only if a transaction has its id BEFORE it takes
 * a position: by default PostgreSQL assigns the id when the first row is written, just after the default (nextval)
 * was computed. The default below asks for the id first (CASE evaluates its condition before its result), for every
 * writer of the table (the flow store's append, flow:rebuild's fixtures, tests).
 *
 * The sequence must hand out values in order across sessions (CACHE 1, its default): with a cache each session
 * takes a block of values ahead and a lower value could be taken after a higher one was read as L.
 */
export class FlowPositionAfterXid1764504000000 implements MigrationInterface {
  name = 'FlowPositionAfterXid1764504000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`alter sequence flow_events_global_position_seq cache 1`);
    await q.query(`alter table flow_events alter column global_position set default
      case when pg_current_xact_id() is null then null else nextval('flow_events_global_position_seq'::regclass) end`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`alter table flow_events alter column global_position set default nextval('flow_events_global_position_seq'::regclass)`);
  }
}
