import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * People and after-school-care classes: staff duties and job status, students with guardians (parent accounts)
 * and authorised pick-up people, comments, time slots, care classes, their students and duty assignments.
 */
export class PeopleAndCare1763942400000 implements MigrationInterface {
  name = 'PeopleAndCare1763942400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      -- staff: on-job (1) or left-job (2); duties a teacher can take
      alter table users
        add column job_status smallint not null default 1 check (job_status in (1, 2)),
        add column duties varchar(10)[] not null default '{}',
        add column gender smallint check (gender in (1, 2)),
        add column remark varchar(500),
        add column left_at timestamptz;
      create index users_school_staff_idx on users (school_id, job_status, role) where role in (2, 5) and deleted_at is null;

      create table students (
        id serial primary key,
        school_id int not null references schools(id),
        name varchar(32) not null,
        gender smallint check (gender in (1, 2)),
        birthday date,
        day_school varchar(100),
        grade varchar(20),
        class_name varchar(20),
        photo_url text,
        allergies varchar(500),
        notes varchar(1000),
        -- care settings
        needs_shuttle boolean not null default false,
        needs_dinner boolean not null default false,
        tutoring_type varchar(30),
        status smallint not null default 1 check (status in (0, 1)),
        archived_at timestamptz,
        version int not null default 1,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create index students_school_status_idx on students (school_id, status, id desc);
      create index students_school_name_idx on students (school_id, name);
      create index students_school_grade_idx on students (school_id, grade, class_name);

      -- a guardian is a parent account (users.role 6); one guardian may have several children
      create table student_guardians (
        school_id int not null references schools(id),
        student_id int not null references students(id),
        user_id int not null references users(id),
        relation varchar(20) not null,
        is_primary boolean not null default false,
        created_at timestamptz not null default now(),
        primary key (student_id, user_id)
      );
      create index student_guardians_user_idx on student_guardians (user_id);

      -- the only people a child may leave the centre with
      create table pickup_people (
        id serial primary key,
        school_id int not null references schools(id),
        student_id int not null references students(id),
        name varchar(32) not null,
        relation varchar(20) not null,
        mobile varchar(20) not null,
        photo_url text,
        deleted_at timestamptz,
        created_at timestamptz not null default now()
      );
      create index pickup_people_student_idx on pickup_people (student_id) where deleted_at is null;

      -- growth records and overall (term/period) comments written by teachers
      create table student_comments (
        id serial primary key,
        school_id int not null references schools(id),
        student_id int not null references students(id),
        author_id int not null references users(id),
        kind varchar(10) not null check (kind in ('growth', 'overall')),
        period varchar(30),
        content varchar(2000) not null,
        created_at timestamptz not null default now()
      );
      create index student_comments_student_idx on student_comments (student_id, created_at desc);

      -- time slots: local times of the school, on weekdays 1 (Monday) .. 7 (Sunday)
      create table class_times (
        id serial primary key,
        school_id int not null references schools(id),
        name varchar(30) not null,
        start_time time not null,
        end_time time not null,
        weekdays smallint[] not null,
        deleted_at timestamptz,
        version int not null default 1,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        check (start_time < end_time)
      );
      create index class_times_school_idx on class_times (school_id) where deleted_at is null;

      create table care_classes (
        id serial primary key,
        school_id int not null references schools(id),
        name varchar(50) not null,
        head_teacher_id int references users(id),
        class_time_id int references class_times(id),
        capacity int not null check (capacity between 1 and 500),
        fee_fen int not null default 0 check (fee_fen >= 0),
        status smallint not null default 1 check (status in (0, 1)),
        deleted_at timestamptz,
        version int not null default 1,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create index care_classes_school_idx on care_classes (school_id, status) where deleted_at is null;
      create index care_classes_head_idx on care_classes (head_teacher_id) where deleted_at is null;

      -- a student is in at most one care class
      create table care_class_students (
        school_id int not null references schools(id),
        class_id int not null references care_classes(id),
        student_id int not null references students(id) unique,
        joined_at timestamptz not null default now(),
        primary key (class_id, student_id)
      );

      -- duties per class, or per student of a class (allotTeacher)
      create table duty_assignments (
        id serial primary key,
        school_id int not null references schools(id),
        class_id int not null references care_classes(id),
        student_id int references students(id),
        teacher_id int not null references users(id),
        duty varchar(10) not null check (duty in ('shuttle', 'tutor', 'head')),
        created_at timestamptz not null default now()
      );
      create unique index duty_assignments_key on duty_assignments (class_id, coalesce(student_id, 0), duty);
      create index duty_assignments_teacher_idx on duty_assignments (teacher_id);

      -- individual time slots of a student
      create table student_class_times (
        school_id int not null references schools(id),
        student_id int not null references students(id),
        class_time_id int not null references class_times(id),
        primary key (student_id, class_time_id)
      );
      create index student_class_times_slot_idx on student_class_times (class_time_id);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      drop table student_class_times, duty_assignments, care_class_students, care_classes, class_times,
        student_comments, pickup_people, student_guardians, students;
      drop index users_school_staff_idx;
      alter table users drop column job_status, drop column duties, drop column gender, drop column remark, drop column left_at;
    `);
  }
}
