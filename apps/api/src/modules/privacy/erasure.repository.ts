import { Role, StudentStatus } from '@wantuo/shared';
import { sql, type Expression, type SqlBool } from 'kysely';
import type { EntityManager } from 'typeorm';
import { anyOf } from '../../core/access/access';
import { kdb, type Database } from '../../core/database/kysely';

/** What one erasure found and changed (the ids and counts the caller reports, the files it removes after commit). */
export interface ErasedSet {
  students: number[];
  guardians: number[];
  /** storage paths (under the upload dir) of the photos whose rows were deleted: removed from disk after commit */
  files: string[];
}

/** The student's name written where it was: 已注销学生<id> (packages/shared anonymisedName, in SQL); `id` the student's id. */
const anonOf = (id: Expression<number>) => sql<string>`'已注销学生' || ${id}`;
/** The anonymised name of the CTE `s`'s student. */
const ANON = anonOf(sql.ref('s.id'));
/** `text` (an SQL text expression) with the CTE `s`'s student's name replaced by the anonymised one. */
const swap = <T>(text: Expression<T>) => sql<T>`replace(${text}, s.name, ${ANON})`;
/** A jsonb column with the CTE `s`'s student's name replaced by the anonymised one (in its text). */
const swapJson = <T>(json: Expression<T>) => sql<T>`replace(${json}::text, s.name, ${ANON})::jsonb`;
/** Whether the SQL text expression `text` holds the CTE `s`'s student's name. */
const named = (text: Expression<unknown>) => sql<SqlBool>`${text} like '%' || s.name || '%'`;
const namedJson = (json: Expression<unknown>) => sql<SqlBool>`${json}::text like '%' || s.name || '%'`;
/** The free-text keys of a flow event's payload (FlowPayload: note, override, reason) */
const FLOW_TEXT_KEYS = sql`array['note', 'override', 'reason']`;
const now = () => sql<Date>`now()`;

/**
 * The SQL of the erasure (issue 37, docs/modules/privacy.md "Erasure"): set-based, one statement per table for every
 * child of the set at once, inside the caller's transaction. Each statement touches only the rows of the locked
 * students (`ids`, of the school `schoolId`). Money and counts stay; names are replaced by the anonymised name, free
 * text (comments, reasons, notes) is blanked, photos are unlinked and their files listed for deletion.
 */
export class ErasureRepository {
  constructor(private readonly em: EntityManager) {}

  private get k(): Database {
    return kdb(this.em);
  }

  /** Locks the students of the school not yet anonymised (in id order: two erasures never deadlock). */
  async lock(schoolId: number, ids: number[]) {
    return this.k
      .selectFrom('students')
      .select(['id', 'name'])
      .where('school_id', '=', schoolId)
      .where('id', '=', anyOf(ids))
      .where('anonymised_at', 'is', null)
      .orderBy('id')
      .forUpdate()
      .execute();
  }

  /**
   * The guardians whose every child is in the set (or already anonymised): their accounts go with the child. A guardian
   * with another child keeps their account; only the link to this child goes.
   */
  async soleGuardians(schoolId: number, ids: number[]): Promise<number[]> {
    const rows = await this.k
      .selectFrom('student_guardians as g')
      .innerJoin('users as u', (j) => j.onRef('u.id', '=', 'g.user_id').on('u.role', '=', sql.lit(Role.Parent)))
      .select('u.id')
      .distinct()
      .where('g.school_id', '=', schoolId)
      .where('g.student_id', '=', anyOf(ids))
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('student_guardians as o')
              .innerJoin('students as os', 'os.id', 'o.student_id')
              .select(sql.lit(1).as('one'))
              .whereRef('o.user_id', '=', 'u.id')
              .where((x) => x.not(x('o.student_id', '=', anyOf(ids))))
              .where('os.anonymised_at', 'is', null),
          ),
        ),
      )
      .orderBy('u.id')
      .execute();
    return rows.map((r) => r.id);
  }

  /** The storage paths of every photo of the children (profile, pick-up people, comments, homework), before unlinking. */
  async photoPaths(schoolId: number, ids: number[]): Promise<string[]> {
    const photos = sql<string>`jsonb_array_elements_text(photos)`.as('url');
    const rows = await this.k
      .with('urls', (db) =>
        db
          .selectFrom('students')
          .select((eb) => eb.ref('photo_url').$notNull().as('url'))
          .where('school_id', '=', schoolId)
          .where('id', '=', anyOf(ids))
          .where('photo_url', 'is not', null)
          .union(
            db
              .selectFrom('pickup_people')
              .select((eb) => eb.ref('photo_url').$notNull().as('url'))
              .where('school_id', '=', schoolId)
              .where('student_id', '=', anyOf(ids))
              .where('photo_url', 'is not', null),
          )
          .union(db.selectFrom('daily_comments').select(photos).where('school_id', '=', schoolId).where('student_id', '=', anyOf(ids)))
          .union(db.selectFrom('daily_comment_versions').select(photos).where('school_id', '=', schoolId).where('student_id', '=', anyOf(ids)))
          .union(
            db
              .selectFrom('homework_submissions')
              .select((eb) => eb.ref('photo_url').$notNull().as('url'))
              .where('school_id', '=', schoolId)
              .where('student_id', '=', anyOf(ids))
              .where('photo_url', 'is not', null),
          )
          .union(
            db
              .selectFrom('homework_events')
              .select((eb) => eb.ref('photo_url').$notNull().as('url'))
              .where('school_id', '=', schoolId)
              .where('student_id', '=', anyOf(ids))
              .where('photo_url', 'is not', null),
          )
          .union(
            db
              .selectFrom('family_messages')
              .select((eb) => eb.ref('photo_url').$notNull().as('url'))
              .where('school_id', '=', schoolId)
              .where('student_id', '=', anyOf(ids))
              .where('photo_url', 'is not', null),
          ),
      )
      .with('gone', (db) =>
        db
          .deleteFrom('files as f')
          .using('urls')
          .where((eb) => eb(sql<string>`'/uploads/' || ${eb.ref('f.storage_path')}`, '=', eb.ref('urls.url')))
          .returning('f.storage_path'),
      )
      .selectFrom('gone')
      .select('storage_path')
      .execute();
    return rows.map((r) => r.storage_path);
  }

  /** Lets this transaction write to the append-only tables the erasure rewrites (their triggers check it). */
  private async erasureOn(): Promise<void> {
    await sql`set local wantuo.erasure = 'on'`.execute(this.k);
  }

  /**
   * Names in the money and message records of the child's family (kept): the child's name replaced by the anonymised
   * one. The school's own ledger (top-ups, renewals) names no child and is not touched.
   */
  async renameInRecords(schoolId: number, ids: number[]): Promise<void> {
    // every statement: `s` the children (id, name)
    const withNames = () =>
      this.k.with('s', (db) => db.selectFrom('students').select(['id', 'name']).where('school_id', '=', schoolId).where('id', '=', anyOf(ids)));
    await this.erasureOn();
    // only the records of the child's family: a short name (王一) is also inside another child's (王一鸣)
    await withNames()
      .updateTable('payments as p')
      .from('s')
      .set((eb) => ({ description: swap(eb.ref('p.description')), meta: swapJson(eb.ref('p.meta')) }))
      .where('p.school_id', '=', schoolId)
      .where((eb) =>
        eb.or([
          eb(
            'p.created_by',
            'in',
            eb.selectFrom('student_guardians as fg').select('fg.user_id').where('fg.school_id', '=', schoolId).whereRef('fg.student_id', '=', 's.id'),
          ),
          eb(sql<string>`${eb.ref('p.meta')}->>'student_id'`, '=', sql<string>`${eb.ref('s.id')}::text`),
        ]),
      )
      .where((eb) => eb.or([named(eb.ref('p.description')), namedJson(eb.ref('p.meta'))]))
      .execute();
    await withNames()
      .updateTable('contract_events as e')
      .from(['s', 'contracts as c'])
      .set((eb) => ({ data: swapJson(eb.ref('e.data')), reason: swap(eb.ref('e.reason')) }))
      .whereRef('c.student_id', '=', 's.id')
      .whereRef('e.contract_id', '=', 'c.id')
      .where((eb) => eb.or([namedJson(eb.ref('e.data')), named(eb.ref('e.reason'))]))
      .execute();
    await withNames()
      .updateTable('meal_booking_events as e')
      .from(['s', 'meal_bookings as b'])
      .set((eb) => ({ data: swapJson(eb.ref('e.data')) }))
      .whereRef('b.student_id', '=', 's.id')
      .whereRef('e.booking_id', '=', 'b.id')
      .where((eb) => namedJson(eb.ref('e.data')))
      .execute();
    // receipts keep the child's name in their snapshot: the name goes, the numbers and amounts stay (append-only but
    // for the erasure); a stamp or the school's name are not about the child
    await withNames()
      .updateTable('receipts as r')
      .from('s')
      .set({ student_name: ANON })
      .where('r.school_id', '=', schoolId)
      .whereRef('r.student_id', '=', 's.id')
      .where('r.student_name', '<>', ANON)
      .execute();
    await withNames()
      .updateTable('sms_messages as m')
      .from('s')
      .set((eb) => ({ content: swap(eb.ref('m.content')), params: swapJson(eb.ref('m.params')) }))
      .where('m.school_id', '=', schoolId)
      .where((eb) =>
        eb(
          'm.mobile',
          'in',
          eb
            .selectFrom('student_guardians as g')
            .innerJoin('users as u', 'u.id', 'g.user_id')
            .select('u.mobile')
            .where('g.school_id', '=', schoolId)
            .whereRef('g.student_id', '=', 's.id')
            .union(
              eb.selectFrom('pickup_people as pp').select('pp.mobile').where('pp.school_id', '=', schoolId).whereRef('pp.student_id', '=', 's.id'),
            ),
        ),
      )
      .where((eb) => eb.or([named(eb.ref('m.content')), namedJson(eb.ref('m.params'))]))
      .execute();
    await withNames()
      .updateTable('wechat_messages as m')
      .from('s')
      .set((eb) => ({ data: swapJson(eb.ref('m.data')), params: swapJson(eb.ref('m.params')) }))
      .where('m.school_id', '=', schoolId)
      .where((eb) =>
        eb(
          'm.user_id',
          'in',
          eb.selectFrom('student_guardians as fg').select('fg.user_id').where('fg.school_id', '=', schoolId).whereRef('fg.student_id', '=', 's.id'),
        ),
      )
      .where((eb) => eb.or([namedJson(eb.ref('m.data')), namedJson(eb.ref('m.params'))]))
      .execute();
  }

  /** The free text written about the children, blanked; their photos unlinked. The records (ids, times, states) stay. */
  async blankTexts(schoolId: number, ids: number[]): Promise<void> {
    const k = this.k;
    await this.erasureOn();
    await k
      .updateTable('flow_events')
      .set({
        payload: sql`(payload - ${FLOW_TEXT_KEYS}) ||
              case when payload ? 'pickup_verified'
                   then jsonb_build_object('pickup_verified', payload->'pickup_verified' || '{"person": "", "name": "", "relation": ""}'::jsonb)
                   else '{}'::jsonb end`,
      })
      .where('school_id', '=', schoolId)
      .where('student_id', '=', anyOf(ids))
      .where(sql<SqlBool>`(payload ?| ${FLOW_TEXT_KEYS} or payload ? 'pickup_verified')`)
      .execute();
    await k
      .updateTable('daily_reports')
      .set({ comment: null, pickup: sql`case when pickup is null then null else pickup || '{"name": "", "relation": ""}'::jsonb end` })
      .where('school_id', '=', schoolId)
      .where('student_id', '=', anyOf(ids))
      .execute();
    for (const table of ['daily_comments', 'daily_comment_versions'] as const) {
      await k
        .updateTable(table)
        .set({ text: '', presets: sql`'{}'`, photos: sql`'[]'` })
        .where('school_id', '=', schoolId)
        .where('student_id', '=', anyOf(ids))
        .execute();
    }
    await k.updateTable('student_comments').set({ content: '' }).where('school_id', '=', schoolId).where('student_id', '=', anyOf(ids)).execute();
    await k
      .updateTable('leave_requests')
      .set({ reason: '', review_note: null })
      .where('school_id', '=', schoolId)
      .where('student_id', '=', anyOf(ids))
      .execute();
    await k
      .updateTable('homework_submissions')
      .set({ note: null, home_note: null, photo_url: null })
      .where('school_id', '=', schoolId)
      .where('student_id', '=', anyOf(ids))
      .execute();
    await k
      .updateTable('homework_events')
      .set({ note: null, photo_url: null })
      .where('school_id', '=', schoolId)
      .where('student_id', '=', anyOf(ids))
      .where((eb) => eb.or([eb('note', 'is not', null), eb('photo_url', 'is not', null)]))
      .execute();
    // a contract's remark is what the admin typed about the child's care: blanked (the contract, its money, stay)
    await k
      .updateTable('contracts')
      .set({ remark: null })
      .where('school_id', '=', schoolId)
      .where('student_id', '=', anyOf(ids))
      .where('remark', 'is not', null)
      .execute();
    await k
      .updateTable('points_ledger')
      .set({ reason: '' })
      .where('school_id', '=', schoolId)
      .where('student_id', '=', anyOf(ids))
      .where('reason', '<>', '')
      .execute();
    await k.updateTable('privacy_requests').set({ body: '' }).where('school_id', '=', schoolId).where('student_id', '=', anyOf(ids)).execute();
    // the family conversation: every message's text and photo go, the guardians' names too; the rows (ids, times,
    // sides, retractions) stay
    await k
      .updateTable('family_messages')
      .set((eb) => ({
        body: '',
        photo_url: null,
        sender_name: eb.case().when('side', '=', 'family').then('已注销家长').else(eb.ref('sender_name')).end(),
      }))
      .where('school_id', '=', schoolId)
      .where('student_id', '=', anyOf(ids))
      .execute();
    await k
      .updateTable('student_guardian_changes')
      .set({ guardian_name: '', guardian_mobile: '', relation: '', old_relation: null })
      .where('school_id', '=', schoolId)
      .where('student_id', '=', anyOf(ids))
      .execute();
    // pick-up people: their names, numbers and photos go; the row stays (flow events point at its id)
    await k
      .updateTable('pickup_people')
      .set((eb) => ({ name: '已删除', relation: '', mobile: '', photo_url: null, deleted_at: eb.fn.coalesce('deleted_at', now()) }))
      .where('school_id', '=', schoolId)
      .where('student_id', '=', anyOf(ids))
      .execute();
    await k
      .updateTable('pickup_links as l')
      .from('pickup_people as pp')
      .set((eb) => ({ revoked_at: eb.fn.coalesce('l.revoked_at', now()) }))
      .whereRef('pp.id', '=', 'l.pickup_person_id')
      .where('pp.school_id', '=', schoolId)
      .where('pp.student_id', '=', anyOf(ids))
      .execute();
    // a pick-up attempt names the person; only the attempts that concern no other (kept) child lose the name
    for (const table of ['pickup_attempts', 'pickup_used_codes'] as const) {
      await k
        .updateTable(table)
        .set({ person: '' })
        .where('school_id', '=', schoolId)
        .where('student_ids', '<@', sql<number[]>`${ids}::int[]`)
        .where('person', '<>', '')
        .execute();
    }
    await k.deleteFrom('student_guardians').where('school_id', '=', schoolId).where('student_id', '=', anyOf(ids)).execute();
  }

  /** The child's own row: anonymised, archived, `anonymised_at` set (the mark that it is done, once). */
  async anonymiseStudents(schoolId: number, ids: number[]): Promise<void> {
    await this.k
      .updateTable('students as s')
      .set((eb) => ({
        name: anonOf(eb.ref('s.id')),
        gender: null,
        birthday: null,
        day_school: null,
        grade: null,
        class_name: null,
        photo_url: null,
        allergies: null,
        notes: null,
        tutoring_type: null,
        photo_consent: null,
        health_consent: null,
        status: sql.lit(StudentStatus.Archived),
        archived_at: eb.fn.coalesce('s.archived_at', now()),
        anonymised_at: now(),
        version: eb('s.version', '+', 1),
        updated_at: now(),
      }))
      .where('s.school_id', '=', schoolId)
      .where('s.id', '=', anyOf(ids))
      .execute();
  }

  /**
   * The guardians' accounts that go with the child: signed out, unbound from WeChat, their names, numbers, sign-in
   * history and messages' addresses gone. The row stays (money and receipts point at it) as 已注销家长.
   */
  async anonymiseGuardians(schoolId: number, userIds: number[]): Promise<void> {
    if (!userIds.length) return;
    const k = this.k;
    const mobiles = () =>
      k
        .selectFrom('users')
        .select((eb) => eb.ref('mobile').$notNull().as('mobile'))
        .where('id', '=', anyOf(userIds))
        .where('school_id', '=', schoolId)
        .where('mobile', 'is not', null);
    await k.deleteFrom('sms_codes').where('mobile', 'in', mobiles()).execute();
    await k
      .updateTable('sms_messages')
      .set({ mobile: '', content: '', params: sql`'{}'` })
      .where('school_id', '=', schoolId)
      .where('mobile', 'in', mobiles())
      .execute();
    await k.deleteFrom('sms_outbox').where('mobile', 'in', mobiles()).execute();
    await k
      .deleteFrom('wechat_followers as f')
      .using('wechat_bindings as b')
      .where('b.user_id', '=', anyOf(userIds))
      .where('b.school_id', '=', schoolId)
      .whereRef('f.appid', '=', 'b.appid')
      .whereRef('f.openid', '=', 'b.openid')
      .execute();
    await k
      .updateTable('wechat_messages')
      .set({ openid: '', data: sql`'{}'`, params: sql`'{}'`, url: '' })
      .where('school_id', '=', schoolId)
      .where('user_id', '=', anyOf(userIds))
      .execute();
    await k
      .updateTable('wechat_bindings')
      .set((eb) => ({
        openid: sql<string>`'erased:' || ${eb.ref('id')}`,
        unbound_at: eb.fn.coalesce('unbound_at', now()),
        unbound_reason: eb.fn.coalesce('unbound_reason', sql.lit('erased')),
      }))
      .where('school_id', '=', schoolId)
      .where('user_id', '=', anyOf(userIds))
      .execute();
    await k
      .updateTable('user_tokens as t')
      .from('users as u')
      .set((eb) => ({ revoked_at: eb.fn.coalesce('t.revoked_at', now()), ip: '', user_agent: '' }))
      .whereRef('u.id', '=', 't.user_id')
      .where('u.id', '=', anyOf(userIds))
      .where('u.school_id', '=', schoolId)
      .execute();
    await k.deleteFrom('user_activity').where('user_id', '=', anyOf(userIds)).where('school_id', '=', schoolId).execute();
    await k
      .deleteFrom('message_prefs as m')
      .using('users as u')
      .whereRef('u.id', '=', 'm.user_id')
      .where('u.id', '=', anyOf(userIds))
      .where('u.school_id', '=', schoolId)
      .execute();
    await k
      .updateTable('users')
      .set((eb) => ({
        username: sql<string>`'erased_' || ${eb.ref('id')}`,
        name: '已注销家长',
        nickname: '',
        mobile: null,
        email: null,
        password_hash: null,
        avatar_url: null,
        remark: null,
        status: sql.lit(0),
        deleted_at: eb.fn.coalesce('deleted_at', now()),
        version: eb('version', '+', 1),
        updated_at: now(),
      }))
      .where('id', '=', anyOf(userIds))
      .where('school_id', '=', schoolId)
      .where('role', '=', sql.lit(Role.Parent))
      .execute();
  }

  /** Archived students of every school that left before the cutoff and are not anonymised yet (the retention job). */
  async dueForRetention(cutoff: Date, limit: number) {
    const k = this.k;
    return k
      .selectFrom(
        k
          .selectFrom('students')
          .select(['id', 'school_id'])
          .where('status', '=', sql.lit(StudentStatus.Archived))
          .where('anonymised_at', 'is', null)
          .where('archived_at', '<', cutoff)
          .orderBy('archived_at')
          .orderBy('id')
          .limit(limit)
          .as('d'),
      )
      .select(['d.school_id', sql<number[]>`array_agg(d.id order by d.id)::int[]`.as('ids')])
      .groupBy('d.school_id')
      .orderBy('d.school_id')
      .execute();
  }

  /** Access-log rows older than the cutoff (the only delete the log's trigger allows). */
  async pruneAccessLog(cutoff: Date): Promise<number> {
    await sql`set local wantuo.retention = 'on'`.execute(this.k);
    const r = await this.k.deleteFrom('child_access_log').where('created_at', '<', cutoff).executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}
