import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Role, type AccessLogRow, type ChildAccessLogQuery, type ChildDataKind, type Page } from '@wantuo/shared';
import { DataSource, type EntityManager } from 'typeorm';
import { offsetOf, pageOf, totalOf } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import { clientIp, type SessionUser } from '../../core/http/request-context';
import { currentRequest } from '../../core/logging/log-context';

/** At most this many children are named in one row of the log as a reader gets it (the count says how many in all). */
const NAMED = 20;

/**
 * The access log of children's data (child_access_log, append-only): who read or exported which children's
 * profile, guardians, pick-up people, health notes or photos, and every call and export. One row per read (a list of
 * 100 children is one row with 100 ids), written with the request's address and action.
 */
@Injectable()
export class ChildAccessLog {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Records that `user` read `what` of these children, in one statement (within `em`'s transaction when given).
   * A guardian reading their own children is not recorded (the log is of everyone else's reads); their exports are.
   */
  async record(user: SessionUser, studentIds: readonly number[], what: readonly ChildDataKind[], em?: EntityManager): Promise<void> {
    const ids = [...new Set(studentIds.filter((id) => Number.isInteger(id) && id > 0))];
    if (!ids.length || !what.length || !user.schoolId) return;
    if (user.role === Role.Parent && !what.includes('export')) return;
    const req = currentRequest();
    const action = req?.action ?? 'job';
    const ip = req ? clientIp(req.req) : '';
    await (em ?? this.db.manager).query(
      `insert into child_access_log (school_id, actor_id, actor_role, student_ids, what, action, ip)
       values ($1, $2, $3, $4::int[], $5::varchar[], $6, $7)`,
      [user.schoolId, user.id, user.role, ids, [...new Set(what)], action.slice(0, 60), ip.slice(0, 64)],
    );
  }

  /** The admin's school (all, or one child), or a guardian's own child (student_id required), newest first. */
  async list(user: SessionUser, q: ChildAccessLogQuery): Promise<Page<AccessLogRow>> {
    const isParent = user.role === Role.Parent;
    if (isParent) {
      if (!q.student_id) throw new AppError('privacy.not_found');
      const [own]: unknown[] = await this.db.query(
        `select 1 from student_guardians g where g.student_id = $1 and g.user_id = $2 and g.school_id = $3`,
        [q.student_id, user.id, user.schoolId],
      );
      if (!own) throw new AppError('privacy.not_found');
    }
    const rows: Array<AccessLogRow & { total: number }> = await this.db.query(
      `with s as (select timezone from schools where id = $1),
       hits as (
         select l.* from child_access_log l cross join s
          where l.school_id = $1
            and ($2::int is null or l.student_ids @> array[$2::int])
            and ($3::varchar is null or l.what @> array[$3::varchar])
            and ($4::date is null or l.created_at >= ($4::date)::timestamp at time zone s.timezone)
            and ($5::date is null or l.created_at < ($5::date + 1)::timestamp at time zone s.timezone)
       )
       select c.total, p.* from (select count(*)::int as total from hits) c
       left join lateral (
         select h.id::int as id, h.created_at, coalesce(u.name, '') as actor_name, h.actor_role::int as actor_role,
                h.what, h.action, case when $8 then null else h.ip end as ip, cardinality(h.student_ids) as student_count,
                coalesce((select json_agg(json_build_object('id', st.id, 'name', st.name) order by st.id)
                            from (select x.id from unnest(h.student_ids) as x(id)
                                   where not $8 or x.id = $2 order by x.id limit ${NAMED}) k
                            join students st on st.id = k.id), '[]'::json) as students
           from hits h left join users u on u.id = h.actor_id
          order by h.created_at desc, h.id desc
          limit $6 offset $7
       ) p on true`,
      [user.schoolId, q.student_id ?? null, q.what ?? null, q.from ?? null, q.to ?? null, q.limit, offsetOf(q), isParent],
    );
    const list = rows.filter((r) => r.id !== null).map(({ total: _, ...r }) => r as AccessLogRow);
    return pageOf(list, totalOf(rows), q);
  }
}
