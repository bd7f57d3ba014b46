import { DEFAULT_TUTORING_TYPES, type TutorialSettingInput, type TutoringClass } from '@wantuo/shared';
import { sql, type Expression, type InferResult } from 'kysely';
import { kdb, pageRows } from '../../core/database/kysely';
import type { PageQuery, Queryable } from '../../core/database/sql-kit';
import { dayText } from '../teaching/teaching-schedule.repository';

/** The SQL of the tutoring types and classes (issue 38). Sessions are class_sessions rows of kind 'tutoring'. */

/** A scalar subquery (a count) as a typed expression. */
const scalar = <T>(q: Expression<unknown>) => sql<T>`(${q})`;

/**
 * The school's default tutoring types, inserted once: only while the school has none, and a concurrent first read
 * inserts nothing twice (the unique name index).
 */
export async function seedTypes(on: Queryable, schoolId: number): Promise<void> {
  await sql`
    insert into tutoring_types (school_id, name, sort, duration_min, price_fen)
    select ${schoolId}, d.name, d.sort, d.duration_min, d.price_fen
      from unnest(${DEFAULT_TUTORING_TYPES.map((d) => d.name)}::text[], ${DEFAULT_TUTORING_TYPES.map((d) => d.duration_min)}::int[],
                  ${DEFAULT_TUTORING_TYPES.map((d) => d.price_fen)}::int[]) with ordinality as d(name, duration_min, price_fen, sort)
     where not exists (select 1 from tutoring_types where school_id = ${schoolId})
    on conflict do nothing`.execute(kdb(on));
}

// ---------------------------------------------------------------- types and settings

/** A page of the school's types in their order, with the classes (not deleted) of each. */
export function typePage(on: Queryable, schoolId: number, q: PageQuery) {
  const total = kdb(on)
    .selectFrom('tutoring_types')
    .select(sql<number>`count(*)::int`.as('total'))
    .where('school_id', '=', schoolId);
  const list = kdb(on)
    .selectFrom('tutoring_types as t')
    .select((eb) => [
      't.id',
      't.name',
      eb.cast<number>('t.sort', 'integer').as('sort'),
      scalar<number>(
        eb
          .selectFrom('tutoring_classes as c')
          .select(sql`count(*)::int`.as('n'))
          .whereRef('c.type_id', '=', 't.id')
          .where('c.deleted_at', 'is', null),
      ).as('classes'),
    ])
    .where('t.school_id', '=', schoolId)
    .orderBy('t.sort')
    .orderBy('t.id');
  return pageRows(on, total, list, q);
}

/** Types as their settings (`t` tutoring_types): the answer TutorialSetting. */
const settingRows = (on: Queryable) =>
  kdb(on)
    .selectFrom('tutoring_types as t')
    .leftJoin('users as u', 'u.id', 't.teacher_id')
    .select((eb) => [
      't.id as type_id',
      't.name',
      eb.cast<number>('t.duration_min', 'integer').as('duration_min'),
      sql<number>`${eb.ref('t.price_fen')}::float8`.as('price_fen'),
      't.teacher_id',
      'u.name as teacher_name',
      't.version',
    ]);

/** A page of the school's types' settings in the types' order. */
export function settingPage(on: Queryable, schoolId: number, q: PageQuery) {
  const total = kdb(on)
    .selectFrom('tutoring_types')
    .select(sql<number>`count(*)::int`.as('total'))
    .where('school_id', '=', schoolId);
  return pageRows(on, total, settingRows(on).where('t.school_id', '=', schoolId).orderBy('t.sort').orderBy('t.id'), q);
}

/** One type's setting. */
export function settingOf(on: Queryable, typeId: number) {
  return settingRows(on).where('t.id', '=', typeId).executeTakeFirstOrThrow();
}

/** Adds a type placed last; answers its id. */
export async function insertType(on: Queryable, schoolId: number, input: TutorialSettingInput): Promise<number> {
  const k = kdb(on);
  const r = await k
    .insertInto('tutoring_types')
    .columns(['school_id', 'name', 'sort', 'duration_min', 'price_fen', 'teacher_id'])
    .expression(
      k
        .selectFrom('tutoring_types')
        .select((eb) => [
          sql<number>`${schoolId}`.as('school_id'),
          sql<string>`${input.name}`.as('name'),
          sql<number>`coalesce(max(${eb.ref('sort')}), 0) + 1`.as('sort'),
          sql<number>`${input.duration_min}`.as('duration_min'),
          sql<number>`${input.price_fen}`.as('price_fen'),
          sql<number | null>`${input.teacher_id ?? null}`.as('teacher_id'),
        ])
        .where('school_id', '=', schoolId),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

/**
 * Saves a type's setting on the version read, in one statement: the type (locked) and whether it was updated (the
 * version matched); undefined when the school has no such type. `teacher_id` omitted keeps the teacher.
 */
export async function updateSetting(on: Queryable, schoolId: number, input: TutorialSettingInput & { type_id: number }) {
  const r = await sql<{ id: number; version: number; updated: boolean }>`
    with t as (select id, version from tutoring_types where id = ${input.type_id} and school_id = ${schoolId} for update),
         u as (update tutoring_types x set name = coalesce(${input.name ?? null}, x.name), duration_min = ${input.duration_min}, price_fen = ${input.price_fen},
                      teacher_id = case when ${input.teacher_id !== undefined} then ${input.teacher_id ?? null}::int else x.teacher_id end,
                      version = x.version + 1, updated_at = now()
                 from t where x.id = t.id and t.version = ${input.version ?? null} returning x.id)
    select t.id, t.version, exists (select 1 from u) as updated from t`.execute(kdb(on));
  return r.rows[0];
}

/** A type of the school with what a class copies from it. */
export function typeOf(on: Queryable, schoolId: number, typeId: number) {
  return kdb(on)
    .selectFrom('tutoring_types')
    .select((eb) => [
      'id',
      eb.cast<number>('duration_min', 'integer').as('duration_min'),
      sql<number>`price_fen::float8`.as('price_fen'),
      'teacher_id',
    ])
    .where('id', '=', typeId)
    .where('school_id', '=', schoolId)
    .executeTakeFirst();
}

// ---------------------------------------------------------------- classes

/** Classes with their type, teacher, room and counts (`c` tutoring_classes): the answer TutoringClass. */
const classRows = (on: Queryable) =>
  kdb(on)
    .selectFrom('tutoring_classes as c')
    .innerJoin('tutoring_types as ty', 'ty.id', 'c.type_id')
    .innerJoin('users as u', 'u.id', 'c.teacher_id')
    .leftJoin('rooms as r', 'r.id', 'c.room_id')
    .select((eb) => [
      'c.id',
      'c.name',
      'c.type_id',
      'ty.name as type_name',
      'c.teacher_id',
      'u.name as teacher_name',
      'c.room_id',
      'r.name as room_name',
      'c.capacity',
      scalar<number>(
        eb
          .selectFrom('tutoring_class_students as m')
          .select(sql`count(*)::int`.as('n'))
          .whereRef('m.class_id', '=', 'c.id'),
      ).as('students'),
      eb.cast<number>('c.duration_min', 'integer').as('duration_min'),
      sql<number>`${eb.ref('c.price_fen')}::float8`.as('price_fen'),
      sql<TutoringClass['pattern']>`${eb.ref('c.pattern')}`.as('pattern'),
      dayText(eb.ref('c.from_day')).as('from'),
      dayText(eb.ref('c.to_day')).as('to'),
      scalar<number>(
        eb
          .selectFrom('class_sessions as s')
          .select(sql`count(*)::int`.as('n'))
          .where('s.kind', '=', 'tutoring')
          .whereRef('s.class_id', '=', 'c.id')
          .where('s.state', '<>', 'cancelled'),
      ).as('sessions_scheduled'),
      scalar<number>(
        eb
          .selectFrom('class_sessions as s')
          .select(sql`count(*)::int`.as('n'))
          .where('s.kind', '=', 'tutoring')
          .whereRef('s.class_id', '=', 'c.id')
          .where('s.state', '=', 'held'),
      ).as('sessions_held'),
      'c.remark',
      eb.cast<number>('c.status', 'integer').as('status'),
      'c.version',
      'c.created_at',
    ]);

export type TutoringClassRow = InferResult<ReturnType<typeof classRows>>[number];

/** One class of the school (not deleted). */
export function classRow(on: Queryable, schoolId: number, id: number) {
  return classRows(on).where('c.school_id', '=', schoolId).where('c.id', '=', id).where('c.deleted_at', 'is', null).executeTakeFirst();
}

/** A page of the school's classes newest first, by name and type. */
export function classPage(on: Queryable, f: { schoolId: number; name: string | null; typeId: number | null }, q: PageQuery) {
  const total = kdb(on)
    .selectFrom('tutoring_classes as c')
    .select(sql<number>`count(*)::int`.as('total'))
    .where('c.school_id', '=', f.schoolId)
    .where('c.deleted_at', 'is', null)
    .$if(f.name !== null, (b) => b.where('c.name', 'ilike', f.name!))
    .$if(f.typeId !== null, (b) => b.where('c.type_id', '=', f.typeId!));
  const list = classRows(on)
    .where('c.school_id', '=', f.schoolId)
    .where('c.deleted_at', 'is', null)
    .$if(f.name !== null, (b) => b.where('c.name', 'ilike', f.name!))
    .$if(f.typeId !== null, (b) => b.where('c.type_id', '=', f.typeId!))
    .orderBy('c.id', 'desc');
  return pageRows(on, total, list, q);
}

/** A tutoring class of the school (not deleted), locked for update when asked. */
export function lockedClass(on: Queryable, schoolId: number, id: number, lock = false) {
  return kdb(on)
    .selectFrom('tutoring_classes')
    .select((eb) => ['id', 'name', 'teacher_id', 'room_id', 'capacity', eb.cast<number>('status', 'integer').as('status'), 'version'])
    .where('school_id', '=', schoolId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .$if(lock, (q) => q.forUpdate())
    .executeTakeFirst();
}

export type LockedTutoringClass = NonNullable<Awaited<ReturnType<typeof lockedClass>>>;

/** Creates a class; answers its id. */
export async function insertClass(
  on: Queryable,
  v: {
    schoolId: number;
    typeId: number;
    name: string;
    teacherId: number;
    roomId: number | null;
    capacity: number;
    durationMin: number;
    priceFen: number;
    pattern: TutoringClass['pattern'];
    from: string;
    to: string;
    remark: string | null;
    by: number;
  },
): Promise<number> {
  const r = await kdb(on)
    .insertInto('tutoring_classes')
    .values({
      school_id: v.schoolId,
      type_id: v.typeId,
      name: v.name,
      teacher_id: v.teacherId,
      room_id: v.roomId,
      capacity: v.capacity,
      duration_min: v.durationMin,
      price_fen: v.priceFen,
      pattern: sql`${JSON.stringify(v.pattern)}::jsonb`,
      from_day: v.from,
      to_day: v.to,
      remark: v.remark,
      created_by: v.by,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

/** Writes a new class's sessions (one entry a session). */
export async function insertSessions(
  on: Queryable,
  v: { schoolId: number; classId: number; days: string[]; starts: number[]; ends: number[]; teacherId: number; roomId: number | null; by: number },
): Promise<void> {
  await sql`
    insert into class_sessions (school_id, kind, class_id, day, start_min, end_min, teacher_id, room_id, created_by)
    select ${v.schoolId}, 'tutoring', ${v.classId}, unnest(${v.days}::date[]), unnest(${v.starts}::int[]), unnest(${v.ends}::int[]), ${v.teacherId},
           ${v.roomId}, ${v.by}`.execute(kdb(on));
}

export async function setClassStatus(on: Queryable, id: number, status: number): Promise<void> {
  await kdb(on)
    .updateTable('tutoring_classes')
    .set((eb) => ({ status, version: eb('version', '+', 1), updated_at: sql`now()` }))
    .where('id', '=', id)
    .execute();
}

/** The class's version moved on (its members changed). */
export async function bumpClass(on: Queryable, id: number): Promise<void> {
  await kdb(on)
    .updateTable('tutoring_classes')
    .set((eb) => ({ version: eb('version', '+', 1), updated_at: sql`now()` }))
    .where('id', '=', id)
    .execute();
}

export async function heldSessions(on: Queryable, classId: number): Promise<number> {
  const r = await kdb(on)
    .selectFrom('class_sessions')
    .select(sql<number>`count(*)::int`.as('held'))
    .where('kind', '=', 'tutoring')
    .where('class_id', '=', classId)
    .where('state', '=', 'held')
    .executeTakeFirstOrThrow();
  return r.held;
}

/** Marks the class deleted and cancels its planned sessions (with `reason`) in one statement; answers how many. */
export async function deleteClass(on: Queryable, id: number, reason: string): Promise<number> {
  const r = await sql<{ cancelled: number; deleted: number }>`
    with d as (update tutoring_classes set deleted_at = now(), version = version + 1, updated_at = now() where id = ${id} returning id),
         x as (update class_sessions set state = 'cancelled', cancel_reason = ${reason}, version = version + 1, updated_at = now()
                where kind = 'tutoring' and class_id = ${id} and state = 'planned' returning id)
    select (select count(*)::int from x) as cancelled, (select count(*)::int from d) as deleted`.execute(kdb(on));
  return r.rows[0].cancelled;
}
