import { sql, type Expression, type JoinBuilder } from 'kysely';
import type { EntityManager } from 'typeorm';
import { kdb, type DB } from '../../core/database/kysely';

/** A sheet's rows as read: column name → value (text, number, boolean or null), times already school-local text. */
export type ExportRow = Record<string, string | number | boolean | null>;

/** A time as the school's local text (`sc` the school). */
const local = (at: Expression<Date | null>) => sql<string | null>`to_char(${at} at time zone sc.timezone, 'YYYY-MM-DD HH24:MI')`;
/** A date as its text. */
const day = (d: Expression<string | null>) => sql<string | null>`to_char(${d}, 'YYYY-MM-DD')`;
/** A bigint amount as a JS number. */
const float8 = (n: Expression<number>) => sql<number>`${n}::float8`;

/**
 * The SQL of one child's download (issue 37, `childDataExport`): one statement per kind of data, each for exactly the
 * one child (of its school), times as the school's local text. The caller has checked who may read it.
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
  async sheets(schoolId: number, studentId: number) {
    const k = kdb(this.em);
    /** the school's row, for its time zone (`local`) */
    const sc = (j: JoinBuilder<DB & { sc: DB['schools'] }, 'sc'>) => j.on('sc.id', '=', schoolId);
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
      k
        .selectFrom('students as s')
        .innerJoin('schools as sc', sc)
        .select((eb) => [
          's.name',
          eb.case('s.gender').when(1).then('男').when(2).then('女').end().as('gender'),
          day(eb.ref('s.birthday')).as('birthday'),
          's.day_school',
          's.grade',
          's.class_name',
          's.allergies',
          's.notes',
          's.needs_shuttle',
          's.needs_dinner',
          's.tutoring_type',
          eb.case('s.status').when(sql.lit(1)).then('在读').else('已离校').end().as('status'),
          's.photo_consent',
          's.health_consent',
          local(eb.ref('s.created_at')).as('created_at'),
          local(eb.ref('s.archived_at')).as('archived_at'),
        ])
        .where('s.id', '=', studentId)
        .where('s.school_id', '=', schoolId)
        .execute(),
      k
        .selectFrom('student_guardians as g')
        .innerJoin('users as u', 'u.id', 'g.user_id')
        .innerJoin('schools as sc', sc)
        .select((eb) => ['u.id as user_id', 'u.name', 'g.relation', 'u.mobile', 'g.is_primary', local(eb.ref('g.consented_at')).as('consented_at')])
        .where('g.student_id', '=', studentId)
        .where('g.school_id', '=', schoolId)
        .orderBy('g.is_primary', 'desc')
        .orderBy('u.id')
        .execute(),
      k
        .selectFrom('pickup_people as pp')
        .innerJoin('schools as sc', sc)
        .select((eb) => ['pp.name', 'pp.relation', 'pp.mobile', 'pp.photo_url', local(eb.ref('pp.created_at')).as('created_at')])
        .where('pp.student_id', '=', studentId)
        .where('pp.school_id', '=', schoolId)
        .where('pp.deleted_at', 'is', null)
        .orderBy('pp.id')
        .execute(),
      k
        .selectFrom('student_days as d')
        .innerJoin('schools as sc', sc)
        .leftJoin('pickup_people as pp', 'pp.id', 'd.left_with')
        .select((eb) => [
          day(eb.ref('d.day')).as('day'),
          'd.on_leave',
          local(eb.ref('d.picked_up_at')).as('picked_up_at'),
          local(eb.ref('d.entered_at')).as('entered_at'),
          local(eb.ref('d.dinner_at')).as('dinner_at'),
          local(eb.ref('d.tutor_started_at')).as('tutor_started_at'),
          local(eb.ref('d.tutor_ended_at')).as('tutor_ended_at'),
          local(eb.ref('d.left_at')).as('left_at'),
          'pp.name as left_with',
        ])
        .where('d.student_id', '=', studentId)
        .where('d.school_id', '=', schoolId)
        .orderBy('d.day')
        .execute(),
      k
        .selectFrom('leave_requests as l')
        .innerJoin('schools as sc', sc)
        .select((eb) => [
          day(eb.ref('l.start_day')).as('start_day'),
          day(eb.ref('l.end_day')).as('end_day'),
          'l.reason',
          eb
            .case('l.status')
            .when(sql.lit(0))
            .then('待审核')
            .when(sql.lit(1))
            .then('已批准')
            .when(sql.lit(2))
            .then('已驳回')
            .else('已撤回')
            .end()
            .as('status'),
          'l.review_note',
          local(eb.ref('l.created_at')).as('created_at'),
        ])
        .where('l.student_id', '=', studentId)
        .where('l.school_id', '=', schoolId)
        .orderBy('l.start_day')
        .orderBy('l.id')
        .execute(),
      k
        .selectFrom('daily_comments as c')
        .leftJoin('users as u', 'u.id', 'c.author_id')
        .select((eb) => [
          day(eb.ref('c.day')).as('day'),
          sql<string>`array_to_string(${eb.ref('c.presets')}, '、')`.as('presets'),
          'c.text',
          sql<number>`jsonb_array_length(${eb.ref('c.photos')})`.as('photos'),
          'u.name as author',
        ])
        .where('c.student_id', '=', studentId)
        .where('c.school_id', '=', schoolId)
        .orderBy('c.day')
        .execute(),
      k
        .selectFrom('student_comments as c')
        .leftJoin('users as u', 'u.id', 'c.author_id')
        .innerJoin('schools as sc', sc)
        .select((eb) => ['c.kind', 'c.period', 'c.content', 'u.name as author', local(eb.ref('c.created_at')).as('created_at')])
        .where('c.student_id', '=', studentId)
        .where('c.school_id', '=', schoolId)
        .orderBy('c.id')
        .execute(),
      k
        .selectFrom('homework_submissions as s')
        .innerJoin('homeworks as h', 'h.id', 's.homework_id')
        .select((eb) => [
          'h.title',
          day(eb.ref('h.set_day')).as('set_day'),
          day(eb.ref('h.due_day')).as('due_day'),
          's.state',
          's.note',
          's.home_note',
        ])
        .where('s.student_id', '=', studentId)
        .where('s.school_id', '=', schoolId)
        .orderBy('h.set_day')
        .orderBy('h.id')
        .execute(),
      k
        .selectFrom('exam_scores as x')
        .innerJoin('exams as e', 'e.id', 'x.exam_id')
        .select((eb) => [
          'e.name',
          'e.subject',
          day(eb.ref('e.exam_day')).as('exam_day'),
          'x.absent',
          // numeric: its text
          sql<string | null>`case when ${eb.ref('x.absent')} then null else ${eb.ref('x.score2')} / 2.0 end`.as('score'),
          'e.full_mark',
        ])
        .where('x.student_id', '=', studentId)
        .where('x.school_id', '=', schoolId)
        .where('e.published_at', 'is not', null)
        .orderBy('e.exam_day')
        .orderBy('e.id')
        .execute(),
      k
        .selectFrom('points_ledger as l')
        .innerJoin('schools as sc', sc)
        .select((eb) => [local(eb.ref('l.created_at')).as('at'), 'l.kind', 'l.delta', 'l.balance_after', 'l.reason'])
        .where('l.student_id', '=', studentId)
        .where('l.school_id', '=', schoolId)
        .orderBy('l.id')
        .execute(),
      k
        .selectFrom('meal_bookings as b')
        .leftJoin('meal_goods as g', 'g.id', 'b.goods_id')
        .select((eb) => [day(eb.ref('b.day')).as('day'), 'g.name as goods', float8(eb.ref('b.price_fen')).as('price_fen'), 'b.status', 'b.pay_from'])
        .where('b.student_id', '=', studentId)
        .where('b.school_id', '=', schoolId)
        .orderBy('b.day')
        .orderBy('b.id')
        .execute(),
      k
        .selectFrom('contracts as c')
        .innerJoin('schools as sc', sc)
        .select((eb) => [
          'c.no',
          'c.kind',
          day(eb.ref('c.start_day')).as('start_day'),
          day(eb.ref('c.end_day')).as('end_day'),
          'c.units_total',
          'c.units_used',
          float8(eb.ref('c.price_fen')).as('price_fen'),
          float8(eb.ref('c.paid_fen')).as('paid_fen'),
          float8(eb.ref('c.refunded_fen')).as('refunded_fen'),
          'c.status',
          local(eb.ref('c.paid_at')).as('paid_at'),
        ])
        .where('c.student_id', '=', studentId)
        .where('c.school_id', '=', schoolId)
        .orderBy('c.id')
        .execute(),
      k
        .selectFrom('receipts as r')
        .innerJoin('schools as sc', sc)
        .select((eb) => [
          'r.receipt_no',
          'r.kind',
          'r.item',
          day(eb.ref('r.period_start')).as('period_start'),
          day(eb.ref('r.period_end')).as('period_end'),
          float8(eb.ref('r.amount_fen')).as('amount_fen'),
          'r.method',
          'r.txn_no',
          local(eb.ref('r.paid_at')).as('paid_at'),
          local(eb.ref('r.issued_at')).as('issued_at'),
        ])
        .where('r.student_id', '=', studentId)
        .where('r.school_id', '=', schoolId)
        .orderBy('r.issued_at')
        .orderBy('r.id')
        .execute(),
      k
        .selectFrom('family_messages as m')
        .innerJoin('schools as sc', sc)
        .select((eb) => [
          local(eb.ref('m.sent_at')).as('at'),
          'm.side',
          'm.sender_name',
          'm.body',
          eb('m.photo_url', 'is not', null).as('photo'),
          'm.urgent',
          local(eb.ref('m.retracted_at')).as('retracted_at'),
        ])
        .where('m.student_id', '=', studentId)
        .where('m.school_id', '=', schoolId)
        .orderBy('m.id')
        .execute(),
      k
        .selectFrom('privacy_consents as c')
        .leftJoin('users as u', 'u.id', 'c.user_id')
        .innerJoin('schools as sc', sc)
        .select((eb) => [
          local(eb.ref('c.created_at')).as('at'),
          'u.name as guardian',
          'c.kind',
          'c.granted',
          'c.privacy_version',
          'c.children_version',
        ])
        .where('c.student_id', '=', studentId)
        .where('c.school_id', '=', schoolId)
        .orderBy('c.id')
        .execute(),
      k
        .selectFrom('child_access_log as a')
        .leftJoin('users as u', 'u.id', 'a.actor_id')
        .innerJoin('schools as sc', sc)
        .select((eb) => [
          local(eb.ref('a.created_at')).as('at'),
          'u.name as actor',
          'a.actor_role',
          sql<string>`array_to_string(${eb.ref('a.what')}, ',')`.as('what'),
          'a.action',
        ])
        .where('a.school_id', '=', schoolId)
        .where('a.student_ids', '@>', sql<number[]>`array[${studentId}::int]`)
        .orderBy('a.created_at')
        .orderBy('a.id')
        .execute(),
    ]);
    const sheets = {
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
    return sheets satisfies Record<ExportSheet, ExportRow[]>;
  }

  /** The storage paths of the child's photos that are on file (profile, pick-up people, comments, homework). */
  async photoPaths(schoolId: number, studentId: number) {
    const kind = (k: PhotoKind) => sql.lit(k).$castTo<PhotoKind>().as('kind');
    return kdb(this.em)
      .with('urls', (db) =>
        db
          .selectFrom('students')
          .select((eb) => [eb.ref('photo_url').$notNull().as('url'), kind('profile')])
          .where('id', '=', studentId)
          .where('school_id', '=', schoolId)
          .where('photo_url', 'is not', null)
          .union(
            db
              .selectFrom('pickup_people')
              .select((eb) => [eb.ref('photo_url').$notNull().as('url'), kind('pickup')])
              .where('student_id', '=', studentId)
              .where('school_id', '=', schoolId)
              .where('deleted_at', 'is', null)
              .where('photo_url', 'is not', null),
          )
          .union(
            db
              .selectFrom('daily_comments')
              .select([sql<string>`jsonb_array_elements_text(photos)`.as('url'), kind('comments')])
              .where('student_id', '=', studentId)
              .where('school_id', '=', schoolId),
          )
          .union(
            db
              .selectFrom('homework_submissions')
              .select((eb) => [eb.ref('photo_url').$notNull().as('url'), kind('homework')])
              .where('student_id', '=', studentId)
              .where('school_id', '=', schoolId)
              .where('photo_url', 'is not', null),
          )
          .union(
            db
              .selectFrom('family_messages')
              .select((eb) => [eb.ref('photo_url').$notNull().as('url'), kind('messages')])
              .where('student_id', '=', studentId)
              .where('school_id', '=', schoolId)
              .where('photo_url', 'is not', null),
          ),
      )
      .selectFrom('urls as u')
      .innerJoin('files as f', (j) => j.on((eb) => eb(sql<string>`'/uploads/' || ${eb.ref('f.storage_path')}`, '=', eb.ref('u.url'))))
      .select(['f.storage_path', 'u.kind'])
      .distinct()
      .orderBy('u.kind')
      .orderBy('f.storage_path')
      .execute();
  }
}

/** The folders of the photos in the download. */
type PhotoKind = 'profile' | 'pickup' | 'comments' | 'homework' | 'messages';

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
