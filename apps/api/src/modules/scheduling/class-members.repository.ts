import { StudentStatus } from '@wantuo/shared';
import { sql } from 'kysely';
import { kdb } from '../../core/database/kysely';
import type { Queryable } from '../../core/database/sql-kit';

/**
 * The scheduling core shared by teaching and tutoring classes (issue 38): what is the same for both kinds of class,
 * written once over the kind's membership table.
 */
export type MemberTable = 'teaching_class_students' | 'tutoring_class_students';

/**
 * The membership table as the builder types it: both tables share the columns used here (class_id, student_id), so
 * the teaching one stands for either (the SQL names the real one).
 */
const membersOf = (members: MemberTable) => `${members} as m` as 'teaching_class_students as m';

/** The school's active students of `ids` (share-locked, by id), each with whether already in the class. */
export function studentsToAdd(on: Queryable, members: MemberTable, schoolId: number, classId: number, ids: number[]) {
  return kdb(on)
    .selectFrom('students as s')
    .select((eb) => [
      's.id',
      's.name',
      eb
        .exists(
          eb.selectFrom(membersOf(members)).select(sql.lit(1).as('one')).where('m.class_id', '=', classId).whereRef('m.student_id', '=', 's.id'),
        )
        .$castTo<boolean>()
        .as('member'),
    ])
    .where('s.id', '=', sql<number>`any(${ids}::int[])`)
    .where('s.school_id', '=', schoolId)
    .where('s.status', '=', StudentStatus.Active)
    .orderBy('s.id')
    .forShare('s')
    .execute();
}

/** How many students the class has. */
export async function memberCount(on: Queryable, members: MemberTable, classId: number): Promise<number> {
  const r = await kdb(on)
    .selectFrom(membersOf(members))
    .select(sql<number>`count(*)::int`.as('n'))
    .where('m.class_id', '=', classId)
    .executeTakeFirstOrThrow();
  return r.n;
}
