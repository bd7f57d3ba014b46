import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Account applications from the sign-in screen ("create new account"), handled by the platform operator. */
export class AccountApplications1763856000000 implements MigrationInterface {
  name = 'AccountApplications1763856000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      create table account_applications (
        id serial primary key,
        institution_name varchar(100) not null,
        contact_name varchar(64) not null,
        mobile varchar(20) not null,
        city varchar(64),
        students_estimate int,
        message varchar(1000),
        status smallint not null default 0 check (status in (0, 1, 2)),
        handled_by int references users(id),
        handled_note varchar(500),
        handled_at timestamptz,
        ip varchar(64) not null default '',
        version int not null default 1,
        created_at timestamptz not null default now()
      );
      create index account_applications_status_idx on account_applications (status, created_at desc);
      create index account_applications_mobile_idx on account_applications (mobile, created_at);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop table account_applications`);
  }
}
