import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DATA_PERIOD_SQL, Role, STEP_EVENT, type BoardState, type DataGroup, type PickupVerified } from '@wantuo/shared';
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { DataSource } from 'typeorm';
import { studentAccess, type AccessCaller } from '../../core/access/access';
import { kdb, type DB } from '../../core/database/kysely';
import { runsAs } from '../../core/database/school-day';
import { offsetOf, pageOf, type PageQuery } from '../../core/database/sql-kit';

/** A date range of the school's student-days, and an optional class. */
export interface DaysRange {
  schoolId: number;
  from: string;
  to: string;
  classId: number | null;
}

const BOARD_STATES: readonly BoardState[] = ['expected', 'picked_up', 'in_centre', 'left', 'on_leave'];

/**
 * The student-days of a date range: every day a student has a record, and every day a running class meets (its time
 * slot's weekdays; by the school calendar: none on a holiday, a make-up day as the weekday it runs as) for its active
 * students, as 'expected' when they have no record. Its `sdays` columns: day, student_id, class_id, state (board
 * state), on_leave, the projection's step times, left_with, version.
 */
function studentDays(db: DataSource, r: DaysRange) {
  return kdb(db)
    .with('days', (q) =>
      q
        .selectFrom(sql<{ d: Date }>`generate_series(${r.from}::date, ${r.to}::date, interval '1 day')`.as<'g'>(sql`g(d)`))
        .select((eb) => [sql<string>`${eb.ref('g.d')}::date`.as('day'), runsAs(sql.val(r.schoolId), sql`${eb.ref('g.d')}::date`).as('runs_as')]),
    )
    .with('expected', (q) =>
      q
        .selectFrom('days')
        .innerJoin('care_class_students as ccs', (j) => j.onTrue())
        .innerJoin('care_classes as ec', (j) => j.onRef('ec.id', '=', 'ccs.class_id').on('ec.deleted_at', 'is', null).on('ec.status', '=', 1))
        .innerJoin('students as es', (j) => j.onRef('es.id', '=', 'ccs.student_id').on('es.status', '=', 1))
        .leftJoin('class_times as ct', 'ct.id', 'ec.class_time_id')
        .select(['days.day', 'ccs.student_id', 'ccs.class_id'])
        .where('ccs.school_id', '=', r.schoolId)
        .where('days.runs_as', '<>', 0)
        .where((eb) => eb.or([eb('ct.id', 'is', null), sql<SqlBool>`${eb.ref('days.runs_as')}::smallint = any(${eb.ref('ct.weekdays')})`])),
    )
    .with('recorded', (q) =>
      q
        .selectFrom('student_days')
        .selectAll()
        .where('school_id', '=', r.schoolId)
        .where('day', '>=', sql<string>`${r.from}::date`)
        .where('day', '<=', sql<string>`${r.to}::date`),
    )
    .with('sdays', (q) =>
      q
        .selectFrom('expected as e')
        .fullJoin('recorded as r', (j) => j.onRef('r.student_id', '=', 'e.student_id').onRef('r.day', '=', 'e.day'))
        .select((eb) => [
          eb.fn.coalesce('r.day', 'e.day').$notNull().as('day'),
          eb.fn.coalesce('r.student_id', 'e.student_id').$notNull().as('student_id'),
          eb.fn.coalesce('r.class_id', 'e.class_id').as('class_id'),
          sql<BoardState>`case when ${eb.ref('r.on_leave')} and ${eb.ref('r.state')} = 'expected' then 'on_leave' else coalesce(${eb.ref('r.state')}, 'expected') end`.as(
            'state',
          ),
          eb.fn.coalesce('r.on_leave', sql.lit(false)).$notNull().as('on_leave'),
          'r.picked_up_at',
          'r.entered_at',
          'r.dinner_at',
          'r.tutor_started_at',
          'r.tutor_ended_at',
          'r.left_at',
          'r.left_with',
          eb.fn.coalesce('r.version', sql.lit(0)).$notNull().as('version'),
        ]),
    );
}

/** The class `classId` is one the caller sees: an admin every class, a head teacher those they head or hold a duty in. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function classVisible(eb: ExpressionBuilder<any, any>, classRef: Expression<number | null>, caller: AccessCaller): Expression<SqlBool> {
  if (caller.role === Role.Admin) return sql<SqlBool>`true`;
  const e = eb as unknown as ExpressionBuilder<DB, never>;
  return e.and([
    e(classRef, 'is not', null),
    e.exists(
      e
        .selectFrom('care_classes as vc')
        .select(sql.lit(1).as('one'))
        .where('vc.id', '=', classRef)
        .where((w) =>
          w.or([
            w('vc.head_teacher_id', '=', caller.id),
            w.exists(
              w
                .selectFrom('duty_assignments as d')
                .select(sql.lit(1).as('one'))
                .whereRef('d.class_id', '=', 'vc.id')
                .where('d.teacher_id', '=', caller.id),
            ),
          ]),
        ),
    ),
  ]);
}

/** The SQL of the flow's reads (issue 38): a student's day and timeline, the attendance list, the counts. */
@Injectable()
export class FlowReadRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The student (name, class) if the caller may see it (studentAccess: the admin, a head teacher's, a guardian's own). */
  visibleStudent(caller: AccessCaller, studentId: number) {
    return kdb(this.db)
      .selectFrom('students as s')
      .leftJoin('care_class_students as ccs', 'ccs.student_id', 's.id')
      .select(['s.id', 's.name', 'ccs.class_id'])
      .where('s.id', '=', studentId)
      .where('s.school_id', '=', caller.schoolId)
      .where((eb) => studentAccess(eb, eb.ref('s.id'), caller))
      .executeTakeFirst();
  }

  /** The student's events of a day, voids included, in version order, with who did each. */
  dayEvents(schoolId: number, studentId: number, day: string) {
    return kdb(this.db)
      .selectFrom('flow_events as e')
      .leftJoin('users as u', 'u.id', 'e.actor_id')
      .select([
        'e.event_id',
        'e.type',
        'e.payload',
        'e.actor_id as actor',
        'e.occurred_at as at',
        'e.global_position as position',
        'u.name as actor_name',
        'e.class_id',
      ])
      .where('e.student_id', '=', studentId)
      .where('e.day', '=', day)
      .where('e.school_id', '=', schoolId)
      .orderBy('e.version')
      .execute();
  }

  /** A pick-up person of the school. */
  pickupPerson(schoolId: number, id: number) {
    return kdb(this.db)
      .selectFrom('pickup_people')
      .select(['id', 'name', 'relation'])
      .where('id', '=', id)
      .where('school_id', '=', schoolId)
      .executeTakeFirst();
  }

  /**
   * A page of the student-days of the range, newest day first, by class and name, with the total (a window over the
   * same rows: one statement; a page beyond the last counts again); the page's departures carry their verified pick-up
   * person or manual reason, looked up for the page's rows only (the newest student.left of the day while the
   * projection says the child left).
   */
  async list(caller: AccessCaller, r: DaysRange & { state: BoardState | null }, q: PageQuery) {
    const filtered = this.filtered(caller, r);
    const rows = await filtered
      .selectFrom((eb) =>
        eb
          .selectFrom('f')
          .select((x) => [
            sql<string>`${x.ref('f.day')}::text || ':' || ${x.ref('f.student_id')}`.as('id'),
            sql<string>`${x.ref('f.day')}::text`.as('day'),
            'f.student_id',
            'f.student_name',
            'f.class_id',
            'f.class_name',
            'f.state',
            'f.on_leave',
            'f.picked_up_at',
            'f.entered_at',
            'f.dinner_at',
            'f.tutor_started_at',
            'f.tutor_ended_at',
            'f.left_at',
            'f.left_with_name',
            'f.version',
            sql<number>`(count(*) over ())::int`.as('total'),
          ])
          .orderBy('f.day', 'desc')
          .orderBy(sql`f.class_name nulls last`)
          .orderBy('f.student_name')
          .orderBy('f.student_id')
          .limit(q.limit)
          .offset(offsetOf(q))
          .as('x'),
      )
      .leftJoinLateral(
        (d) =>
          d
            .selectFrom('flow_events as e')
            .select('e.payload')
            .whereRef('e.student_id', '=', 'x.student_id')
            .where('e.day', '=', sql<string>`${d.ref('x.day')}::date`)
            .where('e.type', '=', STEP_EVENT.left)
            .where('x.left_at', 'is not', null)
            .orderBy('e.version', 'desc')
            .limit(1)
            .as('dep'),
        (j) => j.onTrue(),
      )
      .selectAll('x')
      .select((x) => [
        sql<PickupVerified | null>`case when jsonb_typeof(${x.ref('dep.payload')}->'pickup_verified') = 'object' then
           json_build_object('name', coalesce(${x.ref('dep.payload')}->'pickup_verified'->>'name', ''),
                             'relation', coalesce(${x.ref('dep.payload')}->'pickup_verified'->>'relation', ''),
                             'offline', coalesce((${x.ref('dep.payload')}->'pickup_verified'->>'offline')::boolean, false)) end`.as(
          'pickup_verified',
        ),
        sql<string | null>`${x.ref('dep.payload')}->>'override'`.as('pickup_override'),
      ])
      .orderBy('x.day', 'desc')
      .orderBy(sql`x.class_name nulls last`)
      .orderBy('x.student_name')
      .orderBy('x.student_id')
      .execute();
    const total = rows.length
      ? rows[0].total
      : q.page > 1
        ? ((
            await this.filtered(caller, r)
              .selectFrom('f')
              .select((c) => c.fn.countAll<number>().as('n'))
              .executeTakeFirst()
          )?.n ?? 0)
        : 0;
    return pageOf(
      rows.map(({ total: _, ...x }) => x),
      Number(total),
      q,
    );
  }

  /** The student-days of the range the caller sees (`f`), narrowed by class and state, with student, class and pick-up names. */
  private filtered(caller: AccessCaller, r: DaysRange & { state: BoardState | null }) {
    const { state, classId } = r;
    return studentDays(this.db, r).with('f', (w) =>
      w
        .selectFrom('sdays as sd')
        .innerJoin('students as s', 's.id', 'sd.student_id')
        .leftJoin('care_classes as cc', 'cc.id', 'sd.class_id')
        .leftJoin('pickup_people as lw', 'lw.id', 'sd.left_with')
        .selectAll('sd')
        .select(['s.name as student_name', 'cc.name as class_name', 'lw.name as left_with_name'])
        .$if(classId !== null, (x) => x.where('sd.class_id', '=', classId))
        .$if(state !== null, (x) => x.where('sd.state', '=', state as BoardState))
        .where((eb) => classVisible(eb, eb.ref('sd.class_id'), caller)),
    );
  }

  /** Per period (of `group`) and class: how many student-days are in each board state, newest period first. */
  counts(caller: AccessCaller, r: DaysRange, group: DataGroup) {
    const classId = r.classId;
    const period = sql<string>`${sql.raw(DATA_PERIOD_SQL[group]('sd.day'))}::text`;
    return studentDays(this.db, r)
      .selectFrom('sdays as sd')
      .leftJoin('care_classes as cc', 'cc.id', 'sd.class_id')
      .select((eb) => [
        sql<string>`${period} || ':' || coalesce(${eb.ref('sd.class_id')}, 0)`.as('id'),
        period.as('day'),
        'sd.class_id',
        'cc.name as class_name',
        sql<number>`count(*)::int`.as('total'),
        ...BOARD_STATES.map((st) => sql<number>`(count(*) filter (where ${eb.ref('sd.state')} = ${st}))::int`.as(st)),
      ])
      .$if(classId !== null, (x) => x.where('sd.class_id', '=', classId))
      .where((eb) => classVisible(eb, eb.ref('sd.class_id'), caller))
      .groupBy([sql`2`, 'sd.class_id', 'cc.name'])
      .orderBy(sql`2 desc`)
      .orderBy(sql`cc.name nulls last`)
      .orderBy('sd.class_id')
      .execute();
  }

  /** A student with its class (the day answered after a void the caller was allowed to make). */
  student(studentId: number) {
    return kdb(this.db)
      .selectFrom('students as s')
      .leftJoin('care_class_students as ccs', 'ccs.student_id', 's.id')
      .select(['s.id', 's.name', 'ccs.class_id'])
      .where('s.id', '=', studentId)
      .executeTakeFirstOrThrow();
  }

  /** The stored events of these ids: the student and the board state after each (the first results of a repeated command). */
  storedEvents(eventIds: readonly string[]) {
    return kdb(this.db)
      .selectFrom('flow_events')
      .select(['event_id', 'student_id', sql<BoardState>`state_after`.as('state')])
      .where('event_id', '=', sql<string>`any(${[...eventIds]}::uuid[])`)
      .execute();
  }
}
