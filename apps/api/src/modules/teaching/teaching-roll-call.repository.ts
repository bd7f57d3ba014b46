import { DATA_PERIOD_SQL, LeaveStatus, type DataGroup, type RollCallCount, type RollCallStatus } from '@wantuo/shared';
import { sql, type Expression } from 'kysely';
import { kdb } from '../../core/database/kysely';
import type { Queryable } from '../../core/database/sql-kit';
import { dayText, type SessionKind } from './teaching-schedule.repository';

/** The SQL of the roll call of a session (teaching or tutoring) and of its counts (issue 38). */

/** The session's class name, day and state (`teacher`: only theirs), locked for update when asked. */
export function rollCallSession(on: Queryable, schoolId: number, id: number, teacher: number | null, lock: boolean) {
  return kdb(on)
    .selectFrom('class_sessions as s')
    .leftJoin('teaching_classes as c', (j) => j.on('s.kind', '=', 'teaching').onRef('c.id', '=', 's.class_id'))
    .leftJoin('tutoring_classes as u', (j) => j.on('s.kind', '=', 'tutoring').onRef('u.id', '=', 's.class_id'))
    .select((eb) => [
      's.id',
      sql<SessionKind>`${eb.ref('s.kind')}`.as('kind'),
      's.class_id',
      sql<string>`coalesce(${eb.ref('c.name')}, ${eb.ref('u.name')})`.as('class_name'),
      dayText(eb.ref('s.day')).as('day'),
      's.state',
    ])
    .where('s.school_id', '=', schoolId)
    .where('s.id', '=', id)
    .$if(teacher !== null, (b) => b.where('s.teacher_id', '=', teacher!))
    .$if(lock, (b) => b.forUpdate('s'))
    .executeTakeFirst();
}

/** The class's students now, and those who left it after a roll call of this session, by name, with their roll call. */
export function rollCallStudents(on: Queryable, kind: SessionKind, sessionId: number, classId: number, day: string) {
  const k = kdb(on);
  const members =
    kind === 'teaching'
      ? k.selectFrom('teaching_class_students').select('student_id').where('class_id', '=', classId)
      : k.selectFrom('tutoring_class_students').select('student_id').where('class_id', '=', classId);
  return k
    .with('who', () => members.union(k.selectFrom('session_roll_calls').select('student_id').where('session_id', '=', sessionId)))
    .selectFrom('who')
    .innerJoin('students as st', 'st.id', 'who.student_id')
    .leftJoin('session_roll_calls as rc', (j) => j.on('rc.session_id', '=', sessionId).onRef('rc.student_id', '=', 'st.id'))
    .leftJoin('users as u', 'u.id', 'rc.by_user')
    .select((eb) => [
      'st.id as student_id',
      'st.name',
      eb('rc.status', 'is not', null).$castTo<boolean>().as('saved'),
      eb
        .exists(
          eb
            .selectFrom('leave_requests as l')
            .select(sql.lit(1).as('one'))
            .whereRef('l.student_id', '=', 'st.id')
            .where('l.status', '=', LeaveStatus.Approved)
            .where(sql<boolean>`${day}::date between l.start_day and l.end_day`),
        )
        .$castTo<boolean>()
        .as('on_leave'),
      sql<RollCallStatus | null>`${eb.ref('rc.status')}`.as('status'),
      'u.name as by_name',
      'rc.at',
    ])
    .orderBy('st.name')
    .orderBy('st.id')
    .execute();
}

/** The students of `ids` not in the class, by id, with their name when the school's. */
export function outsiders(on: Queryable, kind: SessionKind, ids: number[], classId: number, schoolId: number) {
  const k = kdb(on);
  return k
    .selectFrom(k.selectNoFrom(sql<number>`unnest(${ids}::int[])`.as('id')).as('x'))
    .leftJoin('students as st', (j) => j.onRef('st.id', '=', 'x.id').on('st.school_id', '=', schoolId))
    .select(['x.id', 'st.name'])
    .where((eb) =>
      eb.not(
        eb.exists(
          kind === 'teaching'
            ? eb
                .selectFrom('teaching_class_students as m')
                .select(sql.lit(1).as('one'))
                .where('m.class_id', '=', classId)
                .whereRef('m.student_id', '=', 'x.id')
            : eb
                .selectFrom('tutoring_class_students as m')
                .select(sql.lit(1).as('one'))
                .where('m.class_id', '=', classId)
                .whereRef('m.student_id', '=', 'x.id'),
        ),
      ),
    )
    .orderBy('x.id')
    .execute();
}

/** Saves the statuses (one entry a student), replacing a roll call already saved. */
export async function saveRollCalls(
  on: Queryable,
  v: { sessionId: number; schoolId: number; by: number; studentIds: number[]; statuses: RollCallStatus[] },
): Promise<void> {
  const k = kdb(on);
  await k
    .insertInto('session_roll_calls')
    .columns(['session_id', 'student_id', 'school_id', 'status', 'by_user'])
    .expression(
      k.selectNoFrom(() => [
        sql<number>`${v.sessionId}`.as('session_id'),
        sql<number>`unnest(${v.studentIds}::int[])`.as('student_id'),
        sql<number>`${v.schoolId}`.as('school_id'),
        sql<RollCallStatus>`unnest(${v.statuses}::varchar[])`.as('status'),
        sql<number>`${v.by}`.as('by_user'),
      ]),
    )
    .onConflict((oc) =>
      oc
        .columns(['session_id', 'student_id'])
        .doUpdateSet((eb) => ({ status: eb.ref('excluded.status'), by_user: eb.ref('excluded.by_user'), at: sql`now()` })),
    )
    .execute();
}

/** The session held (its roll call taken) and its version on. */
export async function markHeld(on: Queryable, id: number): Promise<void> {
  await kdb(on)
    .updateTable('class_sessions')
    .set((eb) => ({ state: 'held', version: eb('version', '+', 1), updated_at: sql`now()` }))
    .where('id', '=', id)
    .execute();
}

/** The rows whose roll-call status is `status`. */
const counted = (col: Expression<RollCallStatus>, status: RollCallStatus) => sql<number>`count(*) filter (where ${col} = ${sql.lit(status)})::int`;

/**
 * Per period (the data centre's day, week or month of the session's day) and kind, the sessions with a roll call and
 * each status saved (`teacher`: only the sessions they teach). One statement over (school, day).
 */
export function rollCallCounts(
  on: Queryable,
  q: { schoolId: number; from: string; to: string; group: DataGroup; kind: SessionKind | null; teacher: number | null },
): Promise<RollCallCount[]> {
  // the data centre's SQL twin of the period (a constant expression of s.day, no value in it)
  const period = sql.raw(DATA_PERIOD_SQL[q.group]('s.day'));
  return kdb(on)
    .selectFrom('class_sessions as s')
    .innerJoin('session_roll_calls as rc', 'rc.session_id', 's.id')
    .select((eb) => [
      sql<string>`${period}::text || ':' || ${eb.ref('s.kind')}`.as('id'),
      sql<string>`${period}::text`.as('period'),
      sql<SessionKind>`${eb.ref('s.kind')}`.as('kind'),
      sql<number>`count(distinct ${eb.ref('s.id')})::int`.as('sessions'),
      sql<number>`count(*)::int`.as('total'),
      counted(eb.ref('rc.status'), 'present').as('present'),
      counted(eb.ref('rc.status'), 'late').as('late'),
      counted(eb.ref('rc.status'), 'absent').as('absent'),
      counted(eb.ref('rc.status'), 'leave').as('leave'),
    ])
    .where('s.school_id', '=', q.schoolId)
    .where(sql<boolean>`s.day between ${q.from}::date and ${q.to}::date`)
    .where('s.state', '<>', 'cancelled')
    .$if(q.kind !== null, (b) => b.where('s.kind', '=', q.kind!))
    .$if(q.teacher !== null, (b) => b.where('s.teacher_id', '=', q.teacher!))
    .groupBy([sql`2`, sql`3`])
    .orderBy(sql`2`, 'desc')
    .orderBy(sql`3`)
    .execute();
}
