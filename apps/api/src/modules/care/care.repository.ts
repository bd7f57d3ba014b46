import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { JobStatus, Role, StudentStatus, type CareClass, type CareStudent, type DelWantuoStudentPreview, type Duty } from '@wantuo/shared';
import { sql, type ExpressionBuilder, type Insertable } from 'kysely';
import { DataSource } from 'typeorm';
import { kdb, pageRows, type DB } from '../../core/database/kysely';
import type { PageQuery, Queryable } from '../../core/database/sql-kit';
import { schoolTodayRow, studentContracts } from '../students/student-sql';

type ClassesEb = ExpressionBuilder<DB & { c: DB['care_classes'] }, 'c'>;

/** A class (`c`) with its head teacher (`h`), time slot (`t`) and headcount: CareClass. */
const classes = (on: Queryable) =>
  kdb(on)
    .selectFrom('care_classes as c')
    .leftJoin('users as h', 'h.id', 'c.head_teacher_id')
    .leftJoin('class_times as t', 't.id', 'c.class_time_id')
    .select((eb) => [
      'c.id',
      'c.name',
      sql<CareClass['status']>`${eb.ref('c.status')}::int`.as('status'),
      'c.capacity',
      'c.fee_fen',
      sql<number>`${eb
        .selectFrom('care_class_students as cs')
        .select((x) => sql<number>`${x.fn.countAll()}::int`.as('n'))
        .whereRef('cs.class_id', '=', 'c.id')}`.as('headcount'),
      'c.head_teacher_id',
      'h.name as head_teacher_name',
      'c.class_time_id',
      't.name as class_time_name',
      sql<string | null>`to_char(${eb.ref('t.start_time')}, 'HH24:MI')`.as('start_time'),
      sql<string | null>`to_char(${eb.ref('t.end_time')}, 'HH24:MI')`.as('end_time'),
      sql<number[] | null>`${eb.ref('t.weekdays')}::int[]`.as('weekdays'),
      'c.version',
      'c.created_at',
    ]);

/** A duty assignment (`d`) with the teacher's name (`u`): DutyAssignment. */
const duties = (on: Queryable) =>
  kdb(on)
    .selectFrom('duty_assignments as d')
    .innerJoin('users as u', 'u.id', 'd.teacher_id')
    .select((eb) => ['d.id', eb.ref('d.duty').$castTo<Duty>().as('duty'), 'd.teacher_id', 'u.name as teacher_name', 'd.student_id']);

/** A student (`s`) as the care screens show them: CareStudent. */
const studentColumns = (eb: ExpressionBuilder<DB & { s: DB['students'] }, 's'>) =>
  ['s.id', 's.name', sql<CareStudent['gender']>`${eb.ref('s.gender')}::int`.as('gender'), 's.grade', 's.class_name', 's.day_school'] as const;

/** The SQL of the care module (issue 38): every statement typed by the schema. */
@Injectable()
export class CareRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** A page of the school's live classes (name containing `pattern`, of `status`), newest first, with the total. */
  page(schoolId: number, pattern: string | null, status: number | null, q: PageQuery) {
    const filter = (eb: ClassesEb) =>
      eb.and([
        eb('c.school_id', '=', schoolId),
        eb('c.deleted_at', 'is', null),
        ...(pattern === null ? [] : [eb('c.name', 'ilike', pattern)]),
        ...(status === null ? [] : [eb('c.status', '=', status)]),
      ]);
    const total = kdb(this.db)
      .selectFrom('care_classes as c')
      .select((eb) => sql<number>`${eb.fn.countAll()}::int`.as('total'))
      .where(filter);
    return pageRows(this.db, total, classes(this.db).where(filter).orderBy('c.id', 'desc'), q);
  }

  /** One live class of the school. */
  class(schoolId: number, id: number) {
    return classes(this.db).where('c.id', '=', id).where('c.school_id', '=', schoolId).where('c.deleted_at', 'is', null).executeTakeFirst();
  }

  /** The class's class-level duties (student_id null), by duty. */
  classDuties(classId: number) {
    return duties(this.db).where('d.class_id', '=', classId).where('d.student_id', 'is', null).orderBy('d.duty').orderBy('d.id').execute();
  }

  /** The duties of these students in the class, by duty. */
  studentDuties(classId: number, studentIds: number | number[]) {
    return duties(this.db)
      .where('d.class_id', '=', classId)
      .where('d.student_id', '=', Array.isArray(studentIds) ? sql<number>`any(${studentIds}::int[])` : studentIds)
      .orderBy('d.duty')
      .orderBy('d.id')
      .execute();
  }

  /** Whether the school has this live class. */
  async classExists(schoolId: number, id: number): Promise<boolean> {
    const r = await kdb(this.db)
      .selectFrom('care_classes')
      .select(sql.lit(1).as('one'))
      .where('id', '=', id)
      .where('school_id', '=', schoolId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return r !== undefined;
  }

  /** A page of the class's students (name matching `pattern`), by when they joined, with the total. */
  members(schoolId: number, classId: number, pattern: string | null, q: PageQuery) {
    const k = kdb(this.db);
    const filter = (eb: ExpressionBuilder<DB & { cs: DB['care_class_students']; s: DB['students'] }, 'cs' | 's'>) =>
      eb.and([eb('cs.class_id', '=', classId), eb('cs.school_id', '=', schoolId), ...(pattern === null ? [] : [eb('s.name', 'ilike', pattern)])]);
    const total = k
      .selectFrom('care_class_students as cs')
      .innerJoin('students as s', 's.id', 'cs.student_id')
      .select((eb) => sql<number>`${eb.fn.countAll()}::int`.as('total'))
      .where(filter);
    const list = k
      .selectFrom('care_class_students as cs')
      .innerJoin('students as s', 's.id', 'cs.student_id')
      .select((eb) => [...studentColumns(eb), 'cs.joined_at'])
      .where(filter)
      .orderBy('cs.joined_at')
      .orderBy('s.id');
    return pageRows(this.db, total, list, q);
  }

  /** The students' own live time slots of the school (addStudentClassTime), by start time. */
  studentSlots(schoolId: number, studentIds: number[]) {
    return kdb(this.db)
      .selectFrom('student_class_times as sct')
      .innerJoin('class_times as ct', (j) => j.onRef('ct.id', '=', 'sct.class_time_id').on('ct.deleted_at', 'is', null))
      .select((eb) => [
        'sct.student_id',
        'ct.id',
        'ct.name',
        sql<string>`to_char(${eb.ref('ct.start_time')}, 'HH24:MI')`.as('start_time'),
        sql<string>`to_char(${eb.ref('ct.end_time')}, 'HH24:MI')`.as('end_time'),
        sql<number[]>`${eb.ref('ct.weekdays')}::int[]`.as('weekdays'),
      ])
      .where('sct.student_id', '=', sql<number>`any(${studentIds}::int[])`)
      .where('ct.school_id', '=', schoolId)
      .orderBy('ct.start_time')
      .orderBy('ct.id')
      .execute();
  }

  /** A page of the school's active students in no care class (name matching `pattern`), by name. */
  selectable(schoolId: number, pattern: string | null, q: PageQuery) {
    const k = kdb(this.db);
    const filter = (eb: ExpressionBuilder<DB & { s: DB['students'] }, 's'>) =>
      eb.and([
        eb('s.school_id', '=', schoolId),
        eb('s.status', '=', StudentStatus.Active),
        ...(pattern === null ? [] : [eb('s.name', 'ilike', pattern)]),
        eb.not(eb.exists(eb.selectFrom('care_class_students as cs').select(sql.lit(1).as('one')).whereRef('cs.student_id', '=', 's.id'))),
      ]);
    const total = k
      .selectFrom('students as s')
      .select((eb) => sql<number>`${eb.fn.countAll()}::int`.as('total'))
      .where(filter);
    const list = k.selectFrom('students as s').select(studentColumns).where(filter).orderBy('s.name').orderBy('s.id');
    return pageRows(this.db, total, list, q);
  }

  async insertClass(em: Queryable, row: Insertable<DB['care_classes']>): Promise<number> {
    const r = await kdb(em).insertInto('care_classes').values(row).returning('id').executeTakeFirstOrThrow();
    return r.id;
  }

  /** Writes the class's settings and moves its version on. */
  async updateClass(
    em: Queryable,
    id: number,
    v: { name: string; head_teacher_id: number | null; class_time_id: number | null; capacity: number; fee_fen: number },
  ): Promise<void> {
    await kdb(em)
      .updateTable('care_classes')
      .set((eb) => ({ ...v, version: eb('version', '+', 1), updated_at: sql`now()` }))
      .where('id', '=', id)
      .execute();
  }

  /** Sets (or clears) the class's head teacher and moves its version on. */
  async setHead(em: Queryable, id: number, head: number | null): Promise<void> {
    await kdb(em)
      .updateTable('care_classes')
      .set((eb) => ({ head_teacher_id: head, version: eb('version', '+', 1), updated_at: sql`now()` }))
      .where('id', '=', id)
      .execute();
  }

  /** Soft-deletes the class. */
  async deleteClass(em: Queryable, id: number): Promise<void> {
    await kdb(em)
      .updateTable('care_classes')
      .set((eb) => ({ deleted_at: sql`now()`, version: eb('version', '+', 1), updated_at: sql`now()` }))
      .where('id', '=', id)
      .execute();
  }

  /** Sets a live class's status on the version read; whether it did. */
  async setStatus(schoolId: number, id: number, version: number, status: number): Promise<boolean> {
    const rows = await kdb(this.db)
      .updateTable('care_classes')
      .set((eb) => ({ status, version: eb('version', '+', 1), updated_at: sql`now()` }))
      .where('id', '=', id)
      .where('school_id', '=', schoolId)
      .where('version', '=', version)
      .where('deleted_at', 'is', null)
      .returning('id')
      .execute();
    return rows.length > 0;
  }

  /** The active students of the school among `ids`, locked in id order (two requests adding the same student wait). */
  lockActiveStudents(em: Queryable, schoolId: number, ids: number[]) {
    return kdb(em)
      .selectFrom('students')
      .select('id')
      .where('id', '=', sql<number>`any(${ids}::int[])`)
      .where('school_id', '=', schoolId)
      .where('status', '=', StudentStatus.Active)
      .orderBy('id')
      .forUpdate()
      .execute();
  }

  /** The first of these students (by id) already in a care class, with the class's name. */
  firstInClass(em: Queryable, ids: number[]) {
    return kdb(em)
      .selectFrom('care_class_students as cs')
      .innerJoin('students as s', 's.id', 'cs.student_id')
      .innerJoin('care_classes as c', 'c.id', 'cs.class_id')
      .select(['s.name as student', 'c.name as class'])
      .where('cs.student_id', '=', sql<number>`any(${ids}::int[])`)
      .orderBy('s.id')
      .limit(1)
      .executeTakeFirst();
  }

  async addMembers(em: Queryable, schoolId: number, classId: number, ids: number[]): Promise<void> {
    await kdb(em)
      .insertInto('care_class_students')
      .columns(['school_id', 'class_id', 'student_id'])
      .expression(
        kdb(em).selectNoFrom((eb) => [eb.val(schoolId).as('school_id'), eb.val(classId).as('class_id'), sql<number>`unnest(${ids}::int[])`.as('s')]),
      )
      .execute();
  }

  /** The live class and whether (and as whom) the student is in it. */
  memberOf(schoolId: number, classId: number, studentId: number) {
    return kdb(this.db)
      .selectFrom('care_classes as c')
      .leftJoin('care_class_students as cs', (j) => j.onRef('cs.class_id', '=', 'c.id').on('cs.student_id', '=', studentId))
      .leftJoin('students as s', 's.id', 'cs.student_id')
      .select(['c.name as class_name', 's.name as student_name'])
      .where('c.id', '=', classId)
      .where('c.school_id', '=', schoolId)
      .where('c.deleted_at', 'is', null)
      .executeTakeFirst();
  }

  /** What stays with the student after a removal: open contracts and dinner bookings from the school's today on. */
  async kept(schoolId: number, studentId: number): Promise<Pick<DelWantuoStudentPreview, 'contracts' | 'meal_bookings'>> {
    const k = kdb(this.db);
    const r = await k
      .selectFrom(schoolTodayRow(k, schoolId))
      .select((eb) => [
        studentContracts(eb, studentId, schoolId, { openOnly: true, limit: 50 }).as('contracts'),
        eb
          .selectFrom('meal_bookings as b')
          .leftJoin('meal_goods as g', 'g.id', 'b.goods_id')
          .select(
            sql<DelWantuoStudentPreview['meal_bookings']>`coalesce(json_agg(json_build_object('id', b.id, 'day', to_char(b.day, 'YYYY-MM-DD'),
               'goods_name', g.name, 'status', b.status, 'price_fen', b.price_fen, 'pay_from', b.pay_from) order by b.day, b.id), '[]'::json)`.as(
              'agg',
            ),
          )
          .where('b.student_id', '=', studentId)
          .where('b.school_id', '=', schoolId)
          .where(sql<boolean>`b.day >= d.today`)
          .where('b.status', 'in', ['booked', 'unpaid'])
          .where('b.served_at', 'is', null)
          .as('meal_bookings'),
      ])
      .executeTakeFirstOrThrow();
    // both aggregates always answer a row (coalesce makes none an empty array): never null
    return { contracts: r.contracts ?? [], meal_bookings: r.meal_bookings ?? [] };
  }

  /** Takes the student out of the class; whether it was in it. */
  async removeMember(em: Queryable, classId: number, studentId: number): Promise<boolean> {
    const rows = await kdb(em)
      .deleteFrom('care_class_students')
      .where('class_id', '=', classId)
      .where('student_id', '=', studentId)
      .returning('student_id')
      .execute();
    return rows.length > 0;
  }

  /** Removes the student's duties in the class; how many. */
  async removeStudentDuties(em: Queryable, classId: number, studentId: number): Promise<number> {
    const rows = await kdb(em)
      .deleteFrom('duty_assignments')
      .where('class_id', '=', classId)
      .where('student_id', '=', studentId)
      .returning('id')
      .execute();
    return rows.length;
  }

  /** Whether the student is in the class. */
  async isMember(em: Queryable, classId: number, studentId: number): Promise<boolean> {
    const r = await kdb(em)
      .selectFrom('care_class_students')
      .select(sql.lit(1).as('one'))
      .where('class_id', '=', classId)
      .where('student_id', '=', studentId)
      .executeTakeFirst();
    return r !== undefined;
  }

  /** Removes the duty of the class (studentId null) or of one of its students. */
  async removeDuty(em: Queryable, classId: number, studentId: number | null, duty: Duty): Promise<void> {
    await kdb(em)
      .deleteFrom('duty_assignments')
      .where('class_id', '=', classId)
      .where(sql<number>`coalesce(student_id, 0)`, '=', sql<number>`coalesce(${studentId}::int, 0)`)
      .where('duty', '=', duty)
      .execute();
  }

  /** Assigns the teacher of the duty of the class (studentId null) or of one of its students (one per duty); the id. */
  async assignDuty(
    em: Queryable,
    v: { schoolId: number; classId: number; studentId: number | null; teacherId: number; duty: Duty },
  ): Promise<number> {
    const r = await kdb(em)
      .insertInto('duty_assignments')
      .values({ school_id: v.schoolId, class_id: v.classId, student_id: v.studentId, teacher_id: v.teacherId, duty: v.duty })
      .onConflict((oc) =>
        oc
          .expression(sql`class_id, coalesce(student_id, 0), duty`)
          .doUpdateSet((eb) => ({ teacher_id: eb.ref('excluded.teacher_id'), created_at: sql`now()` })),
      )
      .returning('id')
      .executeTakeFirstOrThrow();
    return r.id;
  }

  /** Removes the class-level 'head' duty. */
  async removeHeadDuty(em: Queryable, classId: number): Promise<void> {
    await kdb(em).deleteFrom('duty_assignments').where('class_id', '=', classId).where('student_id', 'is', null).where('duty', '=', 'head').execute();
  }

  /** The classes of the school the teacher heads or has a duty in, the ones they head first. */
  classesOf(schoolId: number, teacherId: number) {
    return kdb(this.db)
      .selectFrom('care_classes as c')
      .select((eb) => ['c.id', 'c.name', sql<boolean>`coalesce(${eb.ref('c.head_teacher_id')} = ${teacherId}, false)`.as('is_head')])
      .where('c.school_id', '=', schoolId)
      .where('c.deleted_at', 'is', null)
      .where((eb) =>
        eb.or([
          eb('c.head_teacher_id', '=', teacherId),
          eb.exists(
            eb
              .selectFrom('duty_assignments as d')
              .select(sql.lit(1).as('one'))
              .whereRef('d.class_id', '=', 'c.id')
              .where('d.teacher_id', '=', teacherId),
          ),
        ]),
      )
      .orderBy('is_head', 'desc')
      .orderBy('c.id')
      .execute();
  }

  /** A live class of the school (optionally: headed by `headId`), locked. */
  lockClass(em: Queryable, schoolId: number, id: number, headId?: number) {
    return kdb(em)
      .selectFrom('care_classes')
      .select(['id', 'name', 'capacity', 'head_teacher_id', 'class_time_id', 'version'])
      .where('id', '=', id)
      .where('school_id', '=', schoolId)
      .where('deleted_at', 'is', null)
      .$if(headId !== undefined, (q) => q.where('head_teacher_id', '=', headId!))
      .forUpdate()
      .executeTakeFirst();
  }

  async headcount(em: Queryable, classId: number): Promise<number> {
    const r = await kdb(em)
      .selectFrom('care_class_students')
      .select((eb) => sql<number>`${eb.fn.countAll()}::int`.as('n'))
      .where('class_id', '=', classId)
      .executeTakeFirstOrThrow();
    return r.n;
  }

  /** The name of an on-job teacher or head teacher of the school, the account locked against leaving meanwhile. */
  async teacherName(em: Queryable, schoolId: number, id: number): Promise<string | undefined> {
    const r = await kdb(em)
      .selectFrom('users')
      .select('name')
      .where('id', '=', id)
      .where('school_id', '=', schoolId)
      .where('role', 'in', [Role.Teacher, Role.HeadTeacher])
      .where('job_status', '=', JobStatus.OnJob)
      .where('deleted_at', 'is', null)
      .forShare()
      .executeTakeFirst();
    return r?.name;
  }

  /** Whether the school has this live time slot, locked against deletion meanwhile. */
  async slotExists(em: Queryable, schoolId: number, id: number): Promise<boolean> {
    const r = await kdb(em)
      .selectFrom('class_times')
      .select(sql.lit(1).as('one'))
      .where('id', '=', id)
      .where('school_id', '=', schoolId)
      .where('deleted_at', 'is', null)
      .forShare()
      .executeTakeFirst();
    return r !== undefined;
  }
}
