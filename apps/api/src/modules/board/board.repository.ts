import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { STEP_EVENT, type FlowBoardStudent } from '@wantuo/shared';
import { sql } from 'kysely';
import { DataSource } from 'typeorm';
import { responsibleFor } from '../../core/access/access';
import { kdb } from '../../core/database/kysely';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { callerView, mobileOf } from '../privacy/mobile-access';

/** The board's queries (board.service.ts). */
@Injectable()
export class BoardRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The board's day (`date`, else the school's today) and the school's newest global_position. */
  day(schoolId: number, date: string | null) {
    return kdb(this.db)
      .selectFrom((eb) =>
        eb
          .selectFrom('schools')
          .select((z) => sql<string>`(now() at time zone ${z.ref('timezone')})::date`.as('today'))
          .where('id', '=', schoolId)
          .offset(sql.lit(0))
          .as('d'),
      )
      .select((eb) => [
        sql<string>`to_char(coalesce(${date}::date, ${eb.ref('d.today')}), 'YYYY-MM-DD')`.as('day'),
        eb.fn
          .coalesce(
            eb
              .selectFrom('flow_events')
              .select((f) => f.fn.max('global_position').as('m'))
              .where('school_id', '=', schoolId),
            sql.lit(0),
          )
          .as('position'),
      ])
      .execute();
  }

  /** Every student of the school's (or one) class the user is responsible for (all for an admin), with the day's state. */
  students(user: SchoolCaller, schoolId: number, day: string, classId: number | null, admin: boolean) {
    const view = callerView(user);
    return kdb(this.db)
      .selectFrom('students as s')
      .innerJoin('care_class_students as cs', 'cs.student_id', 's.id')
      .innerJoin('care_classes as c', (j) => j.onRef('c.id', '=', 'cs.class_id').on('c.deleted_at', 'is', null))
      .leftJoin('student_days as d', (j) => j.onRef('d.student_id', '=', 's.id').on('d.day', '=', sql<string>`${day}::date`))
      .leftJoinLateral(
        (eb) =>
          eb
            .selectFrom('flow_events as e')
            .select('e.payload')
            .whereRef('e.student_id', '=', 'd.student_id')
            .where('e.day', '=', sql<string>`${eb.ref('d.day')}::date`)
            .where('e.type', '=', STEP_EVENT.left)
            .where('d.left_at', 'is not', null)
            .orderBy('e.version', 'desc')
            .limit(1)
            .as('dep'),
        (j) => j.onTrue(),
      )
      .select((eb) => [
        's.id',
        's.name',
        sql<1 | 2 | null>`${eb.ref('s.gender')}::int`.as('gender'),
        's.grade',
        's.class_name',
        's.day_school',
        's.photo_url',
        's.allergies',
        's.needs_shuttle',
        's.needs_dinner',
        's.tutoring_type',
        'c.id as class_id',
        'c.name as care_class_name',
        sql<FlowBoardStudent['state']>`coalesce(${eb.ref('d.state')}, 'expected')`.as('state'),
        sql<boolean>`coalesce(${eb.ref('d.on_leave')}, false)`.as('on_leave'),
        sql<number>`coalesce(${eb.ref('d.version')}, 0)`.as('version'),
        'd.picked_up_at',
        'd.entered_at',
        'd.dinner_at',
        'd.tutor_started_at',
        'd.tutor_ended_at',
        'd.left_at',
        'd.left_with',
        sql<FlowBoardStudent['pickup_verified']>`case when jsonb_typeof(${eb.ref('dep.payload')}->'pickup_verified') = 'object' then
           json_build_object('name', coalesce(${eb.ref('dep.payload')}->'pickup_verified'->>'name', ''),
                             'relation', coalesce(${eb.ref('dep.payload')}->'pickup_verified'->>'relation', ''),
                             'offline', coalesce((${eb.ref('dep.payload')}->'pickup_verified'->>'offline')::boolean, false)) end`.as(
          'pickup_verified',
        ),
        sql<FlowBoardStudent['pickup_override']>`${eb.ref('dep.payload')}->>'override'`.as('pickup_override'),
        sql<FlowBoardStudent['pickup_people']>`coalesce(${eb
          .selectFrom('pickup_people as p')
          .select((x) =>
            sql`json_agg(json_build_object('id', p.id, 'name', p.name, 'relation', p.relation, 'mobile', ${mobileOf(
              x,
              view,
              x.ref('p.mobile'),
              x.ref('s.id'),
            )}) order by p.id)`.as('agg'),
          )
          .whereRef('p.student_id', '=', 's.id')
          .where('p.deleted_at', 'is', null)}, '[]')`.as('pickup_people'),
        eb
          .selectFrom('contracts as k')
          .select((k) => sql<number | null>`min(greatest(0, ${k.ref('k.units_total')} - ${k.ref('k.units_used')}))`.as('left'))
          .whereRef('k.student_id', '=', 's.id')
          .where('k.status', '=', 'active')
          .where('k.kind', 'in', ['days', 'sessions'])
          .where('k.units_total', 'is not', null)
          .where((k) => sql<boolean>`${day}::date between ${k.ref('k.start_day')} and ${k.ref('k.end_day')}`)
          .as('contract_units_left'),
      ])
      .where('s.school_id', '=', schoolId)
      .where('s.status', '=', 1)
      .where((eb) => (classId === null ? eb.val(true) : eb('c.id', '=', classId)))
      .where((eb) => (admin ? eb.val(true) : responsibleFor(eb, eb.ref('s.id'), user.id)))
      .orderBy('c.name')
      .orderBy('s.name')
      .execute();
  }
}
