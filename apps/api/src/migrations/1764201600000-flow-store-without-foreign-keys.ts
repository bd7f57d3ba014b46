import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The foreign keys of the flow store and of its projection, with what they point at (for `down`). */
const KEYS: ReadonlyArray<readonly [table: string, column: string, parent: string]> = [
  ['flow_events', 'school_id', 'schools'],
  ['flow_events', 'student_id', 'students'],
  ['flow_events', 'class_id', 'care_classes'],
  ['flow_events', 'actor_id', 'users'],
  ['student_days', 'school_id', 'schools'],
  ['student_days', 'student_id', 'students'],
  ['student_days', 'class_id', 'care_classes'],
  ...['picked_up_by', 'entered_by', 'dinner_by', 'tutor_started_by', 'tutor_ended_by', 'left_by'].map((c) => ['student_days', c, 'users'] as const),
  ['student_days', 'left_with', 'pickup_people'],
];

/**
 * The daily flow's append is the hottest write of the product: every event checked up to four foreign keys and
 * every projection row up to ten, each a row lock (FOR KEY SHARE) on its parent — the school's row and the
 * teacher's row taken by every concurrent append, which turns them into multixacts. Measured on the bench database
 * the checks were two thirds of an append's execution time. The event log is append-only and written by one
 * service that has just read the student, class, actor and pick-up people it records (students, classes, users
 * and pick-up people are never deleted, only archived or marked), and student_days is derived data that
 * `flow:rebuild` recreates, so the store keeps its own integrity (primary keys, unique event ids) without them.
 */
export class FlowStoreWithoutForeignKeys1764201600000 implements MigrationInterface {
  name = 'FlowStoreWithoutForeignKeys1764201600000';

  async up(q: QueryRunner): Promise<void> {
    for (const [table, column] of KEYS) await q.query(`alter table ${table} drop constraint ${table}_${column}_fkey`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const [table, column, parent] of KEYS) {
      await q.query(`alter table ${table} add constraint ${table}_${column}_fkey foreign key (${column}) references ${parent}(id)`);
    }
  }
}
