import type { CalendarDay } from '@wantuo/shared';
import { sql, type ExpressionBuilder } from 'kysely';
import { kdb, pageRows, type DB } from '../../core/database/kysely';
import type { PageQuery, Queryable } from '../../core/database/sql-kit';
import { dayText } from './teaching-schedule.repository';

/** The SQL of the school's rooms and of its calendar's days (issue 38). */

/** A room's answer columns (`r` rooms): with the count of its classes not deleted. */
const roomColumns = (eb: ExpressionBuilder<DB & { r: DB['rooms'] }, 'r'>) => [
  eb.ref('r.id').as('id'),
  eb.ref('r.name').as('name'),
  eb.ref('r.capacity').as('capacity'),
  sql<number>`(${eb
    .selectFrom('teaching_classes as c')
    .select(sql`count(*)::int`.as('n'))
    .whereRef('c.room_id', '=', 'r.id')
    .where('c.deleted_at', 'is', null)})`.as('classes'),
  eb.ref('r.version').as('version'),
];

/** A page of the school's rooms by name. */
export function roomPage(on: Queryable, schoolId: number, name: string | null, q: PageQuery) {
  const total = kdb(on)
    .selectFrom('rooms as r')
    .select(sql<number>`count(*)::int`.as('total'))
    .where('r.school_id', '=', schoolId)
    .$if(name !== null, (b) => b.where('r.name', 'ilike', name!));
  const list = kdb(on)
    .selectFrom('rooms as r')
    .select(roomColumns)
    .where('r.school_id', '=', schoolId)
    .$if(name !== null, (b) => b.where('r.name', 'ilike', name!))
    .orderBy('r.name')
    .orderBy('r.id');
  return pageRows(on, total, list, q);
}

/** Adds a room; answers it as the list shows it. */
export function insertRoom(on: Queryable, schoolId: number, name: string, capacity: number | null) {
  return kdb(on)
    .with('i', (k) => k.insertInto('rooms').values({ school_id: schoolId, name, capacity }).returningAll())
    .selectFrom('i as r')
    .select(roomColumns)
    .executeTakeFirstOrThrow();
}

/** Sets a day of the calendar (replacing what it was), with the count of the sessions (not cancelled) on it. */
export function upsertDay(on: Queryable, schoolId: number, entry: Required<CalendarDay>, by: number) {
  return kdb(on)
    .with('u', (k) =>
      k
        .insertInto('school_calendar_days')
        .values({ school_id: schoolId, day: entry.day, kind: entry.kind, works_as: entry.works_as, note: entry.note, created_by: by })
        .onConflict((oc) =>
          oc.columns(['school_id', 'day']).doUpdateSet((eb) => ({
            kind: eb.ref('excluded.kind'),
            works_as: eb.ref('excluded.works_as'),
            note: eb.ref('excluded.note'),
            created_by: eb.ref('excluded.created_by'),
            created_at: sql`now()`,
          })),
        )
        .returning(['day', 'kind', 'works_as', 'note']),
    )
    .selectFrom('u')
    .select((eb) => [
      dayText(eb.ref('u.day')).as('day'),
      sql<CalendarDay['kind']>`${eb.ref('u.kind')}`.as('kind'),
      eb.cast<number | null>('u.works_as', 'integer').as('works_as'),
      'u.note',
      sql<number>`(${eb
        .selectFrom('class_sessions as s')
        .select(sql`count(*)::int`.as('n'))
        .where('s.school_id', '=', schoolId)
        .where(sql<boolean>`s.day = ${entry.day}::date`)
        .where('s.state', '<>', 'cancelled')})`.as('sessions_on_day'),
    ])
    .executeTakeFirstOrThrow();
}

/** Removes a day from the calendar; whether it was there. */
export async function deleteDay(on: Queryable, schoolId: number, day: string): Promise<boolean> {
  const rows = await kdb(on)
    .deleteFrom('school_calendar_days')
    .where('school_id', '=', schoolId)
    .where(sql<boolean>`day = ${day}::date`)
    .returning('day')
    .execute();
  return rows.length > 0;
}
