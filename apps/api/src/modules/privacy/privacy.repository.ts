import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  StudentStatus,
  type AccessLogRow,
  type ChildAccessLogQuery,
  type ChildDataKind,
  type PolicyKind,
  type Role,
  type SetConsentInput,
} from '@wantuo/shared';
import { sql, type ExpressionBuilder } from 'kysely';
import { DataSource } from 'typeorm';
import { responsibleFor } from '../../core/access/access';
import { kdb, pageRows, type DB } from '../../core/database/kysely';
import type { PageQuery, Queryable } from '../../core/database/sql-kit';

/** At most this many children are named in one row of the access log as a reader gets it. */
const NAMED = 20;

/** The newest version of each document, 0 before the first (`p` privacy, `c` children). */
const currentVersions = (on: Queryable) =>
  kdb(on)
    .selectFrom('privacy_policies')
    .select([
      sql<number>`coalesce(max(version) filter (where kind = 'privacy'), 0)::int`.as('p'),
      sql<number>`coalesce(max(version) filter (where kind = 'children'), 0)::int`.as('c'),
    ]);

/** The SQL of the privacy module's documents, consents, access log and calls (issue 38): typed by the schema. */
@Injectable()
export class PrivacyRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  // ---------------------------------------------------------------- the access log

  /** Appends one row of the access log (within `em`'s transaction when given). */
  async logAccess(
    em: Queryable | undefined,
    v: { schoolId: number; actorId: number; actorRole: Role; studentIds: number[]; what: ChildDataKind[]; action: string; ip: string },
  ): Promise<void> {
    await kdb(em ?? this.db)
      .insertInto('child_access_log')
      .values({
        school_id: v.schoolId,
        actor_id: v.actorId,
        actor_role: v.actorRole,
        student_ids: sql<number[]>`${v.studentIds}::int[]`,
        what: sql<string[]>`${v.what}::varchar[]`,
        action: v.action,
        ip: v.ip,
      })
      .execute();
  }

  /** Whether the user is a guardian of the school's child. */
  async isGuardian(schoolId: number, studentId: number, userId: number): Promise<boolean> {
    const r = await kdb(this.db)
      .selectFrom('student_guardians as g')
      .select(sql.lit(1).as('one'))
      .where('g.student_id', '=', studentId)
      .where('g.user_id', '=', userId)
      .where('g.school_id', '=', schoolId)
      .executeTakeFirst();
    return r !== undefined;
  }

  /**
   * A page of the school's access log `q` selects, newest first, with the total (one statement). `guardian`: a
   * guardian's view (no address; only the child asked for named).
   */
  accessLog(schoolId: number, q: ChildAccessLogQuery, guardian: boolean) {
    const k = kdb(this.db);
    const timezone = k.selectFrom('schools').select('timezone').where('id', '=', schoolId);
    const studentId = q.student_id ?? null;
    const filter = (eb: ExpressionBuilder<DB & { l: DB['child_access_log'] }, 'l'>) =>
      eb.and([
        eb('l.school_id', '=', schoolId),
        ...(studentId === null ? [] : [sql<boolean>`${eb.ref('l.student_ids')} @> array[${studentId}::int]`]),
        ...(q.what ? [sql<boolean>`${eb.ref('l.what')} @> array[${q.what}::varchar]`] : []),
        ...(q.from ? [sql<boolean>`${eb.ref('l.created_at')} >= (${q.from}::date)::timestamp at time zone (${timezone})`] : []),
        ...(q.to ? [sql<boolean>`${eb.ref('l.created_at')} < (${q.to}::date + 1)::timestamp at time zone (${timezone})`] : []),
      ]);
    const total = k
      .selectFrom('child_access_log as l')
      .select((eb) => sql<number>`${eb.fn.countAll()}::int`.as('total'))
      .where(filter);
    const list = k
      .selectFrom('child_access_log as l')
      .leftJoin('users as u', 'u.id', 'l.actor_id')
      .select((eb) => [
        sql<number>`${eb.ref('l.id')}::int`.as('id'),
        'l.created_at',
        sql<string>`coalesce(${eb.ref('u.name')}, '')`.as('actor_name'),
        sql<number>`${eb.ref('l.actor_role')}::int`.as('actor_role'),
        eb.ref('l.what').$castTo<AccessLogRow['what']>().as('what'),
        'l.action',
        (guardian ? sql<string | null>`null` : sql<string | null>`${eb.ref('l.ip')}`).as('ip'),
        sql<number>`cardinality(${eb.ref('l.student_ids')})`.as('student_count'),
        sql<AccessLogRow['students']>`coalesce((select json_agg(json_build_object('id', st.id, 'name', st.name) order by st.id)
             from (select x.id from unnest(${eb.ref('l.student_ids')}) as x(id)
                    ${guardian ? sql`where x.id = ${studentId}` : sql``} order by x.id limit ${sql.lit(NAMED)}) k
             join students st on st.id = k.id), '[]'::json)`.as('students'),
      ])
      .where(filter)
      .orderBy('l.created_at', 'desc')
      .orderBy('l.id', 'desc');
    return pageRows(this.db, total, list, q);
  }

  // ---------------------------------------------------------------- calls

  /**
   * The name and mobile of one of the child's guardians (`userId`) or live pick-up people (`pickupId`), when the child
   * is the school's, not anonymised and (unless `responsible` is undefined: the admin) one the teacher is responsible
   * for; undefined when the child is not, nulls when the person is not the child's.
   */
  contact(schoolId: number, studentId: number, person: { userId: number } | { pickupId: number }, responsible: number | undefined) {
    return kdb(this.db)
      .selectFrom('students as s')
      .leftJoinLateral(
        (eb) =>
          'userId' in person
            ? eb
                .selectFrom('student_guardians as g')
                .innerJoin('users as u', (j) => j.onRef('u.id', '=', 'g.user_id').on('u.deleted_at', 'is', null))
                .select(['u.name', 'u.mobile'])
                .whereRef('g.student_id', '=', 's.id')
                .where('g.user_id', '=', person.userId)
                .as('c')
            : eb
                .selectFrom('pickup_people as p')
                .select(['p.name', (p) => p.ref('p.mobile').$castTo<string | null>().as('mobile')])
                .whereRef('p.student_id', '=', 's.id')
                .where('p.id', '=', person.pickupId)
                .where('p.deleted_at', 'is', null)
                .as('c'),
        (j) => j.onTrue(),
      )
      .select(['c.name', 'c.mobile'])
      .where('s.id', '=', studentId)
      .where('s.school_id', '=', schoolId)
      .where('s.anonymised_at', 'is', null)
      .$if(responsible !== undefined, (b) => b.where((eb) => responsibleFor(eb, eb.ref('s.id'), responsible!)))
      .executeTakeFirst();
  }

  // ---------------------------------------------------------------- consents

  /** The current document versions and the guardian's active children of the school with their consents, youngest last. */
  consents(em: Queryable, schoolId: number, userId: number) {
    return kdb(em)
      .with('cur', () => currentVersions(em))
      .selectFrom('cur')
      .leftJoin('student_guardians as g', (j) => j.on('g.user_id', '=', userId).on('g.school_id', '=', schoolId))
      .leftJoin('students as s', (j) => j.onRef('s.id', '=', 'g.student_id').on('s.status', '=', StudentStatus.Active))
      .select((eb) => [
        'cur.p as privacy_version',
        'cur.c as children_version',
        's.id as student_id',
        's.name',
        sql<boolean>`(${eb.ref('g.privacy_version')} = ${eb.ref('cur.p')} and ${eb.ref('g.children_version')} = ${eb.ref('cur.c')}) is true`.as(
          'policies_accepted',
        ),
        sql<Date | null>`case when ${eb.ref('g.privacy_version')} = ${eb.ref('cur.p')} and ${eb.ref('g.children_version')} = ${eb.ref(
          'cur.c',
        )} then ${eb.ref('g.consented_at')} end`.as('accepted_at'),
        's.photo_consent as photos',
        's.health_consent as health',
      ])
      .orderBy(sql`s.birthday nulls last`)
      .orderBy('s.id')
      .execute();
  }

  /** Records the accepted versions on the guardian's links to their active children; the children. */
  async accept(em: Queryable, schoolId: number, userId: number, privacy: number, children: number): Promise<number[]> {
    const rows = await kdb(em)
      .updateTable('student_guardians as g')
      .from('students as s')
      .set({ privacy_version: privacy, children_version: children, consented_at: sql`now()` })
      .where('g.user_id', '=', userId)
      .where('g.school_id', '=', schoolId)
      .whereRef('s.id', '=', 'g.student_id')
      .where('s.status', '=', StudentStatus.Active)
      .returning('g.student_id')
      .execute();
    return rows.map((r) => r.student_id);
  }

  /** Appends the guardian's acceptance of the documents for each of these children. */
  async insertAcceptances(
    em: Queryable,
    v: { schoolId: number; userId: number; studentIds: number[]; privacy: number; children: number; ip: string; userAgent: string },
  ): Promise<void> {
    await kdb(em)
      .insertInto('privacy_consents')
      .columns(['school_id', 'user_id', 'student_id', 'kind', 'granted', 'privacy_version', 'children_version', 'ip', 'user_agent'])
      .expression(
        sql`select ${v.schoolId}::int, ${v.userId}::int, x, 'policies', true, ${v.privacy}::int, ${v.children}::int, ${v.ip}, ${v.userAgent}
              from unnest(${v.studentIds}::int[]) as x`,
      )
      .execute();
  }

  /** The guardian's link to their active child of the school, locked: whether they accepted the documents. */
  linkForUpdate(em: Queryable, schoolId: number, studentId: number, userId: number) {
    return kdb(em)
      .selectFrom('student_guardians as g')
      .innerJoin('students as s', (j) => j.onRef('s.id', '=', 'g.student_id').on('s.status', '=', StudentStatus.Active))
      .select((eb) => eb('g.privacy_version', 'is not', null).as('accepted'))
      .where('g.student_id', '=', studentId)
      .where('g.user_id', '=', userId)
      .where('g.school_id', '=', schoolId)
      .forUpdate('g')
      .executeTakeFirst();
  }

  /** Withdraws the guardian's acceptance of the documents for the child. */
  async withdrawPolicies(em: Queryable, studentId: number, userId: number): Promise<void> {
    await kdb(em)
      .updateTable('student_guardians')
      .set({ privacy_version: null, children_version: null, consented_at: null })
      .where('student_id', '=', studentId)
      .where('user_id', '=', userId)
      .execute();
  }

  /** The child's photo (withdrawn: the photo goes) or health consent (withdrawn: the health note goes). */
  async setConsent(em: Queryable, studentId: number, kind: 'photos' | 'health', granted: boolean): Promise<void> {
    await kdb(em)
      .updateTable('students')
      .set((eb) =>
        kind === 'photos'
          ? {
              photo_consent: granted,
              photo_url: sql`case when ${granted}::boolean then ${eb.ref('photo_url')} end`,
              updated_at: sql`now()`,
              version: eb('version', '+', 1),
            }
          : {
              health_consent: granted,
              allergies: sql`case when ${granted}::boolean then ${eb.ref('allergies')} end`,
              updated_at: sql`now()`,
              version: eb('version', '+', 1),
            },
      )
      .where('id', '=', studentId)
      .execute();
  }

  /** Appends one consent decision. */
  async insertConsent(
    em: Queryable,
    v: { schoolId: number; userId: number; studentId: number; kind: SetConsentInput['kind']; granted: boolean; ip: string; userAgent: string },
  ): Promise<void> {
    await kdb(em)
      .insertInto('privacy_consents')
      .values({
        school_id: v.schoolId,
        user_id: v.userId,
        student_id: v.studentId,
        kind: v.kind,
        granted: v.granted,
        ip: v.ip,
        user_agent: v.userAgent,
      })
      .execute();
  }

  // ---------------------------------------------------------------- documents

  /** The current versions (privacy, children), in one query. */
  async currentVersions(): Promise<{ privacy: number; children: number }> {
    const r = await currentVersions(this.db).executeTakeFirstOrThrow();
    return { privacy: r.p, children: r.c };
  }

  /** The newest version of each document, with the platform's name and the school's (`schoolId` null: none). */
  current(schoolId: number | null) {
    return kdb(this.db)
      .selectFrom('privacy_policies as p')
      .distinctOn('p.kind')
      .select((eb) => [
        eb.ref('p.kind').$castTo<PolicyKind>().as('kind'),
        'p.version',
        'p.title',
        'p.body_zh',
        'p.body_en',
        'p.summary',
        'p.published_at',
        sql<string>`coalesce(${eb
          .selectFrom('site_settings as s')
          .select(sql<string>`s.value->>'site_name'`.as('v'))
          .where('s.key', '=', 'page_config')}, '')`.as('platform_name'),
        eb.selectFrom('schools as sc').select('sc.name').where('sc.id', '=', schoolId).as('school_name'),
      ])
      .orderBy('p.kind')
      .orderBy('p.version', 'desc')
      .execute();
  }

  /** A page of one document's versions, newest first, with the total (one statement). */
  history(kind: PolicyKind, q: PageQuery) {
    const k = kdb(this.db);
    const total = k
      .selectFrom('privacy_policies')
      .select((eb) => sql<number>`${eb.fn.countAll()}::int`.as('total'))
      .where('kind', '=', kind);
    const list = k
      .selectFrom('privacy_policies as p')
      .leftJoin('users as u', 'u.id', 'p.published_by')
      .select((eb) => [
        'p.id',
        eb.ref('p.kind').$castTo<PolicyKind>().as('kind'),
        'p.version',
        'p.title',
        'p.body_zh',
        'p.body_en',
        'p.summary',
        'p.published_at',
        'u.name as published_by_name',
      ])
      .where('p.kind', '=', kind)
      .orderBy('p.version', 'desc');
    return pageRows(this.db, total, list, q);
  }

  /** One publish of a document at a time. */
  async lockPolicy(em: Queryable, kind: PolicyKind): Promise<void> {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`privacy_policies:${kind}`}, 0))`.execute(kdb(em));
  }

  /** The document's newest version. */
  latest(em: Queryable, kind: PolicyKind) {
    return kdb(em)
      .selectFrom('privacy_policies')
      .select(['kind', 'version', 'title', 'body_zh', 'body_en', 'summary'])
      .where('kind', '=', kind)
      .orderBy('version', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** Adds a version; the version as the history lists it. */
  insertPolicy(
    em: Queryable,
    v: { kind: PolicyKind; version: number; title: string; body_zh: string; body_en: string; summary: string; published_by: number },
    publishedByName: string,
  ) {
    return kdb(em)
      .insertInto('privacy_policies')
      .values(v)
      .returning((eb) => [
        'id',
        eb.ref('kind').$castTo<PolicyKind>().as('kind'),
        'version',
        'title',
        'body_zh',
        'body_en',
        'summary',
        'published_at',
        sql<string | null>`${publishedByName}::text`.as('published_by_name'),
      ])
      .executeTakeFirstOrThrow();
  }
}
