import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The child's daily report (issue 27 item 2): the teacher's comment of a child's day with every version kept, and the
 * projection daily_reports, one row per (student, school day), rebuilt from flow_events and the day's facts
 * (modules/reports/report-projection.ts). `sent_at` is not derived: the time the report's message went to the guardians.
 * The day's homework and points emit no domain events: the report reads them live, they are not columns here.
 */
export class DailyReports1767086400000 implements MigrationInterface {
  name = 'DailyReports1767086400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      create table daily_comments (
        student_id int not null references students(id),
        day date not null,
        school_id int not null references schools(id),
        presets text[] not null default '{}',
        text varchar(200) not null default '',
        photos jsonb not null default '[]',
        author_id int not null references users(id),
        version int not null,
        updated_at timestamptz not null default now(),
        primary key (student_id, day)
      );
      create table daily_comment_versions (
        id bigserial primary key,
        school_id int not null references schools(id),
        student_id int not null references students(id),
        day date not null,
        version int not null,
        presets text[] not null,
        text varchar(200) not null,
        photos jsonb not null,
        author_id int not null references users(id),
        at timestamptz not null default now(),
        unique (student_id, day, version)
      );

      create table daily_reports (
        student_id int not null references students(id),
        day date not null,
        school_id int not null references schools(id),
        class_id int,
        state varchar(12),
        on_leave boolean not null default false,
        picked_up_at timestamptz,
        arrived_at timestamptz,
        arrived_by int,
        dinner_at timestamptz,
        tutor_started_at timestamptz,
        tutor_ended_at timestamptz,
        left_at timestamptz,
        left_by int,
        pickup jsonb,
        comment jsonb,
        last_position bigint,
        sent_at timestamptz,
        updated_at timestamptz not null default now(),
        primary key (student_id, day)
      );
      -- the head teacher's status of a class's day; a school's rebuild
      create index daily_reports_class_day_idx on daily_reports (class_id, day);
      create index daily_reports_school_idx on daily_reports (school_id, day);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop table daily_reports, daily_comment_versions, daily_comments`);
  }
}
