import { sql, type Expression, type ExpressionBuilder } from 'kysely';
import { kdb, pageRows, type DB } from '../../core/database/kysely';
import type { PageQuery, Queryable } from '../../core/database/sql-kit';

/** The SQL of the school's time slots and the students' own slots (issue 38): every statement typed by the schema. */

type T = DB & { t: DB['class_times'] };

/** A time column as 'HH:MM'. */
const hhmm = (col: Expression<string>) => sql<string>`to_char(${col}, 'HH24:MI')`;

/** The columns of a slot (`t` class_times) with HH:mm times. */
const slotColumns = (eb: ExpressionBuilder<T, 't'>) => [
  eb.ref('t.id').as('id'),
  eb.ref('t.name').as('name'),
  hhmm(eb.ref('t.start_time')).as('start_time'),
  hhmm(eb.ref('t.end_time')).as('end_time'),
  sql<number[]>`${eb.ref('t.weekdays')}::int[]`.as('weekdays'),
];

/** A scalar subquery (a count) as a typed expression. */
const scalar = <R>(q: Expression<unknown>) => sql<R>`(${q})`;

/** A page of the school's slots (not deleted) by start time, with how many classes and students use each. */
export function slotPage(on: Queryable, schoolId: number, name: string | null, q: PageQuery) {
  const live = kdb(on)
    .selectFrom('class_times as t')
    .where('t.school_id', '=', schoolId)
    .where('t.deleted_at', 'is', null)
    .$if(name !== null, (b) => b.where('t.name', 'ilike', name!));
  const list = live
    .select((eb) => [
      ...slotColumns(eb),
      't.version',
      scalar<number>(
        eb
          .selectFrom('care_classes as cc')
          .select(sql`count(*)::int`.as('n'))
          .whereRef('cc.class_time_id', '=', 't.id')
          .where('cc.deleted_at', 'is', null),
      ).as('class_count'),
      scalar<number>(
        eb
          .selectFrom('student_class_times as st')
          .select(sql`count(*)::int`.as('n'))
          .whereRef('st.class_time_id', '=', 't.id'),
      ).as('student_count'),
    ])
    .orderBy('t.start_time')
    .orderBy('t.end_time')
    .orderBy('t.id');
  return pageRows(on, live.select(sql<number>`count(*)::int`.as('total')), list, q);
}

/** At most 200 of the school's slots by start time (pickers). */
export function slotOptions(on: Queryable, schoolId: number, name: string | null) {
  return kdb(on)
    .selectFrom('class_times as t')
    .select(slotColumns)
    .where('t.school_id', '=', schoolId)
    .where('t.deleted_at', 'is', null)
    .$if(name !== null, (b) => b.where('t.name', 'ilike', name!))
    .orderBy('t.start_time')
    .orderBy('t.end_time')
    .orderBy('t.id')
    .limit(200)
    .execute();
}

/** The slot's answer columns over `class_times` itself (an insert's or an update's returning). */
const returnedSlot = (eb: ExpressionBuilder<DB, 'class_times'>) => [
  eb.ref('class_times.id').as('id'),
  eb.ref('class_times.name').as('name'),
  hhmm(eb.ref('class_times.start_time')).as('start_time'),
  hhmm(eb.ref('class_times.end_time')).as('end_time'),
  sql<number[]>`${eb.ref('class_times.weekdays')}::int[]`.as('weekdays'),
  eb.ref('class_times.version').as('version'),
];

export function insertSlot(on: Queryable, schoolId: number, v: { name: string; start_time: string; end_time: string; weekdays: number[] }) {
  return kdb(on)
    .insertInto('class_times')
    .values({ school_id: schoolId, name: v.name, start_time: v.start_time, end_time: v.end_time, weekdays: v.weekdays })
    .returning(returnedSlot)
    .executeTakeFirstOrThrow();
}

/** The slot's version (not deleted), locked for update. */
export function lockSlot(on: Queryable, schoolId: number, id: number) {
  return kdb(on)
    .selectFrom('class_times')
    .select('version')
    .where('id', '=', id)
    .where('school_id', '=', schoolId)
    .where('deleted_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
}

/** The other slots (not deleted) of the students who have this one, with the student's name, by student and slot. */
export function othersSlotsOfStudents(on: Queryable, schoolId: number, slotId: number) {
  return kdb(on)
    .selectFrom('student_class_times as mine')
    .innerJoin('student_class_times as sc', (j) =>
      j.onRef('sc.student_id', '=', 'mine.student_id').onRef('sc.class_time_id', '<>', 'mine.class_time_id'),
    )
    .innerJoin('class_times as t', (j) => j.onRef('t.id', '=', 'sc.class_time_id').on('t.deleted_at', 'is', null))
    .innerJoin('students as s', 's.id', 'mine.student_id')
    .select((eb) => ['s.name as student', ...slotColumns(eb)])
    .where('mine.class_time_id', '=', slotId)
    .where('mine.school_id', '=', schoolId)
    .orderBy('s.id')
    .orderBy('t.id')
    .execute();
}

export function updateSlot(
  on: Queryable,
  schoolId: number,
  id: number,
  v: { name: string; start_time: string; end_time: string; weekdays: number[] },
) {
  return kdb(on)
    .updateTable('class_times')
    .set((eb) => ({
      name: v.name,
      start_time: v.start_time,
      end_time: v.end_time,
      weekdays: v.weekdays,
      version: eb('version', '+', 1),
      updated_at: sql`now()`,
    }))
    .where('id', '=', id)
    .where('school_id', '=', schoolId)
    .returning(returnedSlot)
    .executeTakeFirstOrThrow();
}

/** Who uses the slot (not deleted; locked for update): its care classes (and the first five names), its students. */
export function slotUse(on: Queryable, schoolId: number, id: number) {
  return kdb(on)
    .selectFrom('class_times as t')
    .select((eb) => [
      scalar<number>(
        eb
          .selectFrom('care_classes as c')
          .select(sql`count(*)::int`.as('n'))
          .whereRef('c.class_time_id', '=', 't.id')
          .where('c.deleted_at', 'is', null),
      ).as('classes'),
      scalar<string | null>(
        eb
          .selectFrom(
            eb
              .selectFrom('care_classes as c')
              .select('c.name')
              .whereRef('c.class_time_id', '=', 't.id')
              .where('c.deleted_at', 'is', null)
              .orderBy('c.id')
              .limit(5)
              .as('x'),
          )
          .select(sql`string_agg(x.name, '、')`.as('names')),
      ).as('names'),
      scalar<number>(
        eb
          .selectFrom('student_class_times as st')
          .select(sql`count(*)::int`.as('n'))
          .whereRef('st.class_time_id', '=', 't.id'),
      ).as('students'),
    ])
    .where('t.id', '=', id)
    .where('t.school_id', '=', schoolId)
    .where('t.deleted_at', 'is', null)
    .forUpdate('t')
    .executeTakeFirst();
}

export async function deleteSlot(on: Queryable, id: number): Promise<void> {
  await kdb(on)
    .updateTable('class_times')
    .set((eb) => ({ deleted_at: sql`now()`, version: eb('version', '+', 1), updated_at: sql`now()` }))
    .where('id', '=', id)
    .execute();
}

/** Whether the student is the school's; the row locked for update. */
export async function lockStudent(on: Queryable, schoolId: number, studentId: number): Promise<boolean> {
  const r = await kdb(on)
    .selectFrom('students')
    .select('id')
    .where('id', '=', studentId)
    .where('school_id', '=', schoolId)
    .forUpdate()
    .executeTakeFirst();
  return r !== undefined;
}

/** The school's slots (not deleted) of `ids` by start time, shared-locked (not deleted or edited meanwhile). */
export function slotsForShare(on: Queryable, schoolId: number, ids: number[]) {
  return kdb(on)
    .selectFrom('class_times as t')
    .select(slotColumns)
    .where('t.id', '=', sql<number>`any(${ids}::int[])`)
    .where('t.school_id', '=', schoolId)
    .where('t.deleted_at', 'is', null)
    .orderBy('t.start_time')
    .orderBy('t.id')
    .forShare()
    .execute();
}

/** Replaces the student's individual slots with `ids`. */
export async function replaceStudentSlots(on: Queryable, schoolId: number, studentId: number, ids: number[]): Promise<void> {
  const k = kdb(on);
  await k.deleteFrom('student_class_times').where('student_id', '=', studentId).execute();
  if (!ids.length) return;
  await k
    .insertInto('student_class_times')
    .columns(['school_id', 'student_id', 'class_time_id'])
    .expression(
      k.selectNoFrom(() => [
        sql<number>`${schoolId}`.as('school_id'),
        sql<number>`${studentId}`.as('student_id'),
        sql<number>`unnest(${ids}::int[])`.as('class_time_id'),
      ]),
    )
    .execute();
}
