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
 * The daily flow's append is the hottest write of the product; measured on the bench database:
 * - Foreign keys: every event checked up to four and every projection row up to ten, each a row lock (FOR KEY
 *   SHARE) on its parent — the school's row and the teacher's row taken by every concurrent append, which turns
 *   them into multixacts; the checks were two thirds of an append's execution time. The event log is append-only
 *   and written by one service that has just read the student, class, actor and pick-up people it records
 *   (students, classes, users and pick-up people are never deleted, only archived or marked), and student_days is
 *   derived data that `flow:rebuild` recreates, so the store keeps its own integrity (primary keys, unique event
 *   ids) without them.
 * - global_position's own unique index: the position comes from a sequence and every read by position is per
 *   school (flow_events_school_position_idx), so it was a fourth index to write per event for nothing.
 * - student_days is updated at every step of a child's day: pages kept 20% free let the steps that change no
 *   indexed column (dinner, tutoring) update in place (HOT) without touching the indexes.
 */
export class FlowStoreWritePath1764201600000 implements MigrationInterface {
  name = 'FlowStoreWritePath1764201600000';

  async up(q: QueryRunner): Promise<void> {
    for (const [table, column] of KEYS) await q.query(`alter table ${table} drop constraint ${table}_${column}_fkey`);
    await q.query(`alter table flow_events drop constraint flow_events_global_position_key`);
    await q.query(`alter table student_days set (fillfactor = 80)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`alter table student_days reset (fillfactor)`);
    await q.query(`alter table flow_events add constraint flow_events_global_position_key unique (global_position)`);
    for (const [table, column, parent] of KEYS) {
      await q.query(`alter table ${table} add constraint ${table}_${column}_fkey foreign key (${column}) references ${parent}(id)`);
    }
  }
}
