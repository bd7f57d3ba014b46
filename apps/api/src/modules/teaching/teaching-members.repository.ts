import { StudentStatus } from '@wantuo/shared';
import { sql } from 'kysely';
import { guardianOf } from '../../core/access/access';
import { kdb, pageRows } from '../../core/database/kysely';
import type { PageQuery, Queryable } from '../../core/database/sql-kit';
import { classRows } from './teaching-classes.repository';

/** The SQL of the teaching classes' students and of a student's classes (issue 38): every statement typed by the schema. */

/** A page of the class's students by name. */
export function memberPage(on: Queryable, classId: number, q: PageQuery) {
  const total = kdb(on)
    .selectFrom('teaching_class_students')
    .select(sql<number>`count(*)::int`.as('total'))
    .where('class_id', '=', classId);
  const list = kdb(on)
    .selectFrom('teaching_class_students as m')
    .innerJoin('students as s', 's.id', 'm.student_id')
    .select(['s.id', 's.name', 's.grade', 's.class_name', 'm.joined_at'])
    .where('m.class_id', '=', classId)
    .orderBy('s.name')
    .orderBy('s.id');
  return pageRows(on, total, list, q);
}

/** A page of the school's active students not in the class, by name. */
export function selectablePage(on: Queryable, schoolId: number, classId: number, name: string | null, q: PageQuery) {
  const total = kdb(on)
    .selectFrom('students as s')
    .select(sql<number>`count(*)::int`.as('total'))
    .where('s.school_id', '=', schoolId)
    .where('s.status', '=', StudentStatus.Active)
    .$if(name !== null, (b) => b.where('s.name', 'ilike', name!))
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('teaching_class_students as m')
            .select(sql.lit(1).as('one'))
            .where('m.class_id', '=', classId)
            .whereRef('m.student_id', '=', 's.id'),
        ),
      ),
    );
  const list = kdb(on)
    .selectFrom('students as s')
    .leftJoin('care_class_students as ccs', 'ccs.student_id', 's.id')
    .leftJoin('care_classes as cc', (j) => j.onRef('cc.id', '=', 'ccs.class_id').on('cc.deleted_at', 'is', null))
    .select(['s.id', 's.name', 's.grade', 's.class_name', 'cc.name as care_class_name'])
    .where('s.school_id', '=', schoolId)
    .where('s.status', '=', StudentStatus.Active)
    .$if(name !== null, (b) => b.where('s.name', 'ilike', name!))
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('teaching_class_students as m')
            .select(sql.lit(1).as('one'))
            .where('m.class_id', '=', classId)
            .whereRef('m.student_id', '=', 's.id'),
        ),
      ),
    )
    .orderBy('s.name')
    .orderBy('s.id');
  return pageRows(on, total, list, q);
}

export async function insertMembers(on: Queryable, schoolId: number, classId: number, ids: number[]): Promise<void> {
  await kdb(on)
    .insertInto('teaching_class_students')
    .columns(['school_id', 'class_id', 'student_id'])
    .expression(
      kdb(on).selectNoFrom(() => [
        sql<number>`${schoolId}`.as('school_id'),
        sql<number>`${classId}`.as('class_id'),
        sql<number>`unnest(${ids}::int[])`.as('student_id'),
      ]),
    )
    .execute();
}

/** Removes a student from the class; whether they were in it. */
export async function deleteMember(on: Queryable, classId: number, studentId: number): Promise<boolean> {
  const rows = await kdb(on)
    .deleteFrom('teaching_class_students')
    .where('class_id', '=', classId)
    .where('student_id', '=', studentId)
    .returning('student_id')
    .execute();
  return rows.length > 0;
}

/** Whether the student is the school's (`guardian`: and a child of theirs). */
export async function studentOfSchool(on: Queryable, schoolId: number, studentId: number, guardian: number | null): Promise<boolean> {
  const r = await kdb(on)
    .selectFrom('students as s')
    .select(sql.lit(1).as('one'))
    .where('s.school_id', '=', schoolId)
    .where('s.id', '=', studentId)
    .$if(guardian !== null, (q) => q.where((eb) => guardianOf(eb, eb.ref('s.id'), guardian!)))
    .executeTakeFirst();
  return r !== undefined;
}

/** A page of a student's teaching classes, running first, newest first (`teacher`: only theirs). */
export function studentClassPage(on: Queryable, schoolId: number, studentId: number, teacher: number | null, q: PageQuery) {
  const total = kdb(on)
    .selectFrom('teaching_class_students as m')
    .innerJoin('teaching_classes as c', 'c.id', 'm.class_id')
    .select(sql<number>`count(*)::int`.as('total'))
    .where('m.student_id', '=', studentId)
    .where('c.school_id', '=', schoolId)
    .where('c.deleted_at', 'is', null)
    .$if(teacher !== null, (b) => b.where('c.teacher_id', '=', teacher!));
  const list = classRows(on)
    .innerJoin('teaching_class_students as m', 'm.class_id', 'c.id')
    .where('m.student_id', '=', studentId)
    .where('c.school_id', '=', schoolId)
    .where('c.deleted_at', 'is', null)
    .$if(teacher !== null, (b) => b.where('c.teacher_id', '=', teacher!))
    .orderBy('c.status', 'desc')
    .orderBy('c.id', 'desc');
  return pageRows(on, total, list, q);
}
