import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Public resources and school materials (issue 15, item 6): files the platform operator publishes, either to everyone
 * (`resource`, the public /resource page) or to signed-in schools (`dataDownload`, by subject and grade). A removal
 * sets deleted_at and who removed it; the row stays (what was published when is kept).
 */
export class SiteResources1765800000000 implements MigrationInterface {
  name = 'SiteResources1765800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      create table site_resources (
        id serial primary key,
        audience varchar(8) not null check (audience in ('public', 'schools')),
        title varchar(100) not null,
        description varchar(500) not null default '',
        subject varchar(20),
        grade varchar(20),
        file_id uuid not null references files(id),
        created_by int not null references users(id),
        created_at timestamptz not null default now(),
        deleted_at timestamptz,
        deleted_by int references users(id)
      );
      create index site_resources_list_idx on site_resources (audience, created_at desc, id desc) where deleted_at is null;
      create index site_resources_filter_idx on site_resources (audience, subject, grade, created_at desc) where deleted_at is null;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop table site_resources`);
  }
}
