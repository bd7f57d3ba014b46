import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { EXPIRING_DAYS, EXPIRING_UNITS, LeaveStatus, type ExpiringContract } from '@wantuo/shared';
import { sql } from 'kysely';
import { DataSource } from 'typeorm';
import { kdb } from '../../core/database/kysely';

/** The board states the landing page counts. */
export const STATES = ['expected', 'picked_up', 'in_centre', 'left', 'on_leave'] as const;

/** The SQL of the home module (issue 38): the landing page's one statement, typed by the schema. */
@Injectable()
export class HomeRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Today at a glance over the school's own tables (one statement): the students of running classes that meet today,
   * today's projection rows by state, open alerts, pending leave, expiring and unpaid contracts, the account.
   */
  async principal(schoolId: number) {
    const count = sql<number>`count(*)::int`;
    const row = await kdb(this.db)
      .with('s', (db) =>
        db
          .selectFrom('schools as sc')
          .crossJoin((db) =>
            db
              .selectFrom('schools')
              .select(sql<string>`(now() at time zone timezone)::date`.as('today'))
              .where('id', '=', schoolId)
              .offset(0)
              .as('d'),
          )
          .select((eb) => [
            'sc.id',
            'sc.name',
            'sc.balance_fen',
            'sc.service_expires_at',
            'd.today',
            eb.fn
              .coalesce(
                eb
                  .selectFrom('school_calendar_days as cd')
                  .select((ieb) => sql<number>`case when ${ieb.ref('cd.kind')} = 'makeup' then ${ieb.ref('cd.works_as')}::int else 0 end`.as('n'))
                  .whereRef('cd.school_id', '=', 'sc.id')
                  .whereRef('cd.day', '=', 'd.today'),
                sql<number>`extract(isodow from ${eb.ref('d.today')})::int`,
              )
              .as('runs_as'),
          ])
          .where('sc.id', '=', schoolId),
      )
      .with('enrolled', (db) =>
        db
          .selectFrom('s')
          .innerJoin('care_classes as cc', (j) => j.onRef('cc.school_id', '=', 's.id').on('cc.deleted_at', 'is', null).on('cc.status', '=', 1))
          .innerJoin('care_class_students as ccs', 'ccs.class_id', 'cc.id')
          .innerJoin('students as st', (j) => j.onRef('st.id', '=', 'ccs.student_id').on('st.status', '=', 1))
          .leftJoin('class_times as ct', 'ct.id', 'cc.class_time_id')
          .select((eb) => [
            'ccs.student_id',
            'ccs.class_id',
            sql<boolean>`(${eb.ref('s.runs_as')} <> 0 and (${eb.ref('ct.id')} is null or ${eb.ref('s.runs_as')}::smallint = any(${eb.ref('ct.weekdays')})))`.as(
              'meets_today',
            ),
          ]),
      )
      .with('recorded', (db) =>
        db
          .selectFrom('s')
          .innerJoin('student_days as sd', (j) => j.onRef('sd.school_id', '=', 's.id').onRef('sd.day', '=', 's.today'))
          .select(['sd.student_id', 'sd.state', 'sd.on_leave']),
      )
      .with('today', (db) =>
        db
          .selectFrom((db) => db.selectFrom('enrolled').select('student_id').where('meets_today', '=', true).as('e'))
          .fullJoin('recorded as r', 'r.student_id', 'e.student_id')
          .select((eb) =>
            sql<string>`case when ${eb.ref('r.on_leave')} and coalesce(${eb.ref('r.state')}, 'expected') = 'expected' then 'on_leave' else coalesce(${eb.ref('r.state')}, 'expected') end`.as(
              'state',
            ),
          ),
      )
      .with('expiring', (db) =>
        db
          .selectFrom('s')
          .innerJoin('contracts as c', (j) => j.onRef('c.school_id', '=', 's.id').on('c.status', '=', 'active').onRef('c.end_day', '>=', 's.today'))
          .innerJoin('students as st', 'st.id', 'c.student_id')
          .innerJoin('contract_packages as p', 'p.id', 'c.package_id')
          .select((eb) => [
            'c.id',
            'st.name as student_name',
            'p.name as package_name',
            sql<string>`to_char(${eb.ref('c.end_day')}, 'YYYY-MM-DD')`.as('end_day'),
            sql<
              number | null
            >`case when ${eb.ref('c.units_total')} is null then null else greatest(0, ${eb.ref('c.units_total')} - ${eb.ref('c.units_used')}) end`.as(
              'units_left',
            ),
          ])
          .where((eb) =>
            eb.or([
              sql<boolean>`${eb.ref('c.end_day')} - ${eb.ref('s.today')} < ${EXPIRING_DAYS}`,
              eb.and([
                eb('c.units_total', 'is not', null),
                sql<boolean>`${eb.ref('c.units_total')} - ${eb.ref('c.units_used')} between 1 and ${EXPIRING_UNITS}`,
              ]),
            ]),
          ),
      )
      .with('alerts', (db) =>
        db
          .selectFrom('s')
          .innerJoin('flow_alerts as a', (j) => j.onRef('a.school_id', '=', 's.id').onRef('a.day', '=', 's.today').on('a.cleared_at', 'is', null))
          .select(['a.kind', count.as('n')])
          .groupBy('a.kind'),
      )
      .selectFrom('s')
      .select((eb) => [
        sql<string>`to_char(${eb.ref('s.today')}, 'YYYY-MM-DD')`.as('day'),
        's.name',
        sql<number>`${eb.ref('s.balance_fen')}::float8`.as('balance_fen'),
        's.service_expires_at',
        eb.selectFrom('enrolled').select(count.as('n')).$asScalar().$notNull().as('students'),
        ...STATES.map((x) => eb.selectFrom('today').select(count.as('n')).where('state', '=', x).$asScalar().$notNull().as(x)),
        eb
          .selectFrom('alerts')
          .select(sql<number>`coalesce(sum(n), 0)::int`.as('n'))
          .$asScalar()
          .$notNull()
          .as('open_alerts'),
        eb
          .selectFrom('alerts')
          .select(sql<Record<string, number> | null>`jsonb_object_agg(kind, n)`.as('v'))
          .as('alerts_by_kind'),
        eb
          .selectFrom('leave_requests as l')
          .select(count.as('n'))
          .whereRef('l.school_id', '=', 's.id')
          .where('l.status', '=', LeaveStatus.Pending)
          .whereRef('l.end_day', '>=', 's.today')
          .$asScalar()
          .$notNull()
          .as('pending_leave'),
        eb.selectFrom('expiring').select(count.as('n')).$asScalar().$notNull().as('expiring_contracts'),
        eb
          .selectFrom((db) => db.selectFrom('expiring').selectAll().orderBy('end_day').orderBy('id').limit(5).as('x'))
          .select(sql<ExpiringContract[]>`coalesce(jsonb_agg(x order by x.end_day, x.id), '[]')`.as('v'))
          .$asScalar()
          .$notNull()
          .as('soonest_contracts'),
        eb
          .selectFrom('contracts as c')
          .select(count.as('n'))
          .whereRef('c.school_id', '=', 's.id')
          .where('c.status', '=', 'unpaid')
          .$asScalar()
          .$notNull()
          .as('unpaid_contracts'),
      ])
      .executeTakeFirst();
    return row!;
  }
}
