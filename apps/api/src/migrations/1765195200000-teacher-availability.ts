import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A teacher's weekly availability and note on their own timetable (issue 13, teacherSchedule POST): one row per
 * teacher, the windows as a JSON list of { weekday, start_time, end_time } sorted by weekday and start (validated by
 * availabilityProblem of packages/shared), a version for optimistic edits. The move suggestions read it by teacher.
 */
export class TeacherAvailability1765195200000 implements MigrationInterface {
  name = 'TeacherAvailability1765195200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      create table teacher_availability (
        user_id int primary key references users(id),
        school_id int not null references schools(id),
        windows jsonb not null default '[]'::jsonb check (jsonb_typeof(windows) = 'array'),
        note varchar(500) not null default '',
        version int not null default 1,
        updated_at timestamptz not null default now()
      );
      create index teacher_availability_school_idx on teacher_availability (school_id);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop table teacher_availability`);
  }
}
