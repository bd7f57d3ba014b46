import { sql } from 'kysely';
import type { EntityManager } from 'typeorm';
import { kdb } from '../../core/database/kysely';

/** A sheet's rows as read: column name → value (text, number, boolean or null), times already school-local text. */
export type ExportRow = Record<string, string | number | boolean | null>;

const LOCAL = (col: string) => `to_char(${col} at time zone sc.timezone, 'YYYY-MM-DD HH24:MI')`;

/**
 * The SQL of one child's download (issue 37, `childDataExport`): one statement per kind of data, each for exactly the
 * one child (`$1` its id, `$2` its school), times as the school's local text. The caller has checked who may read it.
 */
export class ChildExportRepository {
  constructor(private readonly em: EntityManager) {}

  /** The child's own row (not anonymised), the school's time zone and its name. */
  async child(schoolId: number, studentId: number) {
    const row = await kdb(this.em)
      .selectFrom('students as s')
      .innerJoin('schools as sc', 'sc.id', 's.school_id')
      .select(['s.id', 's.school_id', 'sc.timezone', 'sc.name as school_name', 's.name', 's.photo_url'])
      .where('s.id', '=', studentId)
      .where('s.school_id', '=', schoolId)
      .where('s.anonymised_at', 'is', null)
      .executeTakeFirst();
    return row ?? null;
  }

  /** Whether the user is a guardian of the child (a guardian downloads their own child only). */
  async isGuardian(schoolId: number, studentId: number, userId: number): Promise<boolean> {
    const r = await kdb(this.em)
      .selectFrom('student_guardians')
      .select(sql.lit(1).as('one'))
      .where('school_id', '=', schoolId)
      .where('student_id', '=', studentId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return r !== undefined;
  }

  /** Every kind of data, keyed by sheet; `guardians` carries `user_id` so the caller can mask other people's numbers. */
  async sheets(schoolId: number, studentId: number): Promise<Record<ExportSheet, ExportRow[]>> {
    const p = [studentId, schoolId];
    const q = (sql: string): Promise<ExportRow[]> => this.em.query(sql, p);
    const sc = `join schools sc on sc.id = $2`;
    const [
      profile,
      guardians,
      pickup,
      days,
      leave,
      comments,
      growth,
      homework,
      exams,
      points,
      meals,
      contracts,
      receipts,
      messages,
      consents,
      access,
    ] = await Promise.all([
      q(`select s.name, case s.gender when 1 then '男' when 2 then '女' end as gender, to_char(s.birthday, 'YYYY-MM-DD') as birthday,
                s.day_school, s.grade, s.class_name, s.allergies, s.notes, s.needs_shuttle, s.needs_dinner, s.tutoring_type,
                case s.status when 1 then '在读' else '已离校' end as status, s.photo_consent, s.health_consent,
                ${LOCAL('s.created_at')} as created_at, ${LOCAL('s.archived_at')} as archived_at
           from students s ${sc} where s.id = $1 and s.school_id = $2`),
      q(`select u.id as user_id, u.name, g.relation, u.mobile, g.is_primary, ${LOCAL('g.consented_at')} as consented_at
           from student_guardians g join users u on u.id = g.user_id ${sc} where g.student_id = $1 and g.school_id = $2 order by g.is_primary desc, u.id`),
      q(`select pp.name, pp.relation, pp.mobile, pp.photo_url, ${LOCAL('pp.created_at')} as created_at
           from pickup_people pp ${sc} where pp.student_id = $1 and pp.school_id = $2 and pp.deleted_at is null order by pp.id`),
      q(`select to_char(d.day, 'YYYY-MM-DD') as day, d.on_leave, ${LOCAL('d.picked_up_at')} as picked_up_at, ${LOCAL('d.entered_at')} as entered_at,
                ${LOCAL('d.dinner_at')} as dinner_at, ${LOCAL('d.tutor_started_at')} as tutor_started_at,
                ${LOCAL('d.tutor_ended_at')} as tutor_ended_at, ${LOCAL('d.left_at')} as left_at, pp.name as left_with
           from student_days d ${sc} left join pickup_people pp on pp.id = d.left_with
          where d.student_id = $1 and d.school_id = $2 order by d.day`),
      q(`select to_char(l.start_day, 'YYYY-MM-DD') as start_day, to_char(l.end_day, 'YYYY-MM-DD') as end_day, l.reason,
                case l.status when 0 then '待审核' when 1 then '已批准' when 2 then '已驳回' else '已撤回' end as status, l.review_note,
                ${LOCAL('l.created_at')} as created_at
           from leave_requests l ${sc} where l.student_id = $1 and l.school_id = $2 order by l.start_day, l.id`),
      q(`select to_char(c.day, 'YYYY-MM-DD') as day, array_to_string(c.presets, '、') as presets, c.text,
                jsonb_array_length(c.photos) as photos, u.name as author
           from daily_comments c left join users u on u.id = c.author_id where c.student_id = $1 and c.school_id = $2 order by c.day`),
      q(`select c.kind, c.period, c.content, u.name as author, ${LOCAL('c.created_at')} as created_at
           from student_comments c left join users u on u.id = c.author_id ${sc} where c.student_id = $1 and c.school_id = $2 order by c.id`),
      q(`select h.title, to_char(h.set_day, 'YYYY-MM-DD') as set_day, to_char(h.due_day, 'YYYY-MM-DD') as due_day, s.state, s.note, s.home_note
           from homework_submissions s join homeworks h on h.id = s.homework_id
          where s.student_id = $1 and s.school_id = $2 order by h.set_day, h.id`),
      q(`select e.name, e.subject, to_char(e.exam_day, 'YYYY-MM-DD') as exam_day, x.absent,
                case when x.absent then null else x.score2 / 2.0 end as score, e.full_mark
           from exam_scores x join exams e on e.id = x.exam_id
          where x.student_id = $1 and x.school_id = $2 and e.published_at is not null order by e.exam_day, e.id`),
      q(`select ${LOCAL('l.created_at')} as at, l.kind, l.delta, l.balance_after, l.reason
           from points_ledger l ${sc} where l.student_id = $1 and l.school_id = $2 order by l.id`),
      q(`select to_char(b.day, 'YYYY-MM-DD') as day, g.name as goods, b.price_fen::float8 as price_fen, b.status, b.pay_from
           from meal_bookings b left join meal_goods g on g.id = b.goods_id
          where b.student_id = $1 and b.school_id = $2 order by b.day, b.id`),
      q(`select c.no, c.kind, to_char(c.start_day, 'YYYY-MM-DD') as start_day, to_char(c.end_day, 'YYYY-MM-DD') as end_day,
                c.units_total, c.units_used, c.price_fen::float8 as price_fen, c.paid_fen::float8 as paid_fen,
                c.refunded_fen::float8 as refunded_fen, c.status, ${LOCAL('c.paid_at')} as paid_at
           from contracts c ${sc} where c.student_id = $1 and c.school_id = $2 order by c.id`),
      q(`select r.receipt_no, r.kind, r.item, to_char(r.period_start, 'YYYY-MM-DD') as period_start, to_char(r.period_end, 'YYYY-MM-DD') as period_end,
                r.amount_fen::float8 as amount_fen, r.method, r.txn_no, ${LOCAL('r.paid_at')} as paid_at, ${LOCAL('r.issued_at')} as issued_at
           from receipts r ${sc} where r.student_id = $1 and r.school_id = $2 order by r.issued_at, r.id`),
      q(`select ${LOCAL('m.sent_at')} as at, m.side, m.sender_name, m.body, (m.photo_url is not null) as photo, m.urgent,
                ${LOCAL('m.retracted_at')} as retracted_at
           from family_messages m ${sc} where m.student_id = $1 and m.school_id = $2 order by m.id`),
      q(`select ${LOCAL('c.created_at')} as at, u.name as guardian, c.kind, c.granted, c.privacy_version, c.children_version
           from privacy_consents c left join users u on u.id = c.user_id ${sc} where c.student_id = $1 and c.school_id = $2 order by c.id`),
      q(`select ${LOCAL('a.created_at')} as at, u.name as actor, a.actor_role, array_to_string(a.what, ',') as what, a.action
           from child_access_log a left join users u on u.id = a.actor_id ${sc}
          where a.school_id = $2 and a.student_ids @> array[$1::int] order by a.created_at, a.id`),
    ]);
    return {
      profile,
      guardians,
      pickup,
      days,
      leave,
      comments,
      growth,
      homework,
      exams,
      points,
      meals,
      contracts,
      receipts,
      messages,
      consents,
      access,
    };
  }

  /** The storage paths of the child's photos that are on file (profile, pick-up people, comments, homework). */
  async photoPaths(schoolId: number, studentId: number): Promise<Array<{ storage_path: string; kind: string }>> {
    return this.em.query(
      `with urls as (
         select photo_url as url, 'profile' as kind from students where id = $1 and school_id = $2 and photo_url is not null
         union select photo_url, 'pickup' from pickup_people where student_id = $1 and school_id = $2 and deleted_at is null and photo_url is not null
         union select jsonb_array_elements_text(photos), 'comments' from daily_comments where student_id = $1 and school_id = $2
         union select photo_url, 'homework' from homework_submissions where student_id = $1 and school_id = $2 and photo_url is not null
         union select photo_url, 'messages' from family_messages where student_id = $1 and school_id = $2 and photo_url is not null
       )
       select distinct f.storage_path, u.kind from urls u join files f on '/uploads/' || f.storage_path = u.url order by u.kind, f.storage_path`,
      [studentId, schoolId],
    );
  }
}

export const EXPORT_SHEETS = [
  'profile',
  'guardians',
  'pickup',
  'days',
  'leave',
  'comments',
  'growth',
  'homework',
  'exams',
  'points',
  'meals',
  'contracts',
  'receipts',
  'messages',
  'consents',
  'access',
] as const;
export type ExportSheet = (typeof EXPORT_SHEETS)[number];
