import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Lesson plans (issue 15, `prepareLessons`): a teacher's or the admin's plan for a class on a day, built from courseware
 * the school may open.
 * - lesson_plans: title, the class (a care, teaching or tutoring class: class_kind and class_id, checked by the
 *   service against the school), the lesson's day (school-local), objectives and the steps (an ordered JSON list of
 *   title, minutes and content, validated by the shared schema), the version that detects concurrent edits. A removed
 *   plan keeps its row with who removed it and when.
 * - lesson_plan_items: the courseware files the plan uses, in order, with a PDF's pages (null: every page): the current
 *   version's, replaced on each save.
 * - lesson_plan_revisions: every saved version as it was (append-only): who saved it, when, the whole plan.
 */
export class LessonPlans1765886400000 implements MigrationInterface {
  name = 'LessonPlans1765886400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      create table lesson_plans (
        id serial primary key,
        school_id int not null references schools(id),
        author_id int not null references users(id),
        class_kind varchar(10) not null check (class_kind in ('care', 'teaching', 'tutoring')),
        class_id int not null,
        lesson_date date not null,
        title varchar(60) not null,
        objectives text not null default '',
        steps jsonb not null default '[]' check (jsonb_typeof(steps) = 'array'),
        items int not null default 0,
        slides int not null default 0,
        version int not null default 1,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        deleted_at timestamptz,
        deleted_by int references users(id)
      );
      -- the school's plans by day (the admin's list), an author's, a class's
      create index lesson_plans_school_idx on lesson_plans (school_id, lesson_date desc, id desc) where deleted_at is null;
      create index lesson_plans_author_idx on lesson_plans (author_id, lesson_date desc, id desc) where deleted_at is null;
      create index lesson_plans_class_idx on lesson_plans (class_kind, class_id, lesson_date desc) where deleted_at is null;

      create table lesson_plan_items (
        plan_id int not null references lesson_plans(id),
        position smallint not null check (position >= 0),
        courseware_file_id int not null references courseware_files(id),
        pages int[] check (pages is null or cardinality(pages) between 1 and 500),
        note varchar(100) not null default '',
        primary key (plan_id, position)
      );
      create index lesson_plan_items_file_idx on lesson_plan_items (courseware_file_id);

      create table lesson_plan_revisions (
        id bigserial primary key,
        plan_id int not null references lesson_plans(id),
        version int not null,
        action varchar(8) not null check (action in ('create', 'edit', 'delete')),
        saved_by int not null references users(id),
        saved_at timestamptz not null default now(),
        plan jsonb not null,
        unique (plan_id, version)
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop table lesson_plan_revisions; drop table lesson_plan_items; drop table lesson_plans;`);
  }
}
