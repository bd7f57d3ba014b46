import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Homework (issue 14):
 * - homeworks: set by a teacher for a care class or a teaching class (`kind`, `class_id` of the kind's class table: no
 *   foreign key for that reason), optionally for one teaching session; title, plain-text content, attachments (the
 *   upload action's URLs), the school-local day it was set and its due day. Idempotent by request_key.
 * - homework_submissions: one row per student the homework was set for (the class's students when it was set), the
 *   state todo -> done -> checked (packages/shared/src/homework.ts), the teacher's note, the guardian's photo and note,
 *   a version bumped on every change.
 * - homework_events: the append-only history of every state change (who, teacher or guardian, note, photo), with the
 *   request key of the batch it came from (unique: a repeated request changes nothing).
 */
export class Homework1765454400000 implements MigrationInterface {
  name = 'Homework1765454400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      create table homeworks (
        id serial primary key,
        school_id int not null references schools(id),
        kind varchar(10) not null check (kind in ('care', 'teaching')),
        class_id int not null,
        session_id int references class_sessions(id),
        title varchar(50) not null,
        content varchar(2000) not null,
        attachments jsonb not null default '[]',
        set_day date not null,
        due_day date not null,
        teacher_id int not null references users(id),
        request_key varchar(100) not null,
        version int not null default 1,
        created_at timestamptz not null default now(),
        check (due_day >= set_day)
      );
      create unique index homeworks_request_idx on homeworks (school_id, request_key);
      -- the school's list (newest first), a class's homework, the days a homework is open on
      create index homeworks_school_idx on homeworks (school_id, set_day desc, id desc);
      create index homeworks_class_idx on homeworks (kind, class_id, set_day desc);
      create index homeworks_session_idx on homeworks (session_id) where session_id is not null;

      create table homework_submissions (
        homework_id int not null references homeworks(id),
        student_id int not null references students(id),
        school_id int not null references schools(id),
        state varchar(8) not null default 'todo' check (state in ('todo', 'done', 'checked')),
        note varchar(200),
        photo_url varchar(500),
        home_note varchar(200),
        updated_by int references users(id),
        updated_at timestamptz,
        version int not null default 1,
        primary key (homework_id, student_id)
      );
      -- a student's homework of a day; the submissions a teacher still has to check
      create index homework_submissions_student_idx on homework_submissions (student_id, homework_id);
      create index homework_submissions_done_idx on homework_submissions (homework_id) where state = 'done';

      create table homework_events (
        id bigserial primary key,
        school_id int not null references schools(id),
        homework_id int not null references homeworks(id),
        student_id int not null references students(id),
        from_state varchar(8) not null,
        to_state varchar(8) not null,
        note varchar(200),
        photo_url varchar(500),
        actor_id int not null references users(id),
        actor varchar(10) not null check (actor in ('teacher', 'guardian')),
        request_key varchar(100),
        at timestamptz not null default now()
      );
      create unique index homework_events_request_idx on homework_events (school_id, request_key) where request_key is not null;
      create index homework_events_student_idx on homework_events (homework_id, student_id, id);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop table homework_events, homework_submissions, homeworks`);
  }
}
