import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Exams and their scores (issue 14):
 * - exams: a school's exam of one subject on a day, its full mark (whole points) and pass mark (half-points, null:
 *   60% of the full mark), a version for edits, a scores_version bumped by every change of its scores (a batch read
 *   on an older one is refused), published_at once its scores are published to the guardians.
 * - exam_classes: the care classes an exam covers (care classes only: teaching classes are not part of exams).
 * - exam_scores: one row per student and exam, the mark in half-points (`score2`, 87.5 -> 175) or absent, with the
 *   care class the student was in when it was entered (ranks in class use it).
 * - exam_score_log: every entry, change and deletion of a score, appended (never rewritten).
 * - exam_texts: the guardians texted for an exam's publication: one text per guardian and exam, ever.
 * Deleting an exam deletes its classes, scores, log and texts (cascade).
 */
export class Exams1765368000000 implements MigrationInterface {
  name = 'Exams1765368000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      create table exams (
        id serial primary key,
        school_id int not null references schools(id),
        name varchar(50) not null,
        subject varchar(20) not null,
        exam_day date not null,
        full_mark int not null check (full_mark between 1 and 1000),
        pass2 int check (pass2 between 0 and 2000),
        published_at timestamptz,
        version int not null default 1,
        scores_version int not null default 0,
        created_by int references users(id),
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        check (pass2 is null or pass2 <= full_mark * 2)
      );
      create index exams_school_day_idx on exams (school_id, exam_day desc, id desc);
      create index exams_school_subject_idx on exams (school_id, subject, exam_day desc);

      create table exam_classes (
        exam_id int not null references exams(id) on delete cascade,
        class_id int not null references care_classes(id),
        school_id int not null references schools(id),
        primary key (exam_id, class_id)
      );
      create index exam_classes_class_idx on exam_classes (class_id, exam_id);

      create table exam_scores (
        exam_id int not null references exams(id) on delete cascade,
        student_id int not null references students(id),
        school_id int not null references schools(id),
        class_id int references care_classes(id),
        score2 int check (score2 between 0 and 2000),
        absent boolean not null default false,
        entered_by int references users(id),
        entered_at timestamptz not null default now(),
        primary key (exam_id, student_id),
        check (absent = (score2 is null))
      );
      create index exam_scores_student_idx on exam_scores (student_id, exam_id);
      create index exam_scores_class_idx on exam_scores (exam_id, class_id);

      create table exam_score_log (
        id bigserial primary key,
        exam_id int not null references exams(id) on delete cascade,
        student_id int not null,
        school_id int not null,
        action varchar(8) not null check (action in ('set', 'delete')),
        score2 int,
        absent boolean not null default false,
        actor_id int references users(id),
        at timestamptz not null default now()
      );
      create index exam_score_log_exam_idx on exam_score_log (exam_id, student_id);

      create table exam_texts (
        exam_id int not null references exams(id) on delete cascade,
        guardian_id int not null references users(id),
        school_id int not null references schools(id),
        texted_at timestamptz not null default now(),
        primary key (exam_id, guardian_id)
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop table if exists exam_texts, exam_score_log, exam_scores, exam_classes, exams`);
  }
}
