import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { StudentGuardianChange } from '@wantuo/shared';
import { sql } from 'kysely';
import { DataSource } from 'typeorm';
import { kdb } from '../../core/database/kysely';
import type { PageQuery, Queryable } from '../../core/database/sql-kit';
import { offsetOf, pageOf } from '../../core/database/sql-kit';

/** `T` with its columns but `Nullable` not null (a row of a left-joined lateral page that is there). */
type Present<T, Nullable extends keyof T> = { [K in keyof T]: K extends Nullable ? T[K] : NonNullable<T[K]> };

/** One guardian link as saveStudentGuardians writes it. */
export interface GuardianLink {
  user_id: number;
  relation: string;
  is_primary: boolean;
}

/** One difference of a guardian list, as the history keeps it. */
export interface GuardianChange {
  kind: StudentGuardianChange['kind'];
  guardian_id: number;
  guardian_name: string;
  guardian_mobile: string | null;
  relation: string;
  old_relation: string | null;
}

/** The SQL of a student's guardian list and its history (issue 38): every statement typed by the schema. */
@Injectable()
export class StudentsGuardiansRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The student's guardian list version, the student locked. */
  versionForUpdate(em: Queryable, schoolId: number, studentId: number) {
    return kdb(em)
      .selectFrom('students')
      .select('guardians_version')
      .where('id', '=', studentId)
      .where('school_id', '=', schoolId)
      .forUpdate()
      .executeTakeFirst();
  }

  /** The student's guardians with their accounts' names and mobiles, primary first, then by when linked. */
  current(em: Queryable, studentId: number) {
    return kdb(em)
      .selectFrom('student_guardians as g')
      .innerJoin('users as u', 'u.id', 'g.user_id')
      .select(['g.user_id', 'u.name', 'u.mobile', 'g.relation', 'g.is_primary'])
      .where('g.student_id', '=', studentId)
      .orderBy('g.is_primary', 'desc')
      .orderBy('g.created_at')
      .orderBy('g.user_id')
      .execute();
  }

  async remove(em: Queryable, studentId: number, userIds: number[]): Promise<void> {
    await kdb(em)
      .deleteFrom('student_guardians')
      .where('student_id', '=', studentId)
      .where('user_id', '=', sql<number>`any(${userIds})`)
      .execute();
  }

  /** The old primary gives way (the one-primary index is checked row by row). */
  async unsetPrimary(em: Queryable, studentId: number, primary: number): Promise<void> {
    await kdb(em)
      .updateTable('student_guardians')
      .set({ is_primary: false })
      .where('student_id', '=', studentId)
      .where('is_primary', '=', true)
      .where('user_id', '<>', primary)
      .execute();
  }

  /** The kept guardians' relations and primary flags, where they changed. */
  async updateLinks(em: Queryable, studentId: number, links: readonly GuardianLink[]): Promise<void> {
    await kdb(em)
      .updateTable('student_guardians as g')
      .from(
        sql<GuardianLink>`(select * from jsonb_to_recordset(${JSON.stringify(links)}::jsonb) as r(user_id int, relation text, is_primary boolean))`.as(
          'x',
        ),
      )
      .set((eb) => ({ relation: eb.ref('x.relation'), is_primary: eb.ref('x.is_primary') }))
      .where('g.student_id', '=', studentId)
      .whereRef('g.user_id', '=', 'x.user_id')
      .where((eb) => eb.or([eb('g.relation', '<>', eb.ref('x.relation')), eb('g.is_primary', '<>', eb.ref('x.is_primary'))]))
      .execute();
  }

  /** Moves the student's guardian list version on; the new version. */
  async bumpVersion(em: Queryable, studentId: number): Promise<number> {
    const r = await kdb(em)
      .updateTable('students')
      .set((eb) => ({ guardians_version: eb('guardians_version', '+', 1), updated_at: sql`now()` }))
      .where('id', '=', studentId)
      .returning('guardians_version')
      .executeTakeFirstOrThrow();
    return r.guardians_version;
  }

  /** Appends the changes to the history, in their order. */
  async insertChanges(
    em: Queryable,
    v: { schoolId: number; studentId: number; version: number; actorId: number },
    changes: readonly GuardianChange[],
  ): Promise<void> {
    await kdb(em)
      .insertInto('student_guardian_changes')
      .columns([
        'school_id',
        'student_id',
        'kind',
        'guardian_id',
        'guardian_name',
        'guardian_mobile',
        'relation',
        'old_relation',
        'guardians_version',
        'actor_id',
      ])
      .expression(
        sql`select ${v.schoolId}::int, ${v.studentId}::int, x.kind, x.guardian_id, x.guardian_name, x.guardian_mobile, x.relation, x.old_relation,
                   ${v.version}::int, ${v.actorId}::int
              from jsonb_array_elements(${JSON.stringify(changes)}::jsonb) with ordinality as e(v, ord),
                   jsonb_to_record(e.v) as x(kind text, guardian_id int, guardian_name text, guardian_mobile text, relation text, old_relation text)
             order by e.ord`,
      )
      .execute();
  }

  /**
   * A page of the school's student's guardian changes, newest first, with the total; undefined when the student is not
   * the school's (one statement).
   */
  async log(schoolId: number, studentId: number, q: PageQuery) {
    const rows = await kdb(this.db)
      .selectFrom('students as s')
      .innerJoinLateral(
        (eb) =>
          eb
            .selectFrom('student_guardian_changes')
            .select((c) => sql<number>`${c.fn.countAll()}::int`.as('total'))
            .whereRef('student_id', '=', 's.id')
            .as('n'),
        (j) => j.onTrue(),
      )
      .leftJoinLateral(
        (eb) =>
          eb
            .selectFrom('student_guardian_changes as c')
            .innerJoin('users as a', 'a.id', 'c.actor_id')
            .select((c) => [
              sql<number>`${c.ref('c.id')}::int`.as('id'),
              c.ref('c.kind').$castTo<StudentGuardianChange['kind']>().as('kind'),
              'c.guardian_id',
              'c.guardian_name',
              'c.guardian_mobile',
              'c.relation',
              'c.old_relation',
              'c.guardians_version',
              'c.actor_id',
              'a.name as actor_name',
              'c.created_at',
            ])
            .whereRef('c.student_id', '=', 's.id')
            .orderBy('c.id', 'desc')
            .limit(q.limit)
            .offset(offsetOf(q))
            .as('p'),
        (j) => j.onTrue(),
      )
      .select(['n.total', 'p.id', 'p.kind', 'p.guardian_id', 'p.guardian_name', 'p.guardian_mobile', 'p.relation', 'p.old_relation'])
      .select(['p.guardians_version', 'p.actor_id', 'p.actor_name', 'p.created_at'])
      .where('s.id', '=', studentId)
      .where('s.school_id', '=', schoolId)
      .execute();
    if (!rows.length) return undefined;
    // a row of the left-joined page has every column but the nullable ones of the table
    const list = rows.flatMap(({ total: _, ...r }) => (r.id === null ? [] : [r as Present<typeof r, 'guardian_mobile' | 'old_relation'>]));
    return pageOf(list, Number(rows[0].total ?? 0), q);
  }
}
