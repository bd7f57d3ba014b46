import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { EXPIRING_DAYS, EXPIRING_UNITS, serviceState, type ExpiringContract, type PrincipalHome } from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { RUNS_AS, SCHOOL_TODAY } from '../../core/database/sql-kit';
import type { SessionUser } from '../../core/http/request-context';

/** The board states the landing page counts. */
const STATES = ['expected', 'picked_up', 'in_centre', 'left', 'on_leave'] as const;

/**
 * Today at a glance for the admin's landing page: one query over the school's own tables, whatever their size (the
 * students of running classes that meet today, today's projection rows, open alerts, pending leave, the account).
 * A read model: it reads what the flow, alerts, leave and money modules wrote and calls none of them.
 */
@Injectable()
export class HomeService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async principal(user: SessionUser): Promise<PrincipalHome> {
    const [row]: Array<
      {
        day: string;
        name: string;
        balance_fen: number;
        service_expires_at: Date | null;
        students: number;
        open_alerts: number;
        alerts_by_kind: Record<string, number> | null;
        pending_leave: number;
        expiring_contracts: number;
        soonest_contracts: ExpiringContract[];
        unpaid_contracts: number;
      } & Record<(typeof STATES)[number], number>
    > = await this.db.query(
      `with s as (select sc.id, sc.name, sc.balance_fen, sc.service_expires_at, d.today, ${RUNS_AS('sc.id', 'd.today')} as runs_as
                    from schools sc cross join ${SCHOOL_TODAY} d where sc.id = $1),
       enrolled as (
         select ccs.student_id, ccs.class_id,
                (s.runs_as <> 0 and (ct.id is null or s.runs_as::smallint = any(ct.weekdays))) as meets_today
           from s join care_classes cc on cc.school_id = s.id and cc.deleted_at is null and cc.status = 1
           join care_class_students ccs on ccs.class_id = cc.id
           join students st on st.id = ccs.student_id and st.status = 1
           left join class_times ct on ct.id = cc.class_time_id
       ),
       recorded as (select sd.student_id, sd.state, sd.on_leave from s join student_days sd on sd.school_id = s.id and sd.day = s.today),
       today as (
         select case when r.on_leave and coalesce(r.state, 'expected') = 'expected' then 'on_leave' else coalesce(r.state, 'expected') end as state
           from (select student_id from enrolled where meets_today) e full join recorded r on r.student_id = e.student_id
       ),
       expiring as (
         select c.id, st.name as student_name, p.name as package_name, to_char(c.end_day, 'YYYY-MM-DD') as end_day,
                case when c.units_total is null then null else greatest(0, c.units_total - c.units_used) end as units_left
           from s join contracts c on c.school_id = s.id and c.status = 'active' and c.end_day >= s.today
           join students st on st.id = c.student_id
           join contract_packages p on p.id = c.package_id
          where c.end_day - s.today < ${EXPIRING_DAYS} or (c.units_total is not null and c.units_total - c.units_used between 1 and ${EXPIRING_UNITS})
       ),
       alerts as (
         select a.kind, count(*)::int as n from s join flow_alerts a on a.school_id = s.id and a.day = s.today and a.cleared_at is null group by a.kind
       )
       select to_char(s.today, 'YYYY-MM-DD') as day, s.name, s.balance_fen::float8 as balance_fen, s.service_expires_at,
              (select count(*)::int from enrolled) as students,
              ${STATES.map((x) => `(select count(*)::int from today where state = '${x}') as ${x}`).join(',\n              ')},
              (select coalesce(sum(n), 0)::int from alerts) as open_alerts,
              (select jsonb_object_agg(kind, n) from alerts) as alerts_by_kind,
              (select count(*)::int from leave_requests l where l.school_id = s.id and l.status = 0 and l.end_day >= s.today) as pending_leave,
              (select count(*)::int from expiring) as expiring_contracts,
              (select coalesce(jsonb_agg(x order by x.end_day, x.id), '[]') from (select * from expiring order by end_day, id limit 5) x) as soonest_contracts,
              (select count(*)::int from contracts c where c.school_id = s.id and c.status = 'unpaid') as unpaid_contracts
         from s`,
      [user.schoolId],
    );
    return {
      day: row.day,
      students: row.students,
      flow: { expected: row.expected, picked_up: row.picked_up, in_centre: row.in_centre, left: row.left, on_leave: row.on_leave },
      open_alerts: row.open_alerts,
      alerts_by_kind: row.alerts_by_kind ?? {},
      pending_leave: row.pending_leave,
      contracts: { expiring: row.expiring_contracts, unpaid: row.unpaid_contracts, soonest: row.soonest_contracts },
      school: {
        name: row.name,
        balance_fen: row.balance_fen,
        service_expires_at: row.service_expires_at ? new Date(row.service_expires_at).toISOString() : null,
        service_state: serviceState(row.service_expires_at),
      },
    };
  }
}
