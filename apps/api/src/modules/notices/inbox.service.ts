import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  nextRemindAt,
  Role,
  type AdminInformListQuery,
  type InformInfoQuery,
  type InformListQuery,
  type NoticeDetail,
  type NoticeInfo,
  type NoticeItem,
  type NoticeReceipt,
  type Page,
  type ParentInformListQuery,
  type ParentNoticeList,
} from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { containsPattern, offsetOf, pageOf, totalOf, type PageQuery } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { NOTICE_COLUMNS, NOTICE_DETAIL_COLUMNS, NOTICE_JOINS, NoticeClock, toMyClasses } from './notices-sql';

type Row<T> = T & { total: number | null };

/** Pages of `f` (a CTE that filters) with its total in one statement; `select` reads the page from `f`. */
function pageFrom<T>(rows: Array<Row<T>>, q: PageQuery): Page<T> {
  const present = (r: object) => ('id' in r && r.id !== null) || ('user_id' in r && r.user_id !== null);
  const list = rows.filter(present).map(({ total: _, ...r }) => r as T);
  return pageOf(list, totalOf(rows), q);
}

/** Reading notices: the sent and received lists, one notice with its receipts, a recipient opening one. */
@Injectable()
export class InboxService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly clock: NoticeClock,
  ) {}

  /**
   * A teacher's or head teacher's notices: `sent` the ones they published, `received` the ones they are a staff
   * recipient of (with when they read it); newest first, by class, keyword, importance.
   */
  async staffList(user: SessionUser, q: InformListQuery): Promise<Page<NoticeItem>> {
    const mine = q.box === 'sent' ? 'n.author_id = $2' : q.box === 'class' ? toMyClasses('$1', '$2') : 'me.user_id is not null';
    return this.list(user, q, mine);
  }

  /** Every notice of the admin's school. */
  adminList(user: SessionUser, q: AdminInformListQuery): Promise<Page<NoticeItem>> {
    return this.list(user, q, '$2::int is not null');
  }

  private async list(user: SessionUser, q: AdminInformListQuery, mine: string): Promise<Page<NoticeItem>> {
    const rows: Array<Row<NoticeItem>> = await this.db.query(
      `with f as (
         select n.id, me.read_at from notices n left join notice_receipts me on me.notice_id = n.id and me.user_id = $2
          where n.school_id = $1 and ${mine}
            and ($3::int is null or $3 = any(n.class_ids)) and ($4::text is null or n.title like $4) and ($5::boolean is null or n.important = $5))
       select t.total, p.* from (select count(*)::int as total from f) t
       left join lateral (
         select ${NOTICE_COLUMNS}, f.read_at from f join notices n on n.id = f.id ${NOTICE_JOINS} order by n.id desc limit $6 offset $7
       ) p on true`,
      [user.schoolId, user.id, q.class_id ?? null, containsPattern(q.keyword), q.important ?? null, q.limit, offsetOf(q)],
    );
    return pageFrom(rows, q);
  }

  /** A guardian's notices, newest first, with when each was read and the unread count. */
  async parentList(user: SessionUser, q: ParentInformListQuery): Promise<ParentNoticeList> {
    const rows: Array<Row<NoticeItem> & { unread: number }> = await this.db.query(
      `with f as (select r.notice_id, r.read_at from notice_receipts r where r.user_id = $1 and ($2::boolean is not true or r.read_at is null))
       select t.total, t.unread, p.* from (
         select (select count(*)::int from f) as total,
                (select count(*)::int from notice_receipts r where r.user_id = $1 and r.read_at is null) as unread) t
       left join lateral (
         select ${NOTICE_COLUMNS}, f.read_at from f join notices n on n.id = f.notice_id ${NOTICE_JOINS}
          order by f.notice_id desc limit $3 offset $4
       ) p on true`,
      [user.id, q.unread ?? null, q.limit, offsetOf(q)],
    );
    const page = pageFrom(
      rows.map(({ unread: _, ...r }) => r),
      q,
    );
    return { ...page, unread: rows[0]?.unread ?? 0 };
  }

  /**
   * A recipient opens a notice: the first time marks it read (the receipt's read_at, the notice's read count, in one
   * statement that locks the receipt first: reading twice, even at once, counts once and answers the first read's time). Not a recipient, or another school's: not found.
   */
  async open(user: SessionUser, id: number): Promise<NoticeDetail> {
    const [row]: NoticeDetail[] = await this.db.query(
      `with old as (
         -- the receipt's row, locked: a concurrent first read is waited for and its read_at seen (not this statement's snapshot)
         select read_at from notice_receipts where notice_id = $1 and user_id = $2 for update
       ),
       r as (
         update notice_receipts set read_at = $3 where notice_id = $1 and user_id = $2 and read_at is null
            and exists (select 1 from old where old.read_at is null) returning read_at
       ),
       c as (update notices set read_count = read_count + 1 where id = $1 and exists (select 1 from r) returning read_count)
       select ${NOTICE_DETAIL_COLUMNS}, coalesce((select read_at from old), (select read_at from r)) as read_at,
              coalesce((select read_count from c), n.read_count) as read_count
         from notices n join notice_receipts me on me.notice_id = n.id and me.user_id = $2 ${NOTICE_JOINS}
        where n.id = $1 and n.school_id = $4`,
      [id, user.id, this.clock.now(), user.schoolId],
    );
    if (!row) throw new AppError('notices.not_found');
    return row;
  }

  /**
   * One notice with its receipts (who read it and when, who has not; `read` filters), for its author, or the admin
   * for any notice of the school. Guardians show the children the notice reached. A head teacher may also read a
   * notice someone else sent to a class they head (or to the whole school): then only the receipts of the guardians
   * of their own classes' children (`class_only`).
   */
  async info(user: SessionUser, q: InformInfoQuery): Promise<NoticeInfo> {
    const isAdmin = user.role === Role.Admin;
    const [notice]: Array<NoticeDetail & { own: boolean }> = await this.db.query(
      `select ${NOTICE_DETAIL_COLUMNS}, ($4::boolean or n.author_id = $3) as own from notices n ${NOTICE_JOINS}
        where n.id = $1 and n.school_id = $2 and ($4::boolean or n.author_id = $3 or ($5::boolean and ${toMyClasses('$2', '$3')}))`,
      [q.id, user.schoolId, user.id, isAdmin, user.role === Role.HeadTeacher],
    );
    if (!notice) throw new AppError('notices.not_found');
    const { own, ...detail } = notice;
    // the receipts the caller may see: all (author, admin), or the guardians of children in the classes they head that the notice reached
    const visible = own
      ? '$8::int is not null'
      : `r.kind = 'guardian' and exists (
           select 1 from student_guardians g join students s on s.id = g.student_id and s.status = 1
             join care_class_students cs on cs.student_id = s.id
             join care_classes cc on cc.id = cs.class_id and cc.head_teacher_id = $8 and cc.deleted_at is null
            where g.user_id = r.user_id and g.school_id = $5 and ($6 = 'school' or cc.id = any($7::int[])))`;
    const rows: Array<Row<NoticeReceipt> & { unread_here: number }> = await this.db.query(
      `with v as (
         select r.user_id, r.kind, r.read_at from notice_receipts r where r.notice_id = $1 and ${visible}),
       f as (
         select v.user_id, v.kind, v.read_at, u.name from v join users u on u.id = v.user_id
          where ($2::boolean is null or (v.read_at is not null) = $2))
       select t.total, t.unread_here, p.* from (select (select count(*)::int from f) as total, (select count(*)::int from v where v.read_at is null) as unread_here) t
       left join lateral (
         select f.user_id, f.name, f.kind, f.read_at,
                case when f.kind = 'guardian' then (
                  select string_agg(s.name, '、' order by s.name) from student_guardians g join students s on s.id = g.student_id and s.status = 1
                   where g.user_id = f.user_id and g.school_id = $5
                     and ($6 = 'school' or exists (select 1 from care_class_students cs where cs.student_id = s.id and cs.class_id = any($7::int[]))))
                end as child_names
           from f order by f.read_at desc nulls last, f.name, f.user_id limit $3 offset $4
       ) p on true`,
      [q.id, q.read ?? null, q.limit, offsetOf(q), user.schoolId, detail.scope, detail.class_ids, user.id],
    );
    const last = detail.last_reminded_at ? new Date(detail.last_reminded_at) : null;
    return {
      notice: detail,
      receipts: pageFrom(
        rows.map(({ unread_here: _, ...r }) => r),
        q,
      ),
      unread: own ? detail.recipients - detail.read_count : (rows[0]?.unread_here ?? 0),
      next_remind_at: nextRemindAt(last, this.clock.now())?.toISOString() ?? null,
      class_only: !own,
    };
  }
}
