import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A teacher hands a student's task of the day over to another shuttle or tutoring teacher (`teacherHandOverStudent`):
 * one row per student, school-local day and duty ('shuttle' or 'tutor'); a second hand-over of the same task replaces
 * the first (from_teacher_id is then whoever held it). While a row exists, that day's list of the duty (shuttleTask,
 * tutorTask) shows the student to to_teacher_id only, and the flow steps of that student are theirs to record.
 */
export class TaskHandovers1766217600000 implements MigrationInterface {
  name = 'TaskHandovers1766217600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      create table task_handovers (
        school_id int not null references schools(id),
        student_id int not null references students(id),
        day date not null,
        duty varchar(10) not null check (duty in ('shuttle', 'tutor')),
        from_teacher_id int not null references users(id),
        to_teacher_id int not null references users(id),
        created_at timestamptz not null default now(),
        primary key (student_id, day, duty),
        check (from_teacher_id <> to_teacher_id)
      );
      -- the students handed to a teacher on a day
      create index task_handovers_to_idx on task_handovers (to_teacher_id, day);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop table task_handovers`);
  }
}
