import { StudentStatus, type TutorialStudentInfo } from '@wantuo/shared';
import { sql, type Expression } from 'kysely';
import { kdb, pageRows } from '../../core/database/kysely';
import type { PageQuery, Queryable } from '../../core/database/sql-kit';
import { allOf, dayText, endClock, todayOf } from '../teaching/teaching-schedule.repository';

/** The SQL of the tutoring classes' students: members, who may join, a student's records, their other sessions (issue 38). */

/** A scalar subquery (a count) as a typed expression. */
const scalar = <T>(q: Expression<unknown>) => sql<T>`(${q})`;

/** A page of the class's students by name, with the sessions each attended (present or late). */
export function memberPage(on: Queryable, classId: number, q: PageQuery) {
  const total = kdb(on)
    .selectFrom('tutoring_class_students')
    .select(sql<number>`count(*)::int`.as('total'))
    .where('class_id', '=', classId);
  const list = kdb(on)
    .selectFrom('tutoring_class_students as m')
    .innerJoin('students as s', 's.id', 'm.student_id')
    .select((eb) => [
      's.id',
      's.name',
      's.grade',
      's.class_name',
      'm.plan',
      'm.joined_at',
      scalar<number>(
        eb
          .selectFrom('session_roll_calls as rc')
          .innerJoin('class_sessions as cs', 'cs.id', 'rc.session_id')
          .select(sql`count(*)::int`.as('n'))
          .whereRef('rc.student_id', '=', 's.id')
          .where('cs.kind', '=', 'tutoring')
          .whereRef('cs.class_id', '=', 'm.class_id')
          .where('rc.status', 'in', ['present', 'late']),
      ).as('attended'),
    ])
    .where('m.class_id', '=', classId)
    .orderBy('s.name')
    .orderBy('s.id');
  return pageRows(on, total, list, q);
}

/** A page of the school's active students not in the class, by name, with their care class and tutoring type. */
export function selectablePage(on: Queryable, schoolId: number, classId: number, name: string | null, q: PageQuery) {
  const base = kdb(on)
    .selectFrom('students as s')
    .where('s.school_id', '=', schoolId)
    .where('s.status', '=', StudentStatus.Active)
    .$if(name !== null, (b) => b.where('s.name', 'ilike', name!))
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('tutoring_class_students as m')
            .select(sql.lit(1).as('one'))
            .where('m.class_id', '=', classId)
            .whereRef('m.student_id', '=', 's.id'),
        ),
      ),
    );
  const list = base
    .select((eb) => [
      's.id',
      's.name',
      's.grade',
      's.class_name',
      's.tutoring_type',
      scalar<string | null>(
        eb
          .selectFrom('care_class_students as ccs')
          .innerJoin('care_classes as cc', (j) => j.onRef('cc.id', '=', 'ccs.class_id').on('cc.deleted_at', 'is', null))
          .select('cc.name')
          .whereRef('ccs.student_id', '=', 's.id')
          .orderBy('cc.id')
          .limit(1),
      ).as('care_class_name'),
    ])
    .orderBy('s.name')
    .orderBy('s.id');
  return pageRows(on, base.select(sql<number>`count(*)::int`.as('total')), list, q);
}

export async function insertMembers(
  on: Queryable,
  v: { schoolId: number; classId: number; ids: number[]; plan: string | null; by: number },
): Promise<void> {
  await kdb(on)
    .insertInto('tutoring_class_students')
    .columns(['school_id', 'class_id', 'student_id', 'plan', 'added_by'])
    .expression(
      kdb(on).selectNoFrom(() => [
        sql<number>`${v.schoolId}`.as('school_id'),
        sql<number>`${v.classId}`.as('class_id'),
        sql<number>`unnest(${v.ids}::int[])`.as('student_id'),
        sql<string | null>`${v.plan}`.as('plan'),
        sql<number>`${v.by}`.as('added_by'),
      ]),
    )
    .execute();
}

/** Removes a student from the class; whether they were in it. */
export async function deleteMember(on: Queryable, classId: number, studentId: number): Promise<boolean> {
  const rows = await kdb(on)
    .deleteFrom('tutoring_class_students')
    .where('class_id', '=', classId)
    .where('student_id', '=', studentId)
    .returning('student_id')
    .execute();
  return rows.length > 0;
}

/** One student's tutoring in a class of the school: the student, the class, the plan and the counts. */
export function memberInfo(on: Queryable, schoolId: number, classId: number, studentId: number) {
  return kdb(on)
    .selectFrom('tutoring_class_students as m')
    .innerJoin('tutoring_classes as c', (j) => j.onRef('c.id', '=', 'm.class_id').on('c.deleted_at', 'is', null).on('c.school_id', '=', schoolId))
    .innerJoin('tutoring_types as ty', 'ty.id', 'c.type_id')
    .innerJoin('users as u', 'u.id', 'c.teacher_id')
    .innerJoin('students as s', 's.id', 'm.student_id')
    .select((eb) => [
      sql<TutorialStudentInfo['student']>`json_build_object('id', ${eb.ref('s.id')}, 'name', ${eb.ref('s.name')}, 'grade', ${eb.ref('s.grade')},
        'class_name', ${eb.ref('s.class_name')}, 'tutoring_type', ${eb.ref('s.tutoring_type')})`.as('student'),
      sql<TutorialStudentInfo['class']>`json_build_object('id', ${eb.ref('c.id')}, 'name', ${eb.ref('c.name')}, 'type_name', ${eb.ref('ty.name')},
        'teacher_name', ${eb.ref('u.name')}, 'duration_min', ${eb.ref('c.duration_min')}, 'price_fen', ${eb.ref('c.price_fen')}::float8)`.as('class'),
      'm.plan',
      'm.joined_at',
      sql<TutorialStudentInfo['counts']>`(${eb
        .selectFrom('class_sessions as cs')
        .leftJoin('session_roll_calls as rc', (j) => j.onRef('rc.session_id', '=', 'cs.id').onRef('rc.student_id', '=', 's.id'))
        .select(
          sql`json_build_object('sessions', count(*) filter (where cs.state <> 'cancelled'), 'held', count(*) filter (where cs.state = 'held'),
            'planned', count(*) filter (where cs.state = 'planned'), 'present', count(rc.status) filter (where rc.status = 'present'),
            'late', count(rc.status) filter (where rc.status = 'late'), 'absent', count(rc.status) filter (where rc.status = 'absent'),
            'leave', count(rc.status) filter (where rc.status = 'leave'))`.as('counts'),
        )
        .where('cs.kind', '=', 'tutoring')
        .whereRef('cs.class_id', '=', 'c.id')})`.as('counts'),
    ])
    .where('m.class_id', '=', classId)
    .where('m.student_id', '=', studentId)
    .executeTakeFirst();
}

/** The class's next five planned sessions from the school's today. */
export function nextSessions(on: Queryable, schoolId: number, classId: number) {
  return kdb(on)
    .selectFrom('class_sessions as s')
    .crossJoin(todayOf(on, schoolId))
    .leftJoin('rooms as r', 'r.id', 's.room_id')
    .select((eb) => [
      's.id',
      dayText(eb.ref('s.day')).as('day'),
      endClock(eb.ref('s.start_min')).as('start_time'),
      endClock(eb.ref('s.end_min')).as('end_time'),
      'r.name as room_name',
    ])
    .where('s.kind', '=', 'tutoring')
    .where('s.class_id', '=', classId)
    .where('s.state', '=', 'planned')
    .where((eb) => eb('s.day', '>=', eb.ref('d.today')))
    .orderBy('s.day')
    .orderBy('s.start_min')
    .limit(5)
    .execute();
}

/** A page of the class's sessions up to the school's today, newest first, with the student's roll call. */
export function recordPage(on: Queryable, schoolId: number, classId: number, studentId: number, q: PageQuery) {
  const w = kdb(on)
    .selectFrom('class_sessions as s')
    .crossJoin(todayOf(on, schoolId))
    .selectAll('s')
    .where('s.kind', '=', 'tutoring')
    .where('s.class_id', '=', classId)
    .where((eb) => eb('s.day', '<=', eb.ref('d.today')));
  const total = kdb(on)
    .selectFrom(w.as('w'))
    .select(sql<number>`count(*)::int`.as('total'));
  const list = kdb(on)
    .selectFrom(w.as('w'))
    .leftJoin('session_roll_calls as rc', (j) => j.onRef('rc.session_id', '=', 'w.id').on('rc.student_id', '=', studentId))
    .select((eb) => [
      'w.id as session_id',
      dayText(eb.ref('w.day')).as('day'),
      endClock(eb.ref('w.start_min')).as('start_time'),
      endClock(eb.ref('w.end_min')).as('end_time'),
      'w.state',
      sql<TutorialStudentInfo['records']['list'][number]['status']>`${eb.ref('rc.status')}`.as('status'),
      'rc.at',
    ])
    .orderBy('w.day', 'desc')
    .orderBy('w.start_min', 'desc')
    .orderBy('w.id', 'desc');
  return pageRows(on, total, list, q);
}

// ---------------------------------------------------------------- clashes

/** The students' tutoring sessions (not cancelled) over [from, to] of their classes other than `ownClass`, but `exceptSessions`. */
export function studentsTutoringSessions(
  on: Queryable,
  schoolId: number,
  q: { from: string; to: string; studentIds: number[]; ownClass: number; exceptSessions: number[] },
) {
  return kdb(on)
    .selectFrom('tutoring_class_students as m')
    .innerJoin('tutoring_classes as c', (j) => j.onRef('c.id', '=', 'm.class_id').on('c.deleted_at', 'is', null))
    .innerJoin('class_sessions as s', (j) =>
      j
        .on('s.kind', '=', 'tutoring')
        .onRef('s.class_id', '=', 'm.class_id')
        .on(sql<boolean>`s.day between ${q.from}::date and ${q.to}::date`)
        .on('s.state', '<>', 'cancelled'),
    )
    .select((eb) => ['m.student_id as who', 's.id', 's.class_id', dayText(eb.ref('s.day')).as('day'), 's.start_min', 's.end_min'])
    .where('m.student_id', '=', sql<number>`any(${q.studentIds}::int[])`)
    .where('m.school_id', '=', schoolId)
    .where('m.class_id', '<>', q.ownClass)
    .where('s.id', '<>', allOf(q.exceptSessions))
    .execute();
}
