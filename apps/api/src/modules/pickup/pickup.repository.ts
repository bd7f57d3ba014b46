import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { StudentStatus } from '@wantuo/shared';
import { sql, type ExpressionBuilder, type Insertable } from 'kysely';
import { DataSource } from 'typeorm';
import { anyOf, responsibleFor } from '../../core/access/access';
import { kdb, type DB } from '../../core/database/kysely';
import type { Queryable } from '../../core/database/sql-kit';

/** users.status of an account that may sign in */
const ACTIVE_USER = 1;

/** The SQL of the pick-up codes (issue 38): the people a code names, their links, the used codes and the attempts. */
@Injectable()
export class PickupRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The guardian's active children of the school, with the guardian's relation and name and the school's name, by child. */
  guardianChildren(schoolId: number, userId: number) {
    return kdb(this.db)
      .selectFrom('student_guardians as g')
      .innerJoin('students as s', (j) =>
        j.onRef('s.id', '=', 'g.student_id').on('s.status', '=', StudentStatus.Active).on('s.school_id', '=', schoolId),
      )
      .innerJoin('users as u', 'u.id', 'g.user_id')
      .innerJoin('schools as sc', 'sc.id', 's.school_id')
      .select(['s.id', 's.name', 'g.relation', 'u.name as me', 'sc.name as school_name'])
      .where('g.user_id', '=', userId)
      .orderBy('s.id')
      .execute();
  }

  /** The guardian's active children's (not removed) pick-up people with their live link (the newest), by child and person. */
  sharePeople(schoolId: number, userId: number) {
    return kdb(this.db)
      .selectFrom('student_guardians as g')
      .innerJoin('students as s', (j) =>
        j.onRef('s.id', '=', 'g.student_id').on('s.status', '=', StudentStatus.Active).on('s.school_id', '=', schoolId),
      )
      .innerJoin('pickup_people as p', (j) => j.onRef('p.student_id', '=', 's.id').on('p.deleted_at', 'is', null))
      .leftJoinLateral(
        (eb) =>
          eb
            .selectFrom('pickup_links as l')
            .select(['l.id', 'l.created_at', 'l.last_used_at'])
            .whereRef('l.pickup_person_id', '=', 'p.id')
            .where('l.revoked_at', 'is', null)
            .orderBy('l.id', 'desc')
            .limit(1)
            .as('link'),
        (j) => j.onTrue(),
      )
      .select([
        'p.id as pickup_person_id',
        'p.name',
        'p.relation',
        'p.mobile',
        's.id as student_id',
        's.name as student_name',
        'link.id as link_id',
        'link.created_at as link_created_at',
        'link.last_used_at as link_last_used_at',
      ])
      .where('g.user_id', '=', userId)
      .orderBy('s.id')
      .orderBy('p.id')
      .execute();
  }

  /**
   * A (not removed) pick-up person of the guardian's active child of the school, locked for the new link (two links at
   * once for one person take turns), with their trimmed mobile and the child's and the school's names.
   */
  lockSharePerson(em: Queryable, schoolId: number, userId: number, personId: number) {
    return kdb(em)
      .selectFrom('pickup_people as p')
      .innerJoin('students as s', (j) =>
        j.onRef('s.id', '=', 'p.student_id').on('s.status', '=', StudentStatus.Active).on('s.school_id', '=', schoolId),
      )
      .innerJoin('schools as sc', 'sc.id', 's.school_id')
      .innerJoin('student_guardians as g', (j) => j.onRef('g.student_id', '=', 's.id').on('g.user_id', '=', userId))
      .select((eb) => ['p.id', 'p.name', eb.fn<string>('btrim', ['p.mobile']).as('mobile'), 's.name as student', 'sc.name as school'])
      .where('p.id', '=', personId)
      .where('p.deleted_at', 'is', null)
      .forUpdate('p')
      .executeTakeFirst();
  }

  /** Revokes the person's live links. */
  async revokePersonLinks(em: Queryable, personId: number): Promise<void> {
    await kdb(em)
      .updateTable('pickup_links')
      .set({ revoked_at: sql`now()` })
      .where('pickup_person_id', '=', personId)
      .where('revoked_at', 'is', null)
      .execute();
  }

  /** A new link (only its token's hash); answers its id. */
  addLink(em: Queryable, row: Pick<Insertable<DB['pickup_links']>, 'school_id' | 'pickup_person_id' | 'token_hash' | 'created_by'>) {
    return kdb(em).insertInto('pickup_links').values(row).returning('id').executeTakeFirstOrThrow();
  }

  /** Revokes the live link `linkId` of a pick-up person of the guardian's child of the school; answers whether it did. */
  async revokeGuardianLink(schoolId: number, userId: number, linkId: number): Promise<boolean> {
    const r = await kdb(this.db)
      .updateTable('pickup_links as l')
      .from('pickup_people as p')
      .innerJoin('students as s', (j) => j.onRef('s.id', '=', 'p.student_id').on('s.school_id', '=', schoolId))
      .innerJoin('student_guardians as g', (j) => j.onRef('g.student_id', '=', 's.id').on('g.user_id', '=', userId))
      .set({ revoked_at: sql`now()` })
      .where('l.id', '=', linkId)
      .whereRef('l.pickup_person_id', '=', 'p.id')
      .where('l.revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /**
   * The live link of this token hash, used now (last_used_at): its school, (not removed) person and their active child
   * with the school's name; none when revoked, removed or archived.
   */
  useLink(hash: string) {
    return kdb(this.db)
      .updateTable('pickup_links as l')
      .from('pickup_people as p')
      .innerJoin('students as s', (j) => j.onRef('s.id', '=', 'p.student_id').on('s.status', '=', StudentStatus.Active))
      .innerJoin('schools as sc', 'sc.id', 's.school_id')
      .set({ last_used_at: sql`now()` })
      .where('l.token_hash', '=', hash)
      .where('l.revoked_at', 'is', null)
      .whereRef('p.id', '=', 'l.pickup_person_id')
      .where('p.deleted_at', 'is', null)
      .returning(['l.school_id', 'p.id as person_id', 'p.name', 'p.relation', 's.id as student_id', 's.name as student', 'sc.name as school_name'])
      .execute();
  }

  /**
   * The people a code may name for the school's active students (a teacher's own when `teacherId` is set): each guardian
   * ('g<user id>', with all their children of those) and each pick-up person ('p<id>'), revoked when removed or without a
   * live link (removed ones that never had a link are not listed).
   */
  codePeople(schoolId: number, teacherId: number | null) {
    return kdb(this.db)
      .with('mine', (w) =>
        w
          .selectFrom('students as s')
          .select('s.id')
          .where('s.school_id', '=', schoolId)
          .where('s.status', '=', StudentStatus.Active)
          .$if(teacherId !== null, (q) => q.where((eb) => responsibleFor(eb, eb.ref('s.id'), teacherId!))),
      )
      .selectFrom('student_guardians as g')
      .innerJoin('mine', 'mine.id', 'g.student_id')
      .innerJoin('users as u', 'u.id', 'g.user_id')
      .select((eb) => [
        sql<string>`'g' || ${eb.ref('g.user_id')}`.as('person'),
        eb.fn.min('u.name').as('name'),
        eb.fn.min('g.relation').as('relation'),
        sql<number[]>`array_agg(${eb.ref('g.student_id')} order by ${eb.ref('g.student_id')})`.as('students'),
        sql<boolean>`false`.as('revoked'),
      ])
      .groupBy('g.user_id')
      .unionAll((eb) =>
        eb
          .selectFrom('pickup_people as p')
          .innerJoin('mine', 'mine.id', 'p.student_id')
          .select((x) => [
            sql<string>`'p' || ${x.ref('p.id')}`.as('person'),
            'p.name',
            'p.relation',
            sql<number[]>`array[${x.ref('p.student_id')}]`.as('students'),
            x
              .or([x('p.deleted_at', 'is not', null), x.not(x.exists(liveLink(x)))])
              .$castTo<boolean>()
              .as('revoked'),
          ])
          .where((x) =>
            x.or([
              x('p.deleted_at', 'is', null),
              x.exists(x.selectFrom('pickup_links as l').select(sql.lit(1).as('one')).whereRef('l.pickup_person_id', '=', 'p.id')),
            ]),
          ),
      )
      .execute();
  }

  /**
   * A guardian's standing for these students of the school: their name and relation (any of the children's) and of how
   * many of the students they are a guardian; none when the account is not active or guards none of them.
   */
  guardianStanding(schoolId: number, userId: number, studentIds: readonly number[]) {
    return kdb(this.db)
      .selectFrom('users as u')
      .innerJoin('student_guardians as g', (j) =>
        j.onRef('g.user_id', '=', 'u.id').on('g.student_id', '=', anyOf(studentIds)).on('g.school_id', '=', schoolId),
      )
      .select((eb) => [eb.fn.min('u.name').as('name'), eb.fn.min('g.relation').as('relation'), sql<number>`count(*)::int`.as('n')])
      .where('u.id', '=', userId)
      .where('u.status', '=', ACTIVE_USER)
      .groupBy('u.id')
      .executeTakeFirst();
  }

  /** The name of a user of the school (any status). */
  userName(schoolId: number, userId: number) {
    return kdb(this.db).selectFrom('users').select('name').where('id', '=', userId).where('school_id', '=', schoolId).executeTakeFirst();
  }

  /** A pick-up person of the school (removed ones too): whom they may collect, whether removed, whether a link is live. */
  personStanding(schoolId: number, personId: number) {
    return kdb(this.db)
      .selectFrom('pickup_people as p')
      .select((eb) => [
        'p.name',
        'p.relation',
        'p.student_id',
        eb('p.deleted_at', 'is not', null).$castTo<boolean>().as('deleted'),
        eb.exists(liveLink(eb)).$castTo<boolean>().as('live'),
      ])
      .where('p.id', '=', personId)
      .where('p.school_id', '=', schoolId)
      .executeTakeFirst();
  }

  /** The departure a code was used for (its event id), if it was; in a transaction, what it sees. */
  usedCode(codeId: string, on: Queryable = this.db) {
    return kdb(on).selectFrom('pickup_used_codes').select('event_id').where('code_id', '=', codeId).executeTakeFirst();
  }

  /** Records a code as used, unless it is already (then answers false). */
  async claimCode(em: Queryable, row: Insertable<DB['pickup_used_codes']>): Promise<boolean> {
    const claimed = await kdb(em)
      .insertInto('pickup_used_codes')
      .values(row)
      .onConflict((oc) => oc.column('code_id').doNothing())
      .returning('code_id')
      .execute();
    return claimed.length > 0;
  }

  /** Logs an attempt; answers its id. */
  async logAttempt(row: Insertable<DB['pickup_attempts']>): Promise<number> {
    const r = await kdb(this.db).insertInto('pickup_attempts').values(row).returning('id').executeTakeFirstOrThrow();
    return r.id;
  }
}

/** The live links of the pick-up person `p` of the caller's query (any query with `p`). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const liveLink = (eb: ExpressionBuilder<any, any>) =>
  (eb as unknown as ExpressionBuilder<DB & { p: DB['pickup_people'] }, 'p'>)
    .selectFrom('pickup_links as l')
    .select(sql.lit(1).as('one'))
    .whereRef('l.pickup_person_id', '=', 'p.id')
    .where('l.revoked_at', 'is', null);
