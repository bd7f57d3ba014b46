import { Role, StudentStatus } from '@wantuo/shared';
import type { EntityManager } from 'typeorm';

/** What one erasure found and changed (the ids and counts the caller reports, the files it removes after commit). */
export interface ErasedSet {
  students: number[];
  guardians: number[];
  /** storage paths (under the upload dir) of the photos whose rows were deleted: removed from disk after commit */
  files: string[];
}

/** The student's name written where it was: 已注销学生<id> (packages/shared anonymisedName, in SQL). */
const ANON = `'已注销学生' || s.id`;
/** The free-text keys of a flow event's payload (FlowPayload: note, override, reason) */
const FLOW_TEXT_KEYS = `array['note', 'override', 'reason']`;

/**
 * The SQL of the erasure (issue 37, docs/modules/privacy.md "Erasure"): set-based, one statement per table for every
 * child of the set at once, inside the caller's transaction. Each statement touches only the rows of the locked
 * students (`$1` their ids, `$2` the school). Money and counts stay; names are replaced by the anonymised name, free
 * text (comments, reasons, notes) is blanked, photos are unlinked and their files listed for deletion.
 */
export class ErasureRepository {
  constructor(private readonly em: EntityManager) {}

  /** Locks the students of the school not yet anonymised (in id order: two erasures never deadlock). */
  async lock(schoolId: number, ids: number[]): Promise<Array<{ id: number; name: string }>> {
    return this.em.query(
      `select id, name from students where school_id = $2 and id = any($1::int[]) and anonymised_at is null order by id for update`,
      [ids, schoolId],
    );
  }

  /**
   * The guardians whose every child is in the set (or already anonymised): their accounts go with the child. A guardian
   * with another child keeps their account; only the link to this child goes.
   */
  async soleGuardians(schoolId: number, ids: number[]): Promise<number[]> {
    const rows: Array<{ id: number }> = await this.em.query(
      `select distinct u.id from student_guardians g join users u on u.id = g.user_id and u.role = ${Role.Parent}
        where g.school_id = $2 and g.student_id = any($1::int[])
          and not exists (select 1 from student_guardians o join students os on os.id = o.student_id
                           where o.user_id = u.id and not (o.student_id = any($1::int[])) and os.anonymised_at is null)
        order by u.id`,
      [ids, schoolId],
    );
    return rows.map((r) => r.id);
  }

  /** The storage paths of every photo of the children (profile, pick-up people, comments, homework), before unlinking. */
  async photoPaths(schoolId: number, ids: number[]): Promise<string[]> {
    const rows: Array<{ storage_path: string }> = await this.em.query(
      `with urls as (
         select photo_url as url from students where school_id = $2 and id = any($1::int[]) and photo_url is not null
         union select photo_url from pickup_people where school_id = $2 and student_id = any($1::int[]) and photo_url is not null
         union select jsonb_array_elements_text(photos) from daily_comments where school_id = $2 and student_id = any($1::int[])
         union select jsonb_array_elements_text(photos) from daily_comment_versions where school_id = $2 and student_id = any($1::int[])
         union select photo_url from homework_submissions where school_id = $2 and student_id = any($1::int[]) and photo_url is not null
         union select photo_url from homework_events where school_id = $2 and student_id = any($1::int[]) and photo_url is not null
         union select photo_url from family_messages where school_id = $2 and student_id = any($1::int[]) and photo_url is not null
       ), gone as (
         delete from files f using urls where '/uploads/' || f.storage_path = urls.url returning f.storage_path
       )
       select storage_path from gone`,
      [ids, schoolId],
    );
    return rows.map((r) => r.storage_path);
  }

  /**
   * Names in the money and message records of the child's family (kept): the child's name replaced by the anonymised
   * one. The school's own ledger (top-ups, renewals) names no child and is not touched.
   */
  async renameInRecords(schoolId: number, ids: number[]): Promise<void> {
    const names = `(select id, name from students where school_id = $2 and id = any($1::int[]))`;
    await this.em.query(`set local wantuo.erasure = 'on'`);
    // only the records of the child's family: a short name (王一) is also inside another child's (王一鸣)
    const family = `(select user_id from student_guardians where school_id = $2 and student_id = s.id)`;
    const reached = `(select u.mobile from student_guardians g join users u on u.id = g.user_id where g.school_id = $2 and g.student_id = s.id
                      union select pp.mobile from pickup_people pp where pp.school_id = $2 and pp.student_id = s.id)`;
    await this.em.query(
      `with s as ${names}
       update payments p set description = replace(p.description, s.name, ${ANON}), meta = replace(p.meta::text, s.name, ${ANON})::jsonb
         from s where p.school_id = $2 and (p.created_by in ${family} or p.meta->>'student_id' = s.id::text)
          and (p.description like '%' || s.name || '%' or p.meta::text like '%' || s.name || '%')`,
      [ids, schoolId],
    );
    await this.em.query(
      `with s as ${names}
       update contract_events e set data = replace(e.data::text, s.name, ${ANON})::jsonb, reason = replace(e.reason, s.name, ${ANON})
         from s, contracts c where c.student_id = s.id and e.contract_id = c.id
          and (e.data::text like '%' || s.name || '%' or e.reason like '%' || s.name || '%')`,
      [ids, schoolId],
    );
    await this.em.query(
      `with s as ${names}
       update meal_booking_events e set data = replace(e.data::text, s.name, ${ANON})::jsonb
         from s, meal_bookings b where b.student_id = s.id and e.booking_id = b.id and e.data::text like '%' || s.name || '%'`,
      [ids, schoolId],
    );
    // receipts keep the child's name in their snapshot: the name goes, the numbers and amounts stay (append-only but
    // for the erasure); a stamp or the school's name are not about the child
    await this.em.query(
      `with s as ${names}
       update receipts r set student_name = ${ANON} from s where r.school_id = $2 and r.student_id = s.id and r.student_name <> ${ANON}`,
      [ids, schoolId],
    );
    await this.em.query(
      `with s as ${names}
       update sms_messages m set content = replace(m.content, s.name, ${ANON}), params = replace(m.params::text, s.name, ${ANON})::jsonb
         from s where m.school_id = $2 and m.mobile in ${reached}
          and (m.content like '%' || s.name || '%' or m.params::text like '%' || s.name || '%')`,
      [ids, schoolId],
    );
    await this.em.query(
      `with s as ${names}
       update wechat_messages m set data = replace(m.data::text, s.name, ${ANON})::jsonb, params = replace(m.params::text, s.name, ${ANON})::jsonb
         from s where m.school_id = $2 and m.user_id in ${family}
          and (m.data::text like '%' || s.name || '%' or m.params::text like '%' || s.name || '%')`,
      [ids, schoolId],
    );
  }

  /** The free text written about the children, blanked; their photos unlinked. The records (ids, times, states) stay. */
  async blankTexts(schoolId: number, ids: number[]): Promise<void> {
    const p = [ids, schoolId];
    const run = (sql: string) => this.em.query(sql, p);
    await this.em.query(`set local wantuo.erasure = 'on'`);
    await run(
      `update flow_events set payload = (payload - ${FLOW_TEXT_KEYS}) ||
              case when payload ? 'pickup_verified'
                   then jsonb_build_object('pickup_verified', payload->'pickup_verified' || '{"person": "", "name": "", "relation": ""}'::jsonb)
                   else '{}'::jsonb end
        where school_id = $2 and student_id = any($1::int[]) and (payload ?| ${FLOW_TEXT_KEYS} or payload ? 'pickup_verified')`,
    );
    await run(
      `update daily_reports set comment = null,
              pickup = case when pickup is null then null else pickup || '{"name": "", "relation": ""}'::jsonb end
        where school_id = $2 and student_id = any($1::int[])`,
    );
    await run(`update daily_comments set text = '', presets = '{}', photos = '[]' where school_id = $2 and student_id = any($1::int[])`);
    await run(`update daily_comment_versions set text = '', presets = '{}', photos = '[]' where school_id = $2 and student_id = any($1::int[])`);
    await run(`update student_comments set content = '' where school_id = $2 and student_id = any($1::int[])`);
    await run(`update leave_requests set reason = '', review_note = null where school_id = $2 and student_id = any($1::int[])`);
    await run(`update homework_submissions set note = null, home_note = null, photo_url = null where school_id = $2 and student_id = any($1::int[])`);
    await run(
      `update homework_events set note = null, photo_url = null
        where school_id = $2 and student_id = any($1::int[]) and (note is not null or photo_url is not null)`,
    );
    // a contract's remark is what the admin typed about the child's care: blanked (the contract, its money, stay)
    await run(`update contracts set remark = null where school_id = $2 and student_id = any($1::int[]) and remark is not null`);
    await run(`update points_ledger set reason = '' where school_id = $2 and student_id = any($1::int[]) and reason <> ''`);
    await run(`update privacy_requests set body = '' where school_id = $2 and student_id = any($1::int[])`);
    // the family conversation: every message's text and photo go, the guardians' names too; the rows (ids, times,
    // sides, retractions) stay
    await run(
      `update family_messages set body = '', photo_url = null, sender_name = case when side = 'family' then '已注销家长' else sender_name end
        where school_id = $2 and student_id = any($1::int[])`,
    );
    await run(
      `update student_guardian_changes set guardian_name = '', guardian_mobile = '', relation = '', old_relation = null
        where school_id = $2 and student_id = any($1::int[])`,
    );
    // pick-up people: their names, numbers and photos go; the row stays (flow events point at its id)
    await run(
      `update pickup_people set name = '已删除', relation = '', mobile = '', photo_url = null, deleted_at = coalesce(deleted_at, now())
        where school_id = $2 and student_id = any($1::int[])`,
    );
    await run(
      `update pickup_links l set revoked_at = coalesce(l.revoked_at, now()) from pickup_people pp
        where pp.id = l.pickup_person_id and pp.school_id = $2 and pp.student_id = any($1::int[])`,
    );
    // a pick-up attempt names the person; only the attempts that concern no other (kept) child lose the name
    await run(`update pickup_attempts set person = '' where school_id = $2 and student_ids <@ $1::int[] and person <> ''`);
    await run(`update pickup_used_codes set person = '' where school_id = $2 and student_ids <@ $1::int[] and person <> ''`);
    await run(`delete from student_guardians where school_id = $2 and student_id = any($1::int[])`);
  }

  /** The child's own row: anonymised, archived, `anonymised_at` set (the mark that it is done, once). */
  async anonymiseStudents(schoolId: number, ids: number[]): Promise<void> {
    await this.em.query(
      `update students s set name = ${ANON}, gender = null, birthday = null, day_school = null, grade = null, class_name = null,
              photo_url = null, allergies = null, notes = null, tutoring_type = null, photo_consent = null, health_consent = null,
              status = ${StudentStatus.Archived}, archived_at = coalesce(archived_at, now()), anonymised_at = now(),
              version = version + 1, updated_at = now()
        where school_id = $2 and id = any($1::int[])`,
      [ids, schoolId],
    );
  }

  /**
   * The guardians' accounts that go with the child: signed out, unbound from WeChat, their names, numbers, sign-in
   * history and messages' addresses gone. The row stays (money and receipts point at it) as 已注销家长.
   */
  async anonymiseGuardians(schoolId: number, userIds: number[]): Promise<void> {
    if (!userIds.length) return;
    const p = [userIds, schoolId];
    const run = (sql: string) => this.em.query(sql, p);
    const mobiles = `(select mobile from users where id = any($1::int[]) and school_id = $2 and mobile is not null)`;
    await run(`delete from sms_codes where mobile in ${mobiles}`);
    await run(`update sms_messages set mobile = '', content = '', params = '{}' where school_id = $2 and mobile in ${mobiles}`);
    await run(`delete from sms_outbox where mobile in ${mobiles}`);
    await run(
      `delete from wechat_followers f using wechat_bindings b
        where b.user_id = any($1::int[]) and b.school_id = $2 and f.appid = b.appid and f.openid = b.openid`,
    );
    await run(`update wechat_messages set openid = '', data = '{}', params = '{}', url = '' where school_id = $2 and user_id = any($1::int[])`);
    await run(
      `update wechat_bindings set openid = 'erased:' || id, unbound_at = coalesce(unbound_at, now()), unbound_reason = coalesce(unbound_reason, 'erased')
        where school_id = $2 and user_id = any($1::int[])`,
    );
    await run(
      `update user_tokens t set revoked_at = coalesce(t.revoked_at, now()), ip = '', user_agent = '' from users u
        where u.id = t.user_id and u.id = any($1::int[]) and u.school_id = $2`,
    );
    await run(`delete from user_activity where user_id = any($1::int[]) and school_id = $2`);
    await run(`delete from message_prefs m using users u where u.id = m.user_id and u.id = any($1::int[]) and u.school_id = $2`);
    await run(
      `update users set username = 'erased_' || id, name = '已注销家长', nickname = '', mobile = null, email = null, password_hash = null,
              avatar_url = null, remark = null, status = 0, deleted_at = coalesce(deleted_at, now()), version = version + 1, updated_at = now()
        where id = any($1::int[]) and school_id = $2 and role = ${Role.Parent}`,
    );
  }

  /** Archived students of every school that left before the cutoff and are not anonymised yet (the retention job). */
  async dueForRetention(cutoff: Date, limit: number): Promise<Array<{ school_id: number; ids: number[] }>> {
    return this.em.query(
      `select school_id, array_agg(id order by id)::int[] as ids
         from (select id, school_id from students
                where status = ${StudentStatus.Archived} and anonymised_at is null and archived_at < $1
                order by archived_at, id limit $2) d
        group by school_id order by school_id`,
      [cutoff, limit],
    );
  }

  /** Access-log rows older than the cutoff (the only delete the log's trigger allows). */
  async pruneAccessLog(cutoff: Date): Promise<number> {
    await this.em.query(`set local wantuo.retention = 'on'`);
    const [, n]: [unknown, number] = await this.em.query(`delete from child_access_log where created_at < $1`, [cutoff]);
    return n;
  }
}
