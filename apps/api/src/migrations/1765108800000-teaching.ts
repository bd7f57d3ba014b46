import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Teaching classes and the sessions of teaching and tutoring (issue 13):
 * - rooms: a school's rooms (name unique per school, case-insensitive).
 * - school_calendar_days: the school's holidays and 调休 make-up days (a weekend day that works as `works_as`), one
 *   per school and day.
 * - teaching_classes (running/stopped as care classes: status 1/0, soft-deleted) and teaching_class_students.
 * - class_sessions: ONE table for the sessions of teaching classes and (later) tutoring classes (`kind`, `class_id`
 *   of the kind's class table: no foreign key for that reason), a school-local day and start/end minutes, the
 *   teacher, the room, the state planned -> held | cancelled, a version for moves. The database itself refuses two
 *   sessions that are not cancelled of the same teacher, or of the same room, overlapping on a day: exclusion
 *   constraints over (teacher, day, [start, end)) with btree_gist (a trusted extension, in PGlite's contrib too).
 *   Students clash too, but through their classes: the services check that under the school's scheduling lock.
 * - session_roll_calls: a student's status at a session (present, late, absent, leave), who took it and when.
 */
export class Teaching1765108800000 implements MigrationInterface {
  name = 'Teaching1765108800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      create extension if not exists btree_gist;

      create table rooms (
        id serial primary key,
        school_id int not null references schools(id),
        name varchar(30) not null,
        capacity int check (capacity between 1 and 1000),
        version int not null default 1,
        created_at timestamptz not null default now()
      );
      create unique index rooms_name_idx on rooms (school_id, lower(name));

      create table school_calendar_days (
        school_id int not null references schools(id),
        day date not null,
        kind varchar(8) not null check (kind in ('holiday', 'makeup')),
        works_as smallint check (works_as between 1 and 7),
        note varchar(50),
        created_by int references users(id),
        created_at timestamptz not null default now(),
        primary key (school_id, day),
        check ((kind = 'makeup') = (works_as is not null))
      );

      create table teaching_classes (
        id serial primary key,
        school_id int not null references schools(id),
        name varchar(50) not null,
        subject varchar(30) not null,
        teacher_id int not null references users(id),
        room_id int references rooms(id),
        capacity int not null check (capacity between 1 and 500),
        sessions_count int not null check (sessions_count between 1 and 400),
        fee_fen bigint not null default 0 check (fee_fen >= 0),
        status smallint not null default 1 check (status in (0, 1)),
        deleted_at timestamptz,
        version int not null default 1,
        created_by int references users(id),
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create unique index teaching_classes_name_idx on teaching_classes (school_id, lower(name)) where deleted_at is null;
      create index teaching_classes_school_idx on teaching_classes (school_id, status, id desc) where deleted_at is null;
      create index teaching_classes_teacher_idx on teaching_classes (teacher_id) where deleted_at is null;

      create table teaching_class_students (
        school_id int not null references schools(id),
        class_id int not null references teaching_classes(id),
        student_id int not null references students(id),
        joined_at timestamptz not null default now(),
        primary key (class_id, student_id)
      );
      create index teaching_class_students_student_idx on teaching_class_students (student_id);

      create table class_sessions (
        id serial primary key,
        school_id int not null references schools(id),
        kind varchar(10) not null check (kind in ('teaching', 'tutoring')),
        class_id int not null,
        day date not null,
        start_min smallint not null,
        end_min smallint not null,
        teacher_id int not null references users(id),
        room_id int references rooms(id),
        state varchar(10) not null default 'planned' check (state in ('planned', 'held', 'cancelled')),
        cancel_reason varchar(200),
        version int not null default 1,
        created_by int references users(id),
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        check (start_min >= 0 and start_min < end_min and end_min <= 1440),
        constraint class_sessions_teacher_overlap exclude using gist (teacher_id with =, day with =, int4range(start_min, end_min) with &&) where (state <> 'cancelled'),
        constraint class_sessions_room_overlap exclude using gist (room_id with =, day with =, int4range(start_min, end_min) with &&) where (state <> 'cancelled' and room_id is not null)
      );
      -- the clash lookups (a teacher's or a room's days), a class's sessions in order, the school's week
      create index class_sessions_teacher_day_idx on class_sessions (teacher_id, day);
      create index class_sessions_room_day_idx on class_sessions (room_id, day) where room_id is not null;
      create index class_sessions_class_idx on class_sessions (kind, class_id, day, start_min);
      create index class_sessions_school_day_idx on class_sessions (school_id, day);

      create table session_roll_calls (
        session_id int not null references class_sessions(id),
        student_id int not null references students(id),
        school_id int not null references schools(id),
        status varchar(8) not null check (status in ('present', 'late', 'absent', 'leave')),
        by_user int not null references users(id),
        at timestamptz not null default now(),
        primary key (session_id, student_id)
      );
      create index session_roll_calls_student_idx on session_roll_calls (student_id, session_id);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop table session_roll_calls, class_sessions, teaching_class_students, teaching_classes, school_calendar_days, rooms`);
  }
}
