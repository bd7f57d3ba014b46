import { type AddTeachingClassInput, type EditTeachingClassInput } from '@wantuo/shared';
import { sql, type Expression, type InferResult } from 'kysely';
import { kdb, pageRows } from '../../core/database/kysely';
import type { PageQuery, Queryable } from '../../core/database/sql-kit';
import { dayText, clock, endClock, todayOf } from './teaching-schedule.repository';

/** The SQL of the teaching classes and the teacher's overview (issue 38): every statement typed by the schema. */

/** A scalar subquery (a count) as a typed expression. */
const scalar = <T>(q: Expression<unknown>) => sql<T>`(${q})`;

/** Classes with their teacher, room and counts (`c` teaching_classes): the answer TeachingClass. */
export const classRows = (on: Queryable) =>
  kdb(on)
    .selectFrom('teaching_classes as c')
    .innerJoin('users as u', 'u.id', 'c.teacher_id')
    .leftJoin('rooms as r', 'r.id', 'c.room_id')
    .select((eb) => [
      'c.id',
      'c.name',
      'c.subject',
      'c.teacher_id',
      'u.name as teacher_name',
      'c.room_id',
      'r.name as room_name',
      'c.capacity',
      scalar<number>(
        eb
          .selectFrom('teaching_class_students as m')
          .select(sql`count(*)::int`.as('n'))
          .whereRef('m.class_id', '=', 'c.id'),
      ).as('students'),
      'c.sessions_count',
      scalar<number>(
        eb
          .selectFrom('class_sessions as s')
          .select(sql`count(*)::int`.as('n'))
          .where('s.kind', '=', 'teaching')
          .whereRef('s.class_id', '=', 'c.id')
          .where('s.state', '<>', 'cancelled'),
      ).as('sessions_scheduled'),
      scalar<number>(
        eb
          .selectFrom('class_sessions as s')
          .select(sql`count(*)::int`.as('n'))
          .where('s.kind', '=', 'teaching')
          .whereRef('s.class_id', '=', 'c.id')
          .where('s.state', '=', 'held'),
      ).as('sessions_held'),
      sql<number>`${eb.ref('c.fee_fen')}::float8`.as('fee_fen'),
      eb.cast<number>('c.status', 'integer').as('status'),
      'c.version',
      'c.created_at',
    ]);

export type TeachingClassRow = InferResult<ReturnType<typeof classRows>>[number];

/** One class of the school (not deleted; `teacher`: only theirs). */
export function classRow(on: Queryable, schoolId: number, id: number, teacher: number | null): Promise<TeachingClassRow | undefined> {
  return classRows(on)
    .where('c.school_id', '=', schoolId)
    .where('c.id', '=', id)
    .where('c.deleted_at', 'is', null)
    .$if(teacher !== null, (q) => q.where('c.teacher_id', '=', teacher!))
    .executeTakeFirst();
}

/** A page of the school's classes newest first, by name, status and (`teacher`) teacher. */
export function classPage(on: Queryable, f: { schoolId: number; name: string | null; status: number | null; teacher: number | null }, q: PageQuery) {
  const total = kdb(on)
    .selectFrom('teaching_classes as c')
    .select(sql<number>`count(*)::int`.as('total'))
    .where('c.school_id', '=', f.schoolId)
    .where('c.deleted_at', 'is', null)
    .$if(f.name !== null, (b) => b.where('c.name', 'ilike', f.name!))
    .$if(f.status !== null, (b) => b.where('c.status', '=', f.status!))
    .$if(f.teacher !== null, (b) => b.where('c.teacher_id', '=', f.teacher!));
  const list = classRows(on)
    .where('c.school_id', '=', f.schoolId)
    .where('c.deleted_at', 'is', null)
    .$if(f.name !== null, (b) => b.where('c.name', 'ilike', f.name!))
    .$if(f.status !== null, (b) => b.where('c.status', '=', f.status!))
    .$if(f.teacher !== null, (b) => b.where('c.teacher_id', '=', f.teacher!))
    .orderBy('c.id', 'desc');
  return pageRows(on, total, list, q);
}

/** A teaching class of the school (not deleted; `teacher`: only theirs), locked for update when asked. */
export function lockedClass(on: Queryable, schoolId: number, id: number, teacher: number | null, lock = false) {
  return kdb(on)
    .selectFrom('teaching_classes')
    .select((eb) => [
      'id',
      'name',
      'teacher_id',
      'room_id',
      'capacity',
      'sessions_count',
      eb.cast<number>('status', 'integer').as('status'),
      'version',
    ])
    .where('school_id', '=', schoolId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .$if(teacher !== null, (q) => q.where('teacher_id', '=', teacher!))
    .$if(lock, (q) => q.forUpdate())
    .executeTakeFirst();
}

export type LockedClass = NonNullable<Awaited<ReturnType<typeof lockedClass>>>;

export async function insertClass(on: Queryable, schoolId: number, input: AddTeachingClassInput, by: number): Promise<number> {
  const r = await kdb(on)
    .insertInto('teaching_classes')
    .values({
      school_id: schoolId,
      name: input.name,
      subject: input.subject,
      teacher_id: input.teacher_id,
      room_id: input.room_id ?? null,
      capacity: input.capacity,
      sessions_count: input.sessions_count,
      fee_fen: input.fee_fen,
      created_by: by,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

/** The class's students and its sessions not cancelled. */
export function classCounts(on: Queryable, classId: number) {
  return kdb(on)
    .selectNoFrom((eb) => [
      scalar<number>(
        eb
          .selectFrom('teaching_class_students')
          .select(sql`count(*)::int`.as('n'))
          .where('class_id', '=', classId),
      ).as('students'),
      scalar<number>(
        eb
          .selectFrom('class_sessions')
          .select(sql`count(*)::int`.as('n'))
          .where('kind', '=', 'teaching')
          .where('class_id', '=', classId)
          .where('state', '<>', 'cancelled'),
      ).as('scheduled'),
    ])
    .executeTakeFirstOrThrow();
}

/** Sessions given a teacher and (each) a room, their versions moved on; answers how many. */
export async function reassignSessions(on: Queryable, ids: number[], teacherId: number, roomIds: Array<number | null>): Promise<number> {
  const r = await sql<{ n: number }>`
    with u as (update class_sessions s set teacher_id = ${teacherId}, room_id = v.room_id, version = s.version + 1, updated_at = now()
      from unnest(${ids}::int[], ${roomIds}::int[]) as v(id, room_id) where s.id = v.id returning s.id) select count(*)::int as n from u`.execute(
    kdb(on),
  );
  return r.rows[0].n;
}

export async function updateClass(on: Queryable, id: number, input: EditTeachingClassInput, roomId: number | null): Promise<void> {
  await kdb(on)
    .updateTable('teaching_classes')
    .set((eb) => ({
      name: input.name,
      subject: input.subject,
      teacher_id: input.teacher_id,
      room_id: roomId,
      capacity: input.capacity,
      sessions_count: input.sessions_count,
      fee_fen: input.fee_fen,
      version: eb('version', '+', 1),
      updated_at: sql`now()`,
    }))
    .where('id', '=', id)
    .execute();
}

export async function setClassStatus(on: Queryable, id: number, status: number): Promise<void> {
  await kdb(on)
    .updateTable('teaching_classes')
    .set((eb) => ({ status, version: eb('version', '+', 1), updated_at: sql`now()` }))
    .where('id', '=', id)
    .execute();
}

/** The class's version moved on (its members changed). */
export async function bumpClass(on: Queryable, id: number): Promise<void> {
  await kdb(on)
    .updateTable('teaching_classes')
    .set((eb) => ({ version: eb('version', '+', 1), updated_at: sql`now()` }))
    .where('id', '=', id)
    .execute();
}

/** The teacher's own classes (at most 100, running first). */
export function teacherClasses(on: Queryable, schoolId: number, teacherId: number) {
  return kdb(on)
    .selectFrom('teaching_classes as c')
    .leftJoin('rooms as r', 'r.id', 'c.room_id')
    .select((eb) => [
      'c.id',
      'c.name',
      'c.subject',
      'r.name as room_name',
      scalar<number>(
        eb
          .selectFrom('teaching_class_students as m')
          .select(sql`count(*)::int`.as('n'))
          .whereRef('m.class_id', '=', 'c.id'),
      ).as('students'),
      'c.sessions_count',
      scalar<number>(
        eb
          .selectFrom('class_sessions as s')
          .select(sql`count(*)::int`.as('n'))
          .where('s.kind', '=', 'teaching')
          .whereRef('s.class_id', '=', 'c.id')
          .where('s.state', '=', 'held'),
      ).as('sessions_held'),
      eb.cast<number>('c.status', 'integer').as('status'),
    ])
    .where('c.school_id', '=', schoolId)
    .where('c.teacher_id', '=', teacherId)
    .where('c.deleted_at', 'is', null)
    .orderBy('c.status', 'desc')
    .orderBy('c.id', 'desc')
    .limit(100)
    .execute();
}

/** The teacher's next 10 planned teaching sessions from the school's today. */
export function teacherNextSessions(on: Queryable, schoolId: number, teacherId: number) {
  return kdb(on)
    .selectFrom('class_sessions as s')
    .crossJoin(todayOf(on, schoolId))
    .innerJoin('teaching_classes as c', (j) => j.onRef('c.id', '=', 's.class_id').on('s.kind', '=', 'teaching'))
    .leftJoin('rooms as r', 'r.id', 's.room_id')
    .select((eb) => [
      's.id',
      's.class_id',
      'c.name as class_name',
      dayText(eb.ref('s.day')).as('day'),
      clock(eb.ref('s.start_min')).as('start_time'),
      endClock(eb.ref('s.end_min')).as('end_time'),
      'r.name as room_name',
      's.state',
    ])
    .where('s.teacher_id', '=', teacherId)
    .where((eb) => eb('s.day', '>=', eb.ref('d.today')))
    .where('s.state', '=', 'planned')
    .where('s.school_id', '=', schoolId)
    .orderBy('s.day')
    .orderBy('s.start_min')
    .limit(10)
    .execute();
}

/**
 * The homework module's table, read here (no service call): submissions done and not checked of the teacher's
 * classes (teaching classes they teach, care classes they head or have a duty in).
 */
export async function homeworkToMark(on: Queryable, schoolId: number, teacherId: number): Promise<number> {
  const one = sql.lit(1).as('one');
  const r = await kdb(on)
    .selectFrom('homework_submissions as hs')
    .innerJoin('homeworks as h', 'h.id', 'hs.homework_id')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('hs.state', '=', 'done')
    .where('h.school_id', '=', schoolId)
    .where((eb) =>
      eb.or([
        eb.and([
          eb('h.kind', '=', 'teaching'),
          eb.exists(
            eb
              .selectFrom('teaching_classes as c')
              .select(one)
              .whereRef('c.id', '=', 'h.class_id')
              .where('c.teacher_id', '=', teacherId)
              .where('c.deleted_at', 'is', null),
          ),
        ]),
        eb.and([
          eb('h.kind', '=', 'care'),
          eb.exists(
            eb
              .selectFrom('care_classes as c')
              .select(one)
              .whereRef('c.id', '=', 'h.class_id')
              .where('c.deleted_at', 'is', null)
              .where((w) =>
                w.or([
                  w('c.head_teacher_id', '=', teacherId),
                  w.exists(
                    w.selectFrom('duty_assignments as a').select(one).whereRef('a.class_id', '=', 'c.id').where('a.teacher_id', '=', teacherId),
                  ),
                ]),
              ),
          ),
        ]),
      ]),
    )
    .executeTakeFirstOrThrow();
  return r.n;
}
