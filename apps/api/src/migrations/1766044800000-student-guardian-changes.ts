import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Guardians of an existing student change (issue 21, saveStudentGuardians):
 * - students.guardians_version: the version of the student's guardian list, checked and raised by each change of it
 *   (apart from students.version, so a guardian change does not void a profile form open on the same page).
 * - student_guardians: exactly one primary guardian per student, kept by a unique partial index (every path that
 *   creates guardians already makes exactly one primary; a student left with none or several is put right first:
 *   the earliest guardian stays primary).
 * - student_guardian_changes: every change of a student's guardians (append-only): who changed it, when, what
 *   (added, removed, relation changed, made primary), with the guardian's name, mobile and relation as they were.
 */
export class StudentGuardianChanges1766044800000 implements MigrationInterface {
  name = 'StudentGuardianChanges1766044800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      alter table students add column guardians_version int not null default 1;

      with ranked as (
        select student_id, user_id, row_number() over (partition by student_id order by is_primary desc, created_at, user_id) as n
          from student_guardians
      )
      update student_guardians g set is_primary = (r.n = 1)
        from ranked r
       where r.student_id = g.student_id and r.user_id = g.user_id and g.is_primary <> (r.n = 1);
      create unique index student_guardians_one_primary_idx on student_guardians (student_id) where is_primary;

      create table student_guardian_changes (
        id bigserial primary key,
        school_id int not null references schools(id),
        student_id int not null references students(id),
        kind varchar(10) not null check (kind in ('added', 'removed', 'relation', 'primary')),
        guardian_id int not null references users(id),
        guardian_name varchar(32) not null,
        guardian_mobile varchar(20),
        relation varchar(20) not null,
        -- kind 'relation': the relation before the change
        old_relation varchar(20),
        -- the guardians_version the change made
        guardians_version int not null,
        actor_id int not null references users(id),
        created_at timestamptz not null default now()
      );
      create index student_guardian_changes_student_idx on student_guardian_changes (student_id, id desc);
      create function student_guardian_changes_append_only() returns trigger language plpgsql as $$
        begin raise exception '% is append-only', tg_table_name; end $$;
      create trigger student_guardian_changes_append_only before update or delete on student_guardian_changes
        for each statement execute function student_guardian_changes_append_only();
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      drop table student_guardian_changes;
      drop function student_guardian_changes_append_only();
      drop index student_guardians_one_primary_idx;
      alter table students drop column guardians_version;
    `);
  }
}
