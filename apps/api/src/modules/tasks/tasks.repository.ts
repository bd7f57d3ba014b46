import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  JobStatus,
  LeaveStatus,
  Role,
  StudentStatus,
  TODAY_TASK_LIST_MAX,
  type BoardStateName,
  type Homework,
  type HandoverDuty,
  type TodayTaskList,
} from '@wantuo/shared';
import { sql, type Expression, type ExpressionBuilder, type RawBuilder, type SqlBool } from 'kysely';
import { jsonBuildObject } from 'kysely/helpers/postgres';
import { DataSource } from 'typeorm';
import { responsibleFor } from '../../core/access/access';
import { kdb, type DB } from '../../core/database/kysely';
import { schoolTodayOf } from '../../core/database/school-day';
import type { Queryable } from '../../core/database/sql-kit';
import { UserStatus } from '../auth/entities/user.entity';

const one = sql.lit(1).as('one');

/** A date or time as text of `format` (to_char). */
const text = (e: Expression<unknown>, format: 'YYYY-MM-DD' | 'HH24:MI') => sql<string>`to_char(${e}, ${sql.lit(format)})`;

/**
 * Today, as a one-row CTE `d`: the school's local date (`d.day`) and its weekday 1..7 (`d.dow`); the school's row is
 * read once (`offset 0`).
 */
const withToday = (on: Queryable, schoolId: number) =>
  kdb(on).with('d', (w) =>
    w
      .selectFrom(
        w
          .selectFrom('schools')
          .select(sql<string>`(now() at time zone timezone)::date`.as('today'))
          .where('id', '=', schoolId)
          .offset(0)
          .as('t'),
      )
      .select((eb) => ['t.today as day', sql<number>`extract(isodow from ${eb.ref('t.today')})::int`.as('dow')]),
  );

/** A query creator that has today's `d`. */
type WithToday = ReturnType<typeof withToday>;

/**
 * The active students of the school's care classes today (a query of `qc`, which has `d`): `s` the student, `cc` its
 * class, `sd` today's student_days row (if any).
 */
const studentsToday = (qc: WithToday, schoolId: number) =>
  qc
    .selectFrom('students as s')
    .crossJoin('d')
    .innerJoin('care_class_students as ccs', 'ccs.student_id', 's.id')
    .innerJoin('care_classes as cc', (j) => j.onRef('cc.id', '=', 'ccs.class_id').on('cc.deleted_at', 'is', null))
    .leftJoin('student_days as sd', (j) => j.onRef('sd.student_id', '=', 's.id').onRef('sd.day', '=', 'd.day'))
    .where('s.school_id', '=', schoolId)
    .where('s.status', '=', StudentStatus.Active);

/** studentsToday's tables. */
type Today = DB & { s: DB['students']; cc: DB['care_classes']; sd: DB['student_days']; d: { day: string; dow: number } };

/**
 * The student's board state today: with no row today expected, or on leave when an approved request covers today; a
 * row's state, on leave when marked so while still expected.
 */
function boardState(eb: ExpressionBuilder<Today, 's' | 'sd' | 'd'>) {
  return eb
    .case()
    .when('sd.student_id', 'is', null)
    .then(
      eb
        .case()
        .when(
          eb.exists(
            eb
              .selectFrom('leave_requests as lr')
              .select(one)
              .whereRef('lr.student_id', '=', 's.id')
              .where('lr.status', '=', LeaveStatus.Approved)
              .where((w) => w.between(w.ref('d.day'), w.ref('lr.start_day'), w.ref('lr.end_day'))),
          ),
        )
        .then(sql.lit('on_leave'))
        .else(sql.lit('expected'))
        .end(),
    )
    .when(eb.and([eb.ref('sd.on_leave'), eb('sd.state', '=', sql.lit('expected'))]))
    .then(sql.lit('on_leave'))
    .else(eb.ref('sd.state'))
    .end()
    .$castTo<BoardStateName>();
}

/** The student's care class as `{ id, name }`. */
const careClass = (eb: ExpressionBuilder<Today, 'cc'>) => jsonBuildObject({ id: eb.ref('cc.id'), name: eb.ref('cc.name') });

/**
 * The students on the caller's list of a duty today: their own (responsibleFor) unless handed over today (`ho`,
 * task_handovers), and those handed to the caller (`hob` who handed them).
 */
const mine = (on: Queryable, schoolId: number, me: number, duty: HandoverDuty) =>
  studentsToday(withToday(on, schoolId), schoolId)
    .leftJoin('task_handovers as ho', (j) => j.onRef('ho.student_id', '=', 's.id').onRef('ho.day', '=', 'd.day').on('ho.duty', '=', duty))
    .leftJoin('users as hob', 'hob.id', 'ho.from_teacher_id')
    .where((eb) =>
      eb
        .case()
        .when('ho.to_teacher_id', 'is', null)
        .then(responsibleFor(eb, eb.ref('s.id'), me))
        .else(eb('ho.to_teacher_id', '=', me))
        .end(),
    );

/** mine's tables. */
type Mine = Today & { ho: DB['task_handovers']; hob: DB['users'] };

/** Who handed the student's task to the caller today (with mine's joins). */
const handedBy = (eb: ExpressionBuilder<Mine, 'ho' | 'hob'>, me: number) =>
  eb.case().when('ho.to_teacher_id', '=', me).then(eb.ref('hob.name')).end().as('handed_over_by_name');

/** The first `max` items of an aggregate, in `order`, of the rows meeting `where`, as a JSON array ('[]' for none). */
function firstOf<T>(item: Expression<T>, order: Array<Expression<unknown>>, where: Expression<SqlBool>, max: number): RawBuilder<T[]> {
  return sql<T[]>`coalesce(array_to_json((array_agg(${item} order by ${sql.join(order)}) filter (where ${where}))[1:${sql.lit(max)}]), '[]')`;
}

/** The teachers' task lists of the day (issue 38): every statement typed by the schema, read from the student_days projection. */
@Injectable()
export class TasksRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * The caller's students today with the counts of teacherTodayTask and the first TODAY_TASK_LIST_MAX students of each
   * list, in one statement: the pick-ups and the tutoring of the caller's lists of those duties (a task handed over
   * today counts for the teacher it was handed to only), the other counts over the caller's own students and those
   * handed to the caller today.
   */
  todayCounts(schoolId: number, me: number) {
    return (
      withToday(this.db, schoolId)
        .with('cand', (w) =>
          studentsToday(w, schoolId)
            .leftJoin('task_handovers as hs', (j) =>
              j.onRef('hs.student_id', '=', 's.id').onRef('hs.day', '=', 'd.day').on('hs.duty', '=', 'shuttle'),
            )
            .leftJoin('task_handovers as ht', (j) => j.onRef('ht.student_id', '=', 's.id').onRef('ht.day', '=', 'd.day').on('ht.duty', '=', 'tutor'))
            .select((eb) => [
              's.id',
              's.name',
              'cc.name as class_name',
              's.needs_shuttle',
              's.needs_dinner',
              's.tutoring_type',
              'sd.dinner_at',
              'sd.tutor_started_at',
              'sd.tutor_ended_at',
              boardState(eb).as('state'),
              sql<boolean>`${responsibleFor(eb, eb.ref('s.id'), me)}`.as('own'),
              'hs.to_teacher_id as shuttle_to',
              'ht.to_teacher_id as tutor_to',
            ]),
        )
        // on the caller's list of a duty as `mine` decides: own unless handed over today, or handed to the caller
        .with('mine', (w) =>
          w
            .selectFrom('cand as c')
            .selectAll('c')
            .select((eb) => [
              eb
                .case()
                .when('c.shuttle_to', 'is', null)
                .then(eb.ref('c.own'))
                .else(eb('c.shuttle_to', '=', me))
                .end()
                .as('on_shuttle'),
              eb
                .case()
                .when('c.tutor_to', 'is', null)
                .then(eb.ref('c.own'))
                .else(eb('c.tutor_to', '=', me))
                .end()
                .as('on_tutor'),
            ])
            .where((eb) => eb.or([eb.ref('c.own'), eb('c.shuttle_to', '=', me), eb('c.tutor_to', '=', me)])),
        )
        .selectFrom('mine as m')
        .select((eb) => {
          const state = (s: BoardStateName) => eb('m.state', '=', sql.lit(s));
          const inCentre = state('in_centre');
          const tutored = eb.and([eb.ref('m.on_tutor'), eb('m.tutoring_type', 'is not', null), inCentre]);
          /** each count's condition, also the filter of the students its list names */
          const where = {
            picked_up: state('picked_up'),
            in_centre: inCentre,
            left: state('left'),
            on_leave: state('on_leave'),
            to_pick_up: eb.and([eb.ref('m.on_shuttle'), eb.ref('m.needs_shuttle'), state('expected')]),
            to_feed: eb.and([eb.ref('m.needs_dinner'), inCentre, eb('m.dinner_at', 'is', null)]),
            to_tutor: eb.and([tutored, eb('m.tutor_started_at', 'is', null)]),
            tutoring: eb.and([tutored, eb('m.tutor_started_at', 'is not', null), eb('m.tutor_ended_at', 'is', null)]),
            to_hand_over: inCentre,
          } satisfies Record<TodayTaskList | 'to_hand_over', Expression<SqlBool>>;
          const count = (w?: Expression<SqlBool>) => sql<number>`(${w ? eb.fn.countAll().filterWhere(w) : eb.fn.countAll()})::int`;
          const student = jsonBuildObject({ id: eb.ref('m.id'), name: eb.ref('m.name'), class_name: eb.ref('m.class_name') });
          const list = (k: TodayTaskList) =>
            firstOf(student, [eb.ref('m.class_name'), eb.ref('m.name'), eb.ref('m.id')], where[k], TODAY_TASK_LIST_MAX);
          return [
            text(eb.selectFrom('d').select('d.day'), 'YYYY-MM-DD').as('day'),
            count().as('total'),
            count(state('expected')).as('expected'),
            count(where.picked_up).as('picked_up'),
            count(where.in_centre).as('in_centre'),
            count(where.left).as('left'),
            count(where.on_leave).as('on_leave'),
            count(where.to_pick_up).as('to_pick_up'),
            count(where.to_feed).as('to_feed'),
            count(where.to_tutor).as('to_tutor'),
            count(where.tutoring).as('tutoring'),
            count(where.to_hand_over).as('to_hand_over'),
            jsonBuildObject({
              to_pick_up: list('to_pick_up'),
              picked_up: list('picked_up'),
              in_centre: list('in_centre'),
              to_feed: list('to_feed'),
              to_tutor: list('to_tutor'),
              tutoring: list('tutoring'),
              left: list('left'),
              on_leave: list('on_leave'),
            } satisfies Record<TodayTaskList, unknown>).as('students'),
          ];
        })
        .executeTakeFirstOrThrow()
    );
  }

  /** The care classes the teacher heads or has a duty in, by name, and whether the teacher heads each. */
  myClasses(schoolId: number, me: number) {
    return kdb(this.db)
      .selectFrom('care_classes as c')
      .select((eb) => ['c.id', 'c.name', eb('c.head_teacher_id', 'is not distinct from', me).$castTo<boolean>().as('head_teacher')])
      .where('c.school_id', '=', schoolId)
      .where('c.deleted_at', 'is', null)
      .where((eb) =>
        eb.or([
          eb('c.head_teacher_id', '=', me),
          eb.exists(eb.selectFrom('duty_assignments as da').select(one).whereRef('da.class_id', '=', 'c.id').where('da.teacher_id', '=', me)),
        ]),
      )
      .orderBy('c.name')
      .orderBy('c.id')
      .execute();
  }

  /**
   * The caller's shuttle students today (with their day, day school and dismissal time: the earliest start of the
   * student's own time slots running today, else of the class's time slot when it runs today), by dismissal time, day
   * school and name.
   */
  shuttle(schoolId: number, me: number) {
    return mine(this.db, schoolId, me, 'shuttle')
      .leftJoin('users as pu', 'pu.id', 'sd.picked_up_by')
      .select((eb) => [
        text(eb.ref('d.day'), 'YYYY-MM-DD').as('day'),
        's.id',
        's.name',
        's.grade',
        's.class_name',
        's.day_school',
        careClass(eb).as('care_class'),
        boardState(eb).as('state'),
        'sd.picked_up_at',
        'sd.picked_up_by',
        'pu.name as picked_up_by_name',
        text(
          eb.fn.coalesce(
            eb
              .selectFrom('student_class_times as sct')
              .innerJoin('class_times as ct', (j) => j.onRef('ct.id', '=', 'sct.class_time_id').on('ct.deleted_at', 'is', null))
              .select((x) => x.fn.min('ct.start_time').as('start'))
              .whereRef('sct.student_id', '=', 's.id')
              .where((x) => x(x.ref('d.dow'), '=', x.fn.any('ct.weekdays'))),
            eb
              .selectFrom('class_times as ct')
              .select('ct.start_time')
              .whereRef('ct.id', '=', 'cc.class_time_id')
              .where('ct.deleted_at', 'is', null)
              .where((x) => x(x.ref('d.dow'), '=', x.fn.any('ct.weekdays'))),
          ),
          'HH24:MI',
        )
          .$castTo<string | null>()
          .as('dismissal_time'),
        handedBy(eb, me),
      ])
      .where((eb) => eb.ref('s.needs_shuttle'))
      .orderBy('dismissal_time', (o) => o.nullsLast())
      .orderBy('s.day_school', (o) => o.nullsLast())
      .orderBy('s.name')
      .orderBy('s.id')
      .execute();
  }

  /** The caller's tutoring students today (with their day), by care class and name. */
  tutor(schoolId: number, me: number) {
    return mine(this.db, schoolId, me, 'tutor')
      .select((eb) => [
        text(eb.ref('d.day'), 'YYYY-MM-DD').as('day'),
        's.id',
        's.name',
        's.grade',
        careClass(eb).as('care_class'),
        eb.ref('s.tutoring_type').$notNull().as('tutoring_type'),
        boardState(eb).as('state'),
        'sd.tutor_started_at',
        'sd.tutor_ended_at',
        handedBy(eb, me),
      ])
      .where('s.tutoring_type', 'is not', null)
      .orderBy('cc.name')
      .orderBy('cc.id')
      .orderBy('s.name')
      .orderBy('s.id')
      .execute();
  }

  /** A student on the caller's tutoring list today, with today's tutoring and who started and ended it. */
  tutorStudent(schoolId: number, me: number, studentId: number) {
    return mine(this.db, schoolId, me, 'tutor')
      .leftJoin('users as ts', 'ts.id', 'sd.tutor_started_by')
      .leftJoin('users as te', 'te.id', 'sd.tutor_ended_by')
      .select((eb) => [
        text(eb.ref('d.day'), 'YYYY-MM-DD').as('day'),
        's.id',
        's.name',
        's.grade',
        's.class_name',
        careClass(eb).as('care_class'),
        's.tutoring_type',
        boardState(eb).as('state'),
        'sd.tutor_started_at',
        'sd.tutor_started_by',
        'ts.name as tutor_started_by_name',
        'sd.tutor_ended_at',
        'sd.tutor_ended_by',
        'te.name as tutor_ended_by_name',
      ])
      .where('s.id', '=', studentId)
      .executeTakeFirst();
  }

  /** The student's flow events of a day, in version order, with who did each. */
  dayEvents(schoolId: number, studentId: number, day: string) {
    return kdb(this.db)
      .selectFrom('flow_events as e')
      .leftJoin('users as u', 'u.id', 'e.actor_id')
      .select((eb) => [
        'e.type',
        'e.occurred_at as at',
        'e.actor_id as actor',
        'u.name as actor_name',
        eb.ref('e.payload').$castTo<Record<string, unknown>>().as('payload'),
      ])
      .where('e.student_id', '=', studentId)
      .where('e.school_id', '=', schoolId)
      .where('e.day', '=', day)
      .orderBy('e.version')
      .execute();
  }

  /**
   * The student's homework of the school open on the day (set on or before it, due on or after it) with its state,
   * the earliest due first, at most `max` (the columns of the homework module's studentDay).
   */
  dayHomework(schoolId: number, studentId: number, day: string, max: number) {
    return kdb(this.db)
      .selectFrom('homework_submissions as hs')
      .innerJoin('homeworks as h', 'h.id', 'hs.homework_id')
      .innerJoin('users as hu', 'hu.id', 'h.teacher_id')
      .leftJoin('users as su', 'su.id', 'hs.updated_by')
      .select((eb) => [
        'h.id',
        'h.kind',
        'h.class_id',
        eb.fn
          .coalesce(
            eb
              .case()
              .when('h.kind', '=', 'care')
              .then(eb.selectFrom('care_classes as cc').select('cc.name').whereRef('cc.id', '=', 'h.class_id'))
              .else(eb.selectFrom('teaching_classes as tc').select('tc.name').whereRef('tc.id', '=', 'h.class_id'))
              .end(),
            sql.lit(''),
          )
          .$castTo<string>()
          .as('class_name'),
        'h.session_id',
        eb
          .selectFrom('class_sessions as cs')
          .select((x) => text(x.ref('cs.day'), 'YYYY-MM-DD').as('day'))
          .whereRef('cs.id', '=', 'h.session_id')
          .as('session_day'),
        'h.title',
        'h.content',
        eb.ref('h.attachments').$castTo<Homework['attachments']>().as('attachments'),
        text(eb.ref('h.set_day'), 'YYYY-MM-DD').as('set_day'),
        text(eb.ref('h.due_day'), 'YYYY-MM-DD').as('due_day'),
        'h.teacher_id',
        'hu.name as teacher_name',
        'h.created_at',
        'hs.state',
        'hs.note',
        'hs.photo_url',
        'hs.home_note',
        'su.name as updated_by_name',
        'hs.updated_at',
        'hs.version',
      ])
      .where('hs.student_id', '=', studentId)
      .where('h.school_id', '=', schoolId)
      .where('h.set_day', '<=', sql<string>`${day}::date`)
      .where('h.due_day', '>=', sql<string>`${day}::date`)
      .orderBy('h.due_day')
      .orderBy('h.id')
      .limit(max)
      .execute();
  }

  /** A student on the caller's list of the duty today, its row locked (`for update`), in the hand-over's transaction. */
  lockMine(on: Queryable, schoolId: number, me: number, duty: HandoverDuty, studentId: number) {
    return mine(on, schoolId, me, duty)
      .select((eb) => [
        text(eb.ref('d.day'), 'YYYY-MM-DD').as('day'),
        boardState(eb).as('state'),
        's.needs_shuttle',
        's.tutoring_type',
        'sd.tutor_ended_at',
      ])
      .where('s.id', '=', studentId)
      .forUpdate('s')
      .executeTakeFirst();
  }

  /** An active on-job teacher of the school other than the caller who has the duty (`for share`: kept so until commit). */
  handOverTeacher(on: Queryable, schoolId: number, me: number, teacherId: number, duty: HandoverDuty) {
    return kdb(on)
      .selectFrom('users as u')
      .select('u.name')
      .where('u.id', '=', teacherId)
      .where('u.school_id', '=', schoolId)
      .where('u.id', '<>', me)
      .where('u.deleted_at', 'is', null)
      .where('u.status', '=', UserStatus.Active)
      .where('u.job_status', '=', JobStatus.OnJob)
      .where('u.role', 'in', [Role.Teacher, Role.HeadTeacher])
      .where((eb) => eb(eb.val<string>(duty), '=', eb.fn.any('u.duties')))
      .forShare()
      .executeTakeFirst();
  }

  /** Records the hand-over of the student's task of the day; a second one of the same task replaces the first. */
  async handOver(
    on: Queryable,
    h: { schoolId: number; studentId: number; day: string; duty: HandoverDuty; from: number; to: number },
  ): Promise<void> {
    await kdb(on)
      .insertInto('task_handovers')
      .values({ school_id: h.schoolId, student_id: h.studentId, day: h.day, duty: h.duty, from_teacher_id: h.from, to_teacher_id: h.to })
      .onConflict((oc) =>
        oc.columns(['student_id', 'day', 'duty']).doUpdateSet((eb) => ({
          from_teacher_id: eb.ref('excluded.from_teacher_id'),
          to_teacher_id: eb.ref('excluded.to_teacher_id'),
          created_at: sql`now()`,
        })),
      )
      .execute();
  }

  /** The school's date (YYYY-MM-DD). */
  async today(schoolId: number): Promise<string> {
    const r = await kdb(this.db)
      .selectNoFrom(text(schoolTodayOf(schoolId), 'YYYY-MM-DD').as('today'))
      .executeTakeFirstOrThrow();
    return r.today;
  }
}
