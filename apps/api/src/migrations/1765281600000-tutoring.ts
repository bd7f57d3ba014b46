import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Home tutoring (issue 13, item 4). Its sessions live in the teaching migration's class_sessions (kind 'tutoring',
 * class_id a tutoring_classes id), under the same exclusion constraints on teachers and rooms.
 * - tutoring_types: a school's tutoring types with their setting (duration, price per session in fen, default
 *   teacher; optimistic version). The defaults (作业辅导, 一对一, 小组辅导) are inserted the first time a school's types
 *   are read, so schools created later get them too.
 * - tutoring_classes: a tutoring class (type, teacher, room, capacity, the weekly pattern and the range its sessions
 *   were generated over, the duration and price copied from the type's setting when it was created).
 * - tutoring_class_students: the class's students with the plan written when they joined.
 */
export class Tutoring1765281600000 implements MigrationInterface {
  name = 'Tutoring1765281600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      create table tutoring_types (
        id serial primary key,
        school_id int not null references schools(id),
        name varchar(30) not null,
        sort smallint not null default 0,
        duration_min smallint not null default 60 check (duration_min between 10 and 480),
        price_fen bigint not null default 0 check (price_fen >= 0),
        teacher_id int references users(id),
        version int not null default 1,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create unique index tutoring_types_name_idx on tutoring_types (school_id, lower(name));

      create table tutoring_classes (
        id serial primary key,
        school_id int not null references schools(id),
        type_id int not null references tutoring_types(id),
        name varchar(50) not null,
        teacher_id int not null references users(id),
        room_id int references rooms(id),
        capacity int not null check (capacity between 1 and 100),
        duration_min smallint not null,
        price_fen bigint not null default 0 check (price_fen >= 0),
        pattern jsonb not null,
        from_day date not null,
        to_day date not null,
        remark varchar(200),
        status smallint not null default 1 check (status in (0, 1)),
        deleted_at timestamptz,
        version int not null default 1,
        created_by int references users(id),
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        check (from_day <= to_day)
      );
      create unique index tutoring_classes_name_idx on tutoring_classes (school_id, lower(name)) where deleted_at is null;
      create index tutoring_classes_school_idx on tutoring_classes (school_id, id desc) where deleted_at is null;
      create index tutoring_classes_type_idx on tutoring_classes (type_id) where deleted_at is null;

      create table tutoring_class_students (
        school_id int not null references schools(id),
        class_id int not null references tutoring_classes(id),
        student_id int not null references students(id),
        plan varchar(500),
        added_by int references users(id),
        joined_at timestamptz not null default now(),
        primary key (class_id, student_id)
      );
      create index tutoring_class_students_student_idx on tutoring_class_students (student_id);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`delete from class_sessions where kind = 'tutoring'; drop table tutoring_class_students, tutoring_classes, tutoring_types`);
  }
}
