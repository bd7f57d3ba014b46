import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Service-expiry reminders (issue 10): the SMS to a school's admins 30, 7 and 1 days before service_expires_at.
 *
 * - service_reminders holds one row per reminder sent: the key (school, expiry, days before) makes each reminder of an
 *   expiry go out once, whatever the number or overlap of job runs (rows are inserted with `on conflict do nothing
 *   returning`, and only the rows inserted are texted). A renewal moves the expiry, so its reminders are a new series.
 * - the partial index on schools.service_expires_at lets the hourly job find the schools near expiry without a scan.
 */
export class ServiceReminders1764590400000 implements MigrationInterface {
  name = 'ServiceReminders1764590400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      create table service_reminders (
        school_id int not null references schools(id),
        expires_at timestamptz not null,
        days_before smallint not null check (days_before > 0),
        sent_at timestamptz not null default now(),
        primary key (school_id, expires_at, days_before)
      );
      create index schools_service_expires_idx on schools (service_expires_at) where service_expires_at is not null;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      drop index schools_service_expires_idx;
      drop table service_reminders;
    `);
  }
}
