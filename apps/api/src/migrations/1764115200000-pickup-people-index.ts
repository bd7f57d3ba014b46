import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The flow reads every pick-up person of a student, removed ones included (history): a plain index for that. */
export class PickupPeopleIndex1764115200000 implements MigrationInterface {
  name = 'PickupPeopleIndex1764115200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`create index pickup_people_student_all_idx on pickup_people (student_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop index pickup_people_student_all_idx`);
  }
}
