import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The event-sourced daily flow (design.md §4): the flow_events stream per student-day, the student_days
 * projection kept in the same transaction, leave requests, staff clock-ins and flow alerts.
 */
export class DailyFlow1764028800000 implements MigrationInterface {
  name = 'DailyFlow1764028800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      create table flow_events (
        global_position bigserial not null unique,
        event_id uuid not null unique,
        school_id int not null references schools(id),
        student_id int not null references students(id),
        day date not null,
        version int not null,
        type varchar(40) not null,
        payload jsonb not null default '{}',
        -- the care class of the student when it happened, and the board state after it (what sockets carry)
        class_id int references care_classes(id),
        state_after varchar(20) not null,
        actor_id int references users(id),
        occurred_at timestamptz not null,
        recorded_at timestamptz not null default now(),
        primary key (student_id, day, version)
      );
      create index flow_events_school_position_idx on flow_events (school_id, global_position);

      create table student_days (
        school_id int not null references schools(id),
        student_id int not null references students(id),
        day date not null,
        class_id int references care_classes(id),
        state varchar(20) not null,
        on_leave boolean not null default false,
        picked_up_at timestamptz, picked_up_by int references users(id),
        entered_at timestamptz, entered_by int references users(id),
        dinner_at timestamptz, dinner_by int references users(id),
        tutor_started_at timestamptz, tutor_started_by int references users(id),
        tutor_ended_at timestamptz, tutor_ended_by int references users(id),
        left_at timestamptz, left_by int references users(id), left_with int references pickup_people(id),
        version int not null,
        last_position bigint not null,
        updated_at timestamptz not null default now(),
        primary key (student_id, day)
      );
      create index student_days_school_day_idx on student_days (school_id, day, class_id, state);

      create table leave_requests (
        id serial primary key,
        school_id int not null references schools(id),
        student_id int not null references students(id),
        requested_by int not null references users(id),
        start_day date not null,
        end_day date not null,
        reason varchar(500) not null,
        status smallint not null default 0 check (status in (0, 1, 2, 3)), -- pending, approved, rejected, cancelled
        reviewed_by int references users(id),
        review_note varchar(500),
        reviewed_at timestamptz,
        version int not null default 1,
        created_at timestamptz not null default now(),
        check (start_day <= end_day)
      );
      create index leave_requests_school_idx on leave_requests (school_id, status, start_day);
      create index leave_requests_student_idx on leave_requests (student_id, start_day);

      create table staff_attendance (
        id serial primary key,
        school_id int not null references schools(id),
        user_id int not null references users(id),
        day date not null,
        clock_in_at timestamptz,
        clock_out_at timestamptz,
        unique (user_id, day)
      );
      create index staff_attendance_school_day_idx on staff_attendance (school_id, day);

      create table flow_alerts (
        id serial primary key,
        school_id int not null references schools(id),
        student_id int not null references students(id),
        day date not null,
        kind varchar(30) not null,
        raised_at timestamptz not null default now(),
        cleared_at timestamptz,
        unique (student_id, day, kind)
      );
      create index flow_alerts_open_idx on flow_alerts (school_id, day) where cleared_at is null;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop table flow_alerts, staff_attendance, leave_requests, student_days, flow_events`);
  }
}
