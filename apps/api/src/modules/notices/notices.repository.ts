import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Role, StudentStatus, type NoticeAttachment, type NoticeAudience, type NoticeScope, type Page } from '@wantuo/shared';
import { sql, type Expression, type ExpressionBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { DataSource } from 'typeorm';
import { kdb, type DB } from '../../core/database/kysely';
import { containsPattern, offsetOf, pageOf, type PageQuery, type Queryable } from '../../core/database/sql-kit';

const one = sql.lit(1).as('one');

type N = DB & { n: DB['notices']; au: DB['users'] };

/** The columns of a notice in a list (`n` the notice, `au` its author); `readCount` in place of n.read_count. */
const noticeColumns = (eb: ExpressionBuilder<N, 'n' | 'au'>, readCount?: Expression<number>) =>
  [
    'n.id',
    'n.title',
    'n.summary',
    'n.scope',
    'n.class_ids',
    eb.fn
      .coalesce(
        eb
          .selectFrom('care_classes as c')
          .select((x) => sql<string[]>`array_agg(${x.ref('c.name')} order by ${x.ref('c.name')})`.as('names'))
          .where('c.id', '=', sql<number>`any(${eb.ref('n.class_ids')})`)
          .$asScalar(),
        sql<string[]>`'{}'`,
      )
      .as('class_names'),
    'n.audience',
    'n.important',
    'n.author_id',
    'au.name as author_name',
    sql<number>`jsonb_array_length(${eb.ref('n.attachments')})::int`.as('attachments'),
    'n.recipients',
    sql<number>`${readCount ?? eb.ref('n.read_count')}`.as('read_count'),
    'n.sms_count',
    'n.sms_at',
    'n.last_reminded_at',
    'n.created_at',
  ] as const;

/** NOTICE_COLUMNS with the content and the attachments. */
const detailColumns = (eb: ExpressionBuilder<N, 'n' | 'au'>, readCount?: Expression<number>) =>
  [...noticeColumns(eb, readCount), 'n.content', 'n.attachments as attachment_list'] as const;

/**
 * Whether notice `n` of school `school` went to a class user `user` heads, or to the whole school while they head a
 * class: the notices a head teacher follows for their class, whoever sent them.
 */
function toMyClasses(eb: ExpressionBuilder<N, 'n'>, school: number, user: number): Expression<SqlBool> {
  return eb.exists(
    eb
      .selectFrom('care_classes as cc')
      .select(one)
      .where('cc.school_id', '=', school)
      .where('cc.head_teacher_id', '=', user)
      .where('cc.deleted_at', 'is', null)
      .where((x) => x.or([x('n.scope', '=', 'school'), x('cc.id', '=', sql<number>`any(${x.ref('n.class_ids')})`)])),
  );
}

/**
 * A page in one statement with the head's other counts: the one-row `head` (selecting `total` and more) and, joined
 * laterally, the page of `list` (as pageRows, which answers the total only).
 */
async function pageWith<H extends { total: number }, R>(
  on: Queryable,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  head: SelectQueryBuilder<any, any, H>,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  list: SelectQueryBuilder<any, any, R>,
  q: PageQuery,
): Promise<{ head: H | undefined; page: Page<R> }> {
  const paged = list.select(sql.lit(1).as('paged_row')).limit(q.limit).offset(offsetOf(q));
  const rows = (await kdb(on)
    .selectFrom(head.as('page_head'))
    .leftJoinLateral(paged.as('page_rows'), (j) => j.onTrue())
    .selectAll()
    .execute()) as unknown as Array<R & H & { paged_row: 1 | null }>;
  const first = rows[0];
  const items = rows.filter((r) => r.paged_row !== null).map((r) => r as unknown as R);
  return { head: first, page: pageOf(items, Number(first?.total ?? 0), q) };
}

/** Which notices a staff list shows: sent by the caller, to the classes they head, received, or (the admin) all. */
export type NoticeBox = 'sent' | 'class' | 'received' | 'all';

/** The SQL of the notices module (issue 38): notices, their receipts and reminders, typed by the schema. */
@Injectable()
export class NoticesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** A page of the school's notices in `box`, newest first, by class, keyword, importance, with when the caller read each. */
  async list(
    schoolId: number,
    me: number,
    box: NoticeBox,
    q: PageQuery & { class_id?: number | null; keyword?: string | null; important?: boolean | null },
  ) {
    const keyword = containsPattern(q.keyword);
    const base = (on: Queryable) =>
      kdb(on)
        .selectFrom('notices as n')
        .leftJoin('notice_receipts as me', (j) => j.onRef('me.notice_id', '=', 'n.id').on('me.user_id', '=', me))
        .where('n.school_id', '=', schoolId)
        .where((eb) =>
          box === 'sent'
            ? eb('n.author_id', '=', me)
            : box === 'class'
              ? toMyClasses(eb, schoolId, me)
              : box === 'received'
                ? eb('me.user_id', 'is not', null)
                : eb.lit(true),
        )
        .$if(q.class_id !== undefined && q.class_id !== null, (b) => b.where(sql<SqlBool>`${q.class_id} = any(n.class_ids)`))
        .$if(keyword !== null, (b) => b.where('n.title', 'like', keyword!))
        .$if(q.important !== undefined && q.important !== null, (b) => b.where('n.important', '=', q.important!));
    const total = base(this.db).select((eb) => eb.cast<number>(eb.fn.countAll(), 'integer').as('total'));
    const list = base(this.db)
      .innerJoin('users as au', 'au.id', 'n.author_id')
      .select((eb) => [...noticeColumns(eb), 'me.read_at'])
      .orderBy('n.id', 'desc');
    return (await pageWith(this.db, total, list, q)).page;
  }

  /** A guardian's notices (`unread`: only those not read yet), newest first, with the unread count of all. */
  async parentList(me: number, unreadOnly: boolean, q: PageQuery) {
    const f = (on: Queryable) =>
      kdb(on)
        .selectFrom('notice_receipts as r')
        .where('r.user_id', '=', me)
        .$if(unreadOnly, (b) => b.where('r.read_at', 'is', null));
    const head = kdb(this.db).selectNoFrom((eb) => [
      f(this.db)
        .select((x) => x.cast<number>(x.fn.countAll(), 'integer').as('total'))
        .$asScalar()
        .as('total'),
      eb
        .selectFrom('notice_receipts as r')
        .select((x) => x.cast<number>(x.fn.countAll(), 'integer').as('unread'))
        .where('r.user_id', '=', me)
        .where('r.read_at', 'is', null)
        .$asScalar()
        .as('unread'),
    ]);
    const list = f(this.db)
      .innerJoin('notices as n', 'n.id', 'r.notice_id')
      .innerJoin('users as au', 'au.id', 'n.author_id')
      .select((eb) => [...noticeColumns(eb), 'r.read_at'])
      .orderBy('r.notice_id', 'desc');
    const { head: h, page } = await pageWith(this.db, head, list, q);
    return { ...page, unread: h?.unread ?? 0 };
  }

  /**
   * A recipient opens a notice: the first time marks it read (the receipt's read_at, the notice's read count, in one
   * statement that locks the receipt first: a concurrent first read is waited for and its read_at seen, not this
   * statement's snapshot). Undefined: not a recipient, or another school's.
   */
  open(schoolId: number, id: number, me: number, now: Date) {
    return kdb(this.db)
      .with('old', (db) => db.selectFrom('notice_receipts').select('read_at').where('notice_id', '=', id).where('user_id', '=', me).forUpdate())
      .with('r', (db) =>
        db
          .updateTable('notice_receipts')
          .set({ read_at: now })
          .where('notice_id', '=', id)
          .where('user_id', '=', me)
          .where('read_at', 'is', null)
          .where((eb) => eb.exists(eb.selectFrom('old').select(one).where('old.read_at', 'is', null)))
          .returning('read_at'),
      )
      .with('c', (db) =>
        db
          .updateTable('notices')
          .set((eb) => ({ read_count: eb('read_count', '+', 1) }))
          .where('id', '=', id)
          .where((eb) => eb.exists(eb.selectFrom('r').select(one)))
          .returning('read_count'),
      )
      .selectFrom('notices as n')
      .innerJoin('notice_receipts as me', (j) => j.onRef('me.notice_id', '=', 'n.id').on('me.user_id', '=', me))
      .innerJoin('users as au', 'au.id', 'n.author_id')
      .select((eb) => [
        ...detailColumns(eb, eb.fn.coalesce(eb.selectFrom('c').select('c.read_count').$asScalar(), eb.ref('n.read_count'))),
        eb.fn.coalesce(eb.selectFrom('old').select('old.read_at').$asScalar(), eb.selectFrom('r').select('r.read_at').$asScalar()).as('read_at'),
      ])
      .where('n.id', '=', id)
      .where('n.school_id', '=', schoolId)
      .executeTakeFirst();
  }

  /**
   * A notice of the school the caller may read the receipts of: the author's, any for the admin, or (a head teacher)
   * one sent to a class they head or to the school; `own`: the author's or the admin's.
   */
  notice(schoolId: number, id: number, me: number, isAdmin: boolean, headTeacher: boolean) {
    return kdb(this.db)
      .selectFrom('notices as n')
      .innerJoin('users as au', 'au.id', 'n.author_id')
      .select((eb) => [...detailColumns(eb), eb.or([eb.lit(isAdmin), eb('n.author_id', '=', me)]).as('own')])
      .where('n.id', '=', id)
      .where('n.school_id', '=', schoolId)
      .where((eb) => eb.or([eb.lit(isAdmin), eb('n.author_id', '=', me), eb.and([eb.lit(headTeacher), toMyClasses(eb, schoolId, me)])]))
      .executeTakeFirst();
  }

  /**
   * A page of a notice's receipts (`read` filters), read first (newest), then unread by name, with the unread count of
   * those visible: all (`classesOf` null: the author, the admin), or those of the guardians of children in the
   * classes the head teacher `classesOf` heads that the notice reached. Guardians show the children it reached.
   */
  async receipts(
    v: { schoolId: number; noticeId: number; scope: NoticeScope; classIds: number[]; classesOf: number | null; read: boolean | null },
    q: PageQuery,
  ) {
    // the children of guardian `user` the notice reached: in its classes, or the school's (active students)
    const reached = (eb: ExpressionBuilder<DB & { s: DB['students'] }, 's'>) =>
      v.scope === 'school'
        ? eb.lit(true)
        : eb.exists(
            eb
              .selectFrom('care_class_students as cs')
              .select(one)
              .whereRef('cs.student_id', '=', 's.id')
              .where('cs.class_id', '=', sql<number>`any(${v.classIds}::int[])`),
          );
    const k = kdb(this.db);
    const query = k
      .with('v', (db) =>
        db
          .selectFrom('notice_receipts as r')
          .select(['r.user_id', 'r.kind', 'r.read_at'])
          .where('r.notice_id', '=', v.noticeId)
          .$if(v.classesOf !== null, (b) =>
            b.where('r.kind', '=', 'guardian').where((eb) =>
              eb.exists(
                eb
                  .selectFrom('student_guardians as g')
                  .innerJoin('students as s', (j) => j.onRef('s.id', '=', 'g.student_id').on('s.status', '=', StudentStatus.Active))
                  .innerJoin('care_class_students as cs', 'cs.student_id', 's.id')
                  .innerJoin('care_classes as cc', (j) =>
                    j.onRef('cc.id', '=', 'cs.class_id').on('cc.head_teacher_id', '=', v.classesOf!).on('cc.deleted_at', 'is', null),
                  )
                  .select(one)
                  .whereRef('g.user_id', '=', 'r.user_id')
                  .where('g.school_id', '=', v.schoolId)
                  .$if(v.scope !== 'school', (x) => x.where('cc.id', '=', sql<number>`any(${v.classIds}::int[])`)),
              ),
            ),
          ),
      )
      .with('f', (db) =>
        db
          .selectFrom('v')
          .innerJoin('users as u', 'u.id', 'v.user_id')
          .select(['v.user_id', 'v.kind', 'v.read_at', 'u.name'])
          .$if(v.read !== null, (b) => b.where(sql<SqlBool>`(v.read_at is not null) = ${v.read}`)),
      );
    const rows = await query
      .selectFrom((eb) =>
        eb
          .selectFrom('v')
          .select((x) => [
            x
              .selectFrom('f')
              .select((y) => y.cast<number>(y.fn.countAll(), 'integer').as('total'))
              .$asScalar()
              .as('total'),
            x.cast<number>(x.fn.countAll().filterWhere('v.read_at', 'is', null), 'integer').as('unread_here'),
          ])
          .as('t'),
      )
      .leftJoinLateral(
        (eb) =>
          eb
            .selectFrom('f')
            .select((x) => [
              'f.user_id',
              'f.name',
              'f.kind',
              'f.read_at',
              x
                .case()
                .when('f.kind', '=', 'guardian')
                .then(
                  x
                    .selectFrom('student_guardians as g')
                    .innerJoin('students as s', (j) => j.onRef('s.id', '=', 'g.student_id').on('s.status', '=', StudentStatus.Active))
                    .select((y) => sql<string | null>`string_agg(${y.ref('s.name')}, '、' order by ${y.ref('s.name')})`.as('names'))
                    .whereRef('g.user_id', '=', 'f.user_id')
                    .where('g.school_id', '=', v.schoolId)
                    .where(reached)
                    .$asScalar(),
                )
                .end()
                .as('child_names'),
            ])
            .orderBy('f.read_at', (o) => o.desc().nullsLast())
            .orderBy('f.name')
            .orderBy('f.user_id')
            .limit(q.limit)
            .offset(offsetOf(q))
            .as('p'),
        (j) => j.onTrue(),
      )
      .select(['p.user_id', 'p.name', 'p.kind', 'p.read_at', 'p.child_names', 't.total', 't.unread_here'])
      .execute();
    const list = rows
      .filter((r) => r.user_id !== null)
      .map((r) => ({ user_id: r.user_id!, name: r.name!, kind: r.kind!, read_at: r.read_at, child_names: r.child_names }));
    return { unreadHere: rows[0]?.unread_here ?? 0, page: pageOf(list, Number(rows[0]?.total ?? 0), q) };
  }

  // ---------------------------------------------------------------- publishing

  /**
   * The school's time zone and name, the classes of `classIds` the caller may publish to (live, open; the admin any of
   * the school, else own: headed or on duty in) and the school's files of `fileIds` as attachments (in their order).
   */
  publishChecks(schoolId: number, me: number, isAdmin: boolean, classIds: number[], fileIds: string[]) {
    return kdb(this.db)
      .selectFrom('schools as s')
      .select((eb) => [
        's.timezone',
        's.name as school',
        eb.fn
          .coalesce(
            eb
              .selectFrom('care_classes as cc')
              .select((x) => sql<number[]>`array_agg(${x.ref('cc.id')})`.as('ids'))
              .whereRef('cc.school_id', '=', 's.id')
              .where('cc.id', '=', sql<number>`any(${classIds}::int[])`)
              .where('cc.deleted_at', 'is', null)
              .where('cc.status', '=', 1)
              .where((x) =>
                x.or([
                  x.lit(isAdmin),
                  x('cc.head_teacher_id', '=', me),
                  x.exists(x.selectFrom('duty_assignments as d').select(one).whereRef('d.class_id', '=', 'cc.id').where('d.teacher_id', '=', me)),
                ]),
              )
              .$asScalar(),
            sql<number[]>`'{}'`,
          )
          .as('classes'),
        eb.fn
          .coalesce(
            eb
              .selectFrom('files as f')
              .select((x) =>
                sql<
                  NoticeAttachment[]
                >`json_agg(json_build_object('id', ${x.ref('f.id')}, 'name', ${x.ref('f.name')}, 'url', '/uploads/' || ${x.ref('f.storage_path')}, 'mime', ${x.ref('f.mime')}, 'size', ${x.ref('f.size')})
                  order by array_position(${fileIds}::uuid[], ${x.ref('f.id')}))`.as('files'),
              )
              .where('f.id', '=', sql<string>`any(${fileIds}::uuid[])`)
              .whereRef('f.school_id', '=', 's.id')
              .$asScalar(),
            sql<NoticeAttachment[]>`'[]'`,
          )
          .as('files'),
      ])
      .where('s.id', '=', schoolId)
      .executeTakeFirst();
  }

  /**
   * Publishes in one statement: the recipients, the notice (only when there is one, and only once per request key: a
   * repeat or a concurrent twin inserts nothing), its receipts, and, when it is important, whom to tell: the guardians
   * (parents) by user id, for GuardianMessages (WeChat, else SMS), and the staff's distinct mobiles, to text. sms_count
   * counts the staff's texts here; the service adds the guardians told. `id` null: nothing was inserted.
   *
   * The recipients (`c`: user_id, kind): guardians of the active students of the classes (or of the school), one row per
   * guardian however many children; staff: the on-job teachers and head teachers of the classes (head teacher or a
   * duty there), or of the school; never the author.
   */
  async publish(
    on: Queryable,
    v: {
      schoolId: number;
      scope: NoticeScope;
      classIds: number[];
      audience: NoticeAudience;
      authorId: number;
      title: string;
      content: string;
      summary: string;
      attachments: NoticeAttachment[];
      important: boolean;
      smsAt: Date;
      requestKey: string;
      now: Date;
    },
  ) {
    const { rows } = await sql<{
      id: number | null;
      recipients: number;
      sms_count: number;
      sms_at: Date | null;
      mobiles: string[];
      guardians: number[];
      candidates: number;
    }>`with c as (
        select distinct sg.user_id, 'guardian' as kind
          from student_guardians sg
          join students s on s.id = sg.student_id and s.status = ${StudentStatus.Active}
          join users u on u.id = sg.user_id and u.deleted_at is null and u.status = 1
         where sg.school_id = ${v.schoolId}::int and ${v.audience}::text in ('guardians', 'all') and sg.user_id <> ${v.authorId}::int
           and (${v.scope}::text = 'school' or exists (select 1 from care_class_students cs where cs.student_id = s.id and cs.class_id = any(${v.classIds}::int[])))
        union
        select u.id, 'staff'
          from users u
         where u.school_id = ${v.schoolId}::int and ${v.audience}::text in ('staff', 'all') and u.role in (${Role.Teacher}::int, ${Role.HeadTeacher}::int)
           and u.deleted_at is null and u.status = 1 and u.job_status = 1 and u.id <> ${v.authorId}::int
           and (${v.scope}::text = 'school'
                or exists (select 1 from care_classes cc where cc.id = any(${v.classIds}::int[]) and cc.head_teacher_id = u.id)
                or exists (select 1 from duty_assignments d where d.class_id = any(${v.classIds}::int[]) and d.teacher_id = u.id))
      ),
      g as (select distinct c.user_id from c join users u on u.id = c.user_id where ${v.important}::boolean and u.role = ${Role.Parent}::int),
      m as (select distinct u.mobile from c join users u on u.id = c.user_id
             where ${v.important}::boolean and u.role <> ${Role.Parent}::int and u.mobile is not null and u.mobile <> ''),
      n as (
        insert into notices (school_id, author_id, title, content, summary, attachments, scope, class_ids, audience, important,
                             recipients, sms_count, sms_at, request_key, created_at)
        select ${v.schoolId}::int, ${v.authorId}::int, ${v.title}::text, ${v.content}::text, ${v.summary}::text, ${JSON.stringify(v.attachments)}::jsonb,
               ${v.scope}::text, ${v.classIds}::int[], ${v.audience}::text, ${v.important}::boolean, (select count(*) from c), (select count(*) from m),
               case when ${v.important}::boolean then ${v.smsAt}::timestamptz end, ${v.requestKey}::text, ${v.now}::timestamptz
         where exists (select 1 from c)
        on conflict (school_id, request_key) do nothing
        returning id, recipients, sms_count, sms_at
      ),
      r as (insert into notice_receipts (notice_id, user_id, kind) select n.id, c.user_id, c.kind from n cross join c)
      select n.id, n.recipients, n.sms_count, n.sms_at,
             case when n.id is null then '{}' else coalesce((select array_agg(mobile) from m), '{}') end as mobiles,
             case when n.id is null then '{}' else coalesce((select array_agg(user_id order by user_id) from g), '{}') end as guardians,
             (select count(*)::int from c) as candidates
        from (select 1) one left join n on true`.execute(kdb(on));
    return rows[0];
  }

  /** The notice a request key published (a repeat of the request, or its concurrent twin). */
  byRequestKey(on: Queryable, schoolId: number, key: string) {
    return kdb(on)
      .selectFrom('notices')
      .select(['id', 'author_id', 'title', 'recipients', 'sms_count', 'sms_at'])
      .where('school_id', '=', schoolId)
      .where('request_key', '=', key)
      .executeTakeFirst();
  }

  async setSmsCount(on: Queryable, id: number, smsCount: number): Promise<void> {
    await kdb(on).updateTable('notices').set({ sms_count: smsCount }).where('id', '=', id).execute();
  }

  // ---------------------------------------------------------------- reminding

  /**
   * Takes the notice for a reminder (last_reminded_at = now) when it is the caller's (the admin: any of the school),
   * has unread recipients and its last reminder is `intervalSecs` old or more; with the school's name and time zone.
   */
  takeForReminder(on: Queryable, v: { id: number; schoolId: number; me: number; isAdmin: boolean; now: Date; intervalSecs: number }) {
    return kdb(on)
      .with('n', (db) =>
        db
          .updateTable('notices as n')
          .set({ last_reminded_at: v.now })
          .where('n.id', '=', v.id)
          .where('n.school_id', '=', v.schoolId)
          .where((eb) => eb.or([eb.lit(v.isAdmin), eb('n.author_id', '=', v.me)]))
          .whereRef('n.recipients', '>', 'n.read_count')
          .where((eb) =>
            eb.or([
              eb('n.last_reminded_at', 'is', null),
              eb('n.last_reminded_at', '<=', sql<Date>`${v.now}::timestamptz - make_interval(secs => ${v.intervalSecs})`),
            ]),
          )
          .returning(['n.id', 'n.title', 'n.school_id']),
      )
      .selectFrom('n')
      .innerJoin('schools as s', 's.id', 'n.school_id')
      .select(['n.id', 'n.title', 's.name as school', 's.timezone'])
      .executeTakeFirst();
  }

  /** The notice's unread count and last reminder (the caller's; the admin: any of the school), read after a refusal. */
  reminderState(on: Queryable, v: { id: number; schoolId: number; me: number; isAdmin: boolean }) {
    return kdb(on)
      .selectFrom('notices as n')
      .select((eb) => [eb('n.recipients', '-', eb.ref('n.read_count')).as('unread'), 'n.last_reminded_at'])
      .where('n.id', '=', v.id)
      .where('n.school_id', '=', v.schoolId)
      .where((eb) => eb.or([eb.lit(v.isAdmin), eb('n.author_id', '=', v.me)]))
      .executeTakeFirst();
  }

  /**
   * Reminds in one statement, after the notice's row was taken: appends the reminder and answers its unread recipients:
   * the guardians (parents) by user id, for GuardianMessages, and the others' distinct mobiles, to text. The reminder's
   * `texts` counts the staff's texts here; the service adds the guardians told.
   */
  async remind(on: Queryable, noticeId: number, actorId: number, smsAt: Date) {
    const { rows } = await sql<{ reminder_id: number; unread: number; mobiles: string[]; guardians: number[] }>`with u as (
        select r.user_id, us.mobile, us.role = ${Role.Parent}::int as guardian from notice_receipts r join users us on us.id = r.user_id
         where r.notice_id = ${noticeId}::int and r.read_at is null and us.deleted_at is null
      ),
      m as (select distinct mobile from u where not guardian and mobile is not null and mobile <> ''),
      ins as (
        insert into notice_reminders (notice_id, actor_id, unread, texts, sms_at)
        values (${noticeId}::int, ${actorId}::int, (select count(*) from u), (select count(*) from m), ${smsAt}::timestamptz) returning id
      )
      select (select id from ins) as reminder_id, (select count(*)::int from u) as unread, coalesce((select array_agg(mobile) from m), '{}') as mobiles,
             coalesce((select array_agg(user_id order by user_id) from u where guardian), '{}') as guardians`.execute(kdb(on));
    return rows[0];
  }

  async addReminderTexts(on: Queryable, reminderId: number, texts: number): Promise<void> {
    await kdb(on)
      .updateTable('notice_reminders')
      .set((eb) => ({ texts: eb('texts', '+', texts) }))
      .where('id', '=', reminderId)
      .execute();
  }

  async timezone(on: Queryable, schoolId: number): Promise<string | undefined> {
    const s = await kdb(on).selectFrom('schools').select('timezone').where('id', '=', schoolId).executeTakeFirst();
    return s?.timezone;
  }
}
