import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  type AddAfterSchoolCareInput,
  type AddWantuoStudentInput,
  type AddWantuoStudentResult,
  type AllotTeacherInput,
  type CareClass,
  type CareClassInfo,
  type CareClassStudent,
  type CareStudent,
  type ClassTimeOption,
  type ClassListQuery,
  type DelClassInput,
  type DelWantuoStudentInput,
  type DelWantuoStudentPreview,
  type DelWantuoStudentQuery,
  type DelWantuoStudentResult,
  type Duty,
  type DutyAssignment,
  type EditAfterSchoolCareInput,
  type Page,
  type SelectWantuoStudentQuery,
  type StartAndEndInput,
  type TeacherWantuoInfo,
  type TeacherWantuoStudentQuery,
  type WantuoStudentQuery,
} from '@wantuo/shared';
import { DataSource, type EntityManager } from 'typeorm';
import { containsPattern, offsetOf, pageOf, SCHOOL_TODAY, totalOf } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { studentContractsJson } from '../students/student-sql';
import { schoolOf } from '../timetable/timetable.service';

/** A class (`c`) with its head teacher (`h`), time slot (`t`) and headcount. */
const CLASS_SELECT = `select c.id, c.name, c.status::int as status, c.capacity, c.fee_fen,
    (select count(*)::int from care_class_students cs where cs.class_id = c.id) as headcount,
    c.head_teacher_id, h.name as head_teacher_name, c.class_time_id, t.name as class_time_name,
    to_char(t.start_time, 'HH24:MI') as start_time, to_char(t.end_time, 'HH24:MI') as end_time, t.weekdays::int[] as weekdays,
    c.version, c.created_at
  from care_classes c left join users h on h.id = c.head_teacher_id left join class_times t on t.id = c.class_time_id`;

/** A duty assignment (`d`) with the teacher's name (`u`). */
const DUTY_COLUMNS = `d.id, d.duty, d.teacher_id, u.name as teacher_name, d.student_id`;

/** A student (`s`) as the care screens show them. */
const STUDENT_COLUMNS = `s.id, s.name, s.gender::int as gender, s.grade, s.class_name, s.day_school`;

interface ClassHead {
  id: number;
  name: string;
  capacity: number;
  head_teacher_id: number | null;
  class_time_id: number | null;
  version: number;
}

/**
 * After-school-care classes: the admin creates and runs them, fills them with students (one class per student,
 * capacity enforced) and assigns duty teachers; a head teacher manages the students of the class they head.
 */
@Injectable()
export class CareService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Classes newest first, searchable by name and filterable by status; rows and total in one query. */
  async list(user: SessionUser, q: ClassListQuery): Promise<Page<CareClass>> {
    const where = `c.school_id = $1 and c.deleted_at is null and ($2::text is null or c.name ilike $2) and ($3::smallint is null or c.status = $3)`;
    const rows: Array<Partial<CareClass> & { total: number }> = await this.db.query(
      `select n.total, p.*
         from (select count(*)::int as total from care_classes c where ${where}) n
         left join lateral (${CLASS_SELECT} where ${where} order by c.id desc limit $4 offset $5) p on true`,
      [schoolOf(user), containsPattern(q.name), q.status ?? null, q.limit, offsetOf(q)],
    );
    const list = rows.filter((r) => r.id !== null).map(({ total: _, ...r }) => r as CareClass);
    return pageOf(list, totalOf(rows), q);
  }

  /** One class with its class-level duty teachers. */
  async info(user: SessionUser, id: number): Promise<CareClassInfo> {
    const [row]: CareClass[] = await this.db.query(`${CLASS_SELECT} where c.id = $1 and c.school_id = $2 and c.deleted_at is null`, [
      id,
      schoolOf(user),
    ]);
    if (!row) throw new AppError('care.class_not_found');
    const duties: DutyAssignment[] = await this.db.query(
      `select ${DUTY_COLUMNS} from duty_assignments d join users u on u.id = d.teacher_id
        where d.class_id = $1 and d.student_id is null order by d.duty, d.id`,
      [id],
    );
    return { ...row, duties };
  }

  /** The students of a class (paged, searchable by name) with their per-student duties. */
  async students(user: SessionUser, classId: number, q: Omit<WantuoStudentQuery, 'id'>): Promise<Page<CareClassStudent>> {
    const school = schoolOf(user);
    const [found]: unknown[] = await this.db.query(`select 1 from care_classes where id = $1 and school_id = $2 and deleted_at is null`, [
      classId,
      school,
    ]);
    if (!found) throw new AppError('care.class_not_found');
    const where = `cs.class_id = $1 and cs.school_id = $2 and ($3::text is null or s.name ilike $3)`;
    const rows: Array<Partial<CareClassStudent> & { total: number }> = await this.db.query(
      `select n.total, p.*
         from (select count(*)::int as total from care_class_students cs join students s on s.id = cs.student_id where ${where}) n
         left join lateral (
           select ${STUDENT_COLUMNS}, cs.joined_at
             from care_class_students cs join students s on s.id = cs.student_id
            where ${where} order by cs.joined_at, s.id limit $4 offset $5
         ) p on true`,
      [classId, school, containsPattern(q.name), q.limit, offsetOf(q)],
    );
    const list = rows
      .filter((r) => r.id !== null)
      .map(({ total: _, ...r }) => ({ ...r, duties: [] as DutyAssignment[], class_times: [] as ClassTimeOption[] }) as CareClassStudent);
    if (list.length) {
      const duties: DutyAssignment[] = await this.db.query(
        `select ${DUTY_COLUMNS} from duty_assignments d join users u on u.id = d.teacher_id
          where d.class_id = $1 and d.student_id = any($2::int[]) order by d.duty, d.id`,
        [classId, list.map((s) => s.id)],
      );
      const byStudent = new Map(list.map((s) => [s.id, s]));
      for (const d of duties) byStudent.get(d.student_id!)?.duties.push(d);
      // the students' own time slots (addStudentClassTime)
      const slots: Array<ClassTimeOption & { student_id: number }> = await this.db.query(
        `select sct.student_id, ct.id, ct.name, to_char(ct.start_time, 'HH24:MI') as start_time, to_char(ct.end_time, 'HH24:MI') as end_time, ct.weekdays::int[] as weekdays
           from student_class_times sct join class_times ct on ct.id = sct.class_time_id and ct.deleted_at is null
          where sct.student_id = any($1::int[]) and ct.school_id = $2 order by ct.start_time, ct.id`,
        [list.map((s) => s.id), school],
      );
      for (const { student_id, ...slot } of slots) byStudent.get(student_id)?.class_times.push(slot);
    }
    return pageOf(list, totalOf(rows), q);
  }

  /** Active students of the school that are in no care class, by name. */
  async selectable(user: SessionUser, q: SelectWantuoStudentQuery): Promise<Page<CareStudent>> {
    const where = `s.school_id = $1 and s.status = 1 and ($2::text is null or s.name ilike $2)
      and not exists (select 1 from care_class_students cs where cs.student_id = s.id)`;
    const rows: Array<Partial<CareStudent> & { total: number }> = await this.db.query(
      `select n.total, p.*
         from (select count(*)::int as total from students s where ${where}) n
         left join lateral (select ${STUDENT_COLUMNS} from students s where ${where} order by s.name, s.id limit $3 offset $4) p on true`,
      [schoolOf(user), containsPattern(q.name), q.limit, offsetOf(q)],
    );
    const list = rows.filter((r) => r.id !== null).map(({ total: _, ...r }) => r as CareStudent);
    return pageOf(list, totalOf(rows), q);
  }

  async create(user: SessionUser, input: AddAfterSchoolCareInput): Promise<CareClassInfo> {
    const school = schoolOf(user);
    const id = await this.db.transaction(async (em) => {
      if (input.head_teacher_id) await this.checkTeacher(em, school, input.head_teacher_id);
      if (input.class_time_id) await this.checkSlot(em, school, input.class_time_id);
      const [row]: Array<{ id: number }> = await em.query(
        `insert into care_classes (school_id, name, head_teacher_id, class_time_id, capacity, fee_fen)
         values ($1, $2, $3, $4, $5, $6) returning id`,
        [school, input.name, input.head_teacher_id ?? null, input.class_time_id ?? null, input.capacity, input.fee_fen ?? 0],
      );
      await this.syncHead(em, school, row.id, input.head_teacher_id ?? null);
      return row.id;
    });
    return this.info(user, id);
  }

  /**
   * Edits a class on the version the caller read. An absent head_teacher_id or class_time_id keeps the current one,
   * null clears it; the capacity cannot go below the headcount.
   */
  async edit(user: SessionUser, input: EditAfterSchoolCareInput): Promise<CareClassInfo> {
    const school = schoolOf(user);
    await this.db.transaction(async (em) => {
      const current = await this.lockClass(em, school, input.id);
      if (current.version !== input.version) throw new AppError('error.conflict');
      const head = input.head_teacher_id === undefined ? current.head_teacher_id : input.head_teacher_id;
      const slot = input.class_time_id === undefined ? current.class_time_id : input.class_time_id;
      if (head && head !== current.head_teacher_id) await this.checkTeacher(em, school, head);
      if (slot && slot !== current.class_time_id) await this.checkSlot(em, school, slot);
      const headcount = await this.headcount(em, input.id);
      if (input.capacity < headcount) throw new AppError('care.capacity_below_headcount', { headcount });
      await em.query(
        `update care_classes set name = $2, head_teacher_id = $3, class_time_id = $4, capacity = $5, fee_fen = $6,
                version = version + 1, updated_at = now()
          where id = $1`,
        [input.id, input.name, head, slot, input.capacity, input.fee_fen],
      );
      if (head !== current.head_teacher_id) await this.syncHead(em, school, input.id, head);
    });
    return this.info(user, input.id);
  }

  /**
   * Adds students to a class, all or none: they must be active students of the school in no care class, and the
   * class must have room for all of them. `asHead`: only the class the caller heads.
   */
  async addStudents(user: SessionUser, input: AddWantuoStudentInput, asHead: boolean): Promise<AddWantuoStudentResult> {
    const school = schoolOf(user);
    return this.db.transaction(async (em) => {
      const cls = await this.lockClass(em, school, input.class_id, asHead ? user.id : undefined);
      // locks the students: two requests adding the same student to two classes wait on each other
      const found: Array<{ id: number }> = await em.query(
        `select id from students where id = any($1::int[]) and school_id = $2 and status = 1 order by id for update`,
        [input.student_ids, school],
      );
      if (found.length !== input.student_ids.length) {
        const ok = new Set(found.map((s) => s.id));
        throw new AppError('care.students_not_found', { ids: input.student_ids.filter((id) => !ok.has(id)).join(', ') });
      }
      const [taken]: Array<{ student: string; class: string }> = await em.query(
        `select s.name as student, c.name as class from care_class_students cs
           join students s on s.id = cs.student_id join care_classes c on c.id = cs.class_id
          where cs.student_id = any($1::int[]) order by s.id limit 1`,
        [input.student_ids],
      );
      if (taken) throw new AppError('care.student_in_class', { student: taken.student, class: taken.class });
      const headcount = await this.headcount(em, cls.id);
      const count = input.student_ids.length;
      if (headcount + count > cls.capacity) {
        throw new AppError('care.capacity_exceeded', { capacity: cls.capacity, headcount, room: Math.max(0, cls.capacity - headcount), count });
      }
      await em.query(`insert into care_class_students (school_id, class_id, student_id) select $1, $2, unnest($3::int[])`, [
        school,
        cls.id,
        input.student_ids,
      ]);
      return { class_id: cls.id, added: count, headcount: headcount + count, capacity: cls.capacity };
    });
  }

  /** What removing a student from a class affects: the student's own duty assignments in it. */
  async removePreview(user: SessionUser, q: DelWantuoStudentQuery): Promise<DelWantuoStudentPreview> {
    const school = schoolOf(user);
    const [row]: Array<{ class_name: string; student_name: string }> = await this.db.query(
      `select c.name as class_name, s.name as student_name
         from care_classes c
         left join care_class_students cs on cs.class_id = c.id and cs.student_id = $2
         left join students s on s.id = cs.student_id
        where c.id = $1 and c.school_id = $3 and c.deleted_at is null`,
      [q.class_id, q.student_id, school],
    );
    if (!row) throw new AppError('care.class_not_found');
    if (row.student_name === null) throw new AppError('care.student_not_in_class');
    const duties: DutyAssignment[] = await this.db.query(
      `select ${DUTY_COLUMNS} from duty_assignments d join users u on u.id = d.teacher_id
        where d.class_id = $1 and d.student_id = $2 order by d.duty, d.id`,
      [q.class_id, q.student_id],
    );
    // what stays with the student after the removal: open contracts and dinner bookings from the school's today on
    const [kept]: Array<Pick<DelWantuoStudentPreview, 'contracts' | 'meal_bookings'>> = await this.db.query(
      `select ${studentContractsJson('$2', '$1', { openOnly: true, limit: 50 })} as contracts,
              coalesce((select json_agg(json_build_object('id', b.id, 'day', to_char(b.day, 'YYYY-MM-DD'), 'goods_name', g.name, 'status', b.status,
                                                          'price_fen', b.price_fen, 'pay_from', b.pay_from) order by b.day, b.id)
                          from meal_bookings b left join meal_goods g on g.id = b.goods_id
                         where b.student_id = $2 and b.school_id = $1 and b.day >= d.today and b.status in ('booked', 'unpaid') and b.served_at is null), '[]'::json) as meal_bookings
         from ${SCHOOL_TODAY} d`,
      [school, q.student_id],
    );
    return { class_id: q.class_id, class_name: row.class_name, student_id: q.student_id, student_name: row.student_name, duties, ...kept };
  }

  /** Removes a student from a class with the student's duty assignments in it. `asHead`: only the caller's class. */
  async removeStudent(user: SessionUser, input: DelWantuoStudentInput, asHead: boolean): Promise<DelWantuoStudentResult> {
    const school = schoolOf(user);
    return this.db.transaction(async (em) => {
      const cls = await this.lockClass(em, school, input.class_id, asHead ? user.id : undefined);
      const [, removed]: [unknown[], number] = await em.query(
        `delete from care_class_students where class_id = $1 and student_id = $2 returning student_id`,
        [cls.id, input.student_id],
      );
      if (removed === 0) throw new AppError('care.student_not_in_class');
      const [, duties]: [unknown[], number] = await em.query(`delete from duty_assignments where class_id = $1 and student_id = $2 returning id`, [
        cls.id,
        input.student_id,
      ]);
      return { class_id: cls.id, student_id: input.student_id, removed_duties: duties, headcount: await this.headcount(em, cls.id) };
    });
  }

  /** Soft-deletes a class that has no students. */
  async del(user: SessionUser, input: DelClassInput): Promise<{ id: number }> {
    const school = schoolOf(user);
    return this.db.transaction(async (em) => {
      await this.lockClass(em, school, input.id);
      const count = await this.headcount(em, input.id);
      if (count > 0) throw new AppError('care.class_has_students', { count });
      await em.query(`update care_classes set deleted_at = now(), version = version + 1, updated_at = now() where id = $1`, [input.id]);
      return { id: input.id };
    });
  }

  /** Starts (1) or stops (0) a class on the version the caller read. */
  async setStatus(user: SessionUser, input: StartAndEndInput): Promise<CareClassInfo> {
    const school = schoolOf(user);
    const [rows]: [unknown[], number] = await this.db.query(
      `update care_classes set status = $4, version = version + 1, updated_at = now()
        where id = $1 and school_id = $2 and version = $3 and deleted_at is null returning id`,
      [input.id, school, input.version, input.status],
    );
    if (rows.length === 0) {
      const [found]: unknown[] = await this.db.query(`select 1 from care_classes where id = $1 and school_id = $2 and deleted_at is null`, [
        input.id,
        school,
      ]);
      throw new AppError(found ? 'error.conflict' : 'care.class_not_found');
    }
    return this.info(user, input.id);
  }

  /**
   * Assigns (or with `remove` removes) the teacher of a duty of a class or of one of its students; one teacher per
   * (class, student, duty). The class's 'head' duty is also its head_teacher_id.
   */
  async allotTeacher(
    user: SessionUser,
    input: AllotTeacherInput,
  ): Promise<{ class_id: number; student_id: number | null; duty: Duty; assignment: DutyAssignment | null }> {
    const school = schoolOf(user);
    const studentId = input.student_id ?? null;
    return this.db.transaction(async (em) => {
      const cls = await this.lockClass(em, school, input.class_id);
      if (studentId !== null) {
        const [member]: unknown[] = await em.query(`select 1 from care_class_students where class_id = $1 and student_id = $2`, [cls.id, studentId]);
        if (!member) throw new AppError('care.student_not_in_class');
      }
      const base = { class_id: cls.id, student_id: studentId, duty: input.duty };
      if (input.remove) {
        await em.query(`delete from duty_assignments where class_id = $1 and coalesce(student_id, 0) = coalesce($2::int, 0) and duty = $3`, [
          cls.id,
          studentId,
          input.duty,
        ]);
        if (input.duty === 'head' && cls.head_teacher_id !== null) {
          await em.query(`update care_classes set head_teacher_id = null, version = version + 1, updated_at = now() where id = $1`, [cls.id]);
        }
        return { ...base, assignment: null };
      }
      const teacherId = input.teacher_id!;
      const teacherName = await this.checkTeacher(em, school, teacherId);
      const [row]: Array<{ id: number }> = await em.query(
        `insert into duty_assignments (school_id, class_id, student_id, teacher_id, duty) values ($1, $2, $3, $4, $5)
         on conflict (class_id, coalesce(student_id, 0), duty) do update set teacher_id = excluded.teacher_id, created_at = now()
         returning id`,
        [school, cls.id, studentId, teacherId, input.duty],
      );
      if (input.duty === 'head' && cls.head_teacher_id !== teacherId) {
        await em.query(`update care_classes set head_teacher_id = $2, version = version + 1, updated_at = now() where id = $1`, [cls.id, teacherId]);
      }
      return { ...base, assignment: { id: row.id, duty: input.duty, teacher_id: teacherId, teacher_name: teacherName, student_id: studentId } };
    });
  }

  /** The class the caller heads or has a duty in (`id`, else the one they head, else the first), with all their classes. */
  async teacherInfo(user: SessionUser, id: number | undefined): Promise<TeacherWantuoInfo> {
    const classes = await this.classesOf(user);
    const chosen = this.choose(classes, id);
    return { classes, class: chosen === null ? null : await this.info(user, chosen) };
  }

  /** The students of the caller's class (see teacherInfo); an empty page when the caller has no class. */
  async teacherStudents(user: SessionUser, q: TeacherWantuoStudentQuery): Promise<Page<CareClassStudent>> {
    const chosen = this.choose(await this.classesOf(user), q.id);
    if (chosen === null) return pageOf([], 0, q);
    return this.students(user, chosen, q);
  }

  private async classesOf(user: SessionUser): Promise<TeacherWantuoInfo['classes']> {
    return this.db.query(
      `select c.id, c.name, coalesce(c.head_teacher_id = $1, false) as is_head
         from care_classes c
        where c.school_id = $2 and c.deleted_at is null
          and (c.head_teacher_id = $1 or exists (select 1 from duty_assignments d where d.class_id = c.id and d.teacher_id = $1))
        order by is_head desc, c.id`,
      [user.id, schoolOf(user)],
    );
  }

  private choose(classes: TeacherWantuoInfo['classes'], id: number | undefined): number | null {
    if (id === undefined) return classes[0]?.id ?? null;
    if (!classes.some((c) => c.id === id)) throw new AppError('care.class_not_found');
    return id;
  }

  /** Locks a live class of the school (optionally: headed by `headId`); else answers not found. */
  private async lockClass(em: EntityManager, school: number, id: number, headId?: number): Promise<ClassHead> {
    const [row]: ClassHead[] = await em.query(
      `select id, name, capacity, head_teacher_id, class_time_id, version from care_classes
        where id = $1 and school_id = $2 and deleted_at is null and ($3::int is null or head_teacher_id = $3) for update`,
      [id, school, headId ?? null],
    );
    if (!row) throw new AppError('care.class_not_found');
    return row;
  }

  private async headcount(em: EntityManager, classId: number): Promise<number> {
    const [row]: Array<{ n: number }> = await em.query(`select count(*)::int as n from care_class_students where class_id = $1`, [classId]);
    return row.n;
  }

  /** An on-job teacher or head teacher of the school (locked against leaving meanwhile); answers the name. */
  private async checkTeacher(em: EntityManager, school: number, id: number): Promise<string> {
    const [row]: Array<{ name: string }> = await em.query(
      `select name from users where id = $1 and school_id = $2 and role in (2, 5) and job_status = 1 and deleted_at is null for share`,
      [id, school],
    );
    if (!row) throw new AppError('care.teacher_invalid');
    return row.name;
  }

  private async checkSlot(em: EntityManager, school: number, id: number): Promise<void> {
    const [row]: unknown[] = await em.query(`select 1 from class_times where id = $1 and school_id = $2 and deleted_at is null for share`, [
      id,
      school,
    ]);
    if (!row) throw new AppError('care.class_time_not_found');
  }

  /** Makes the class-level 'head' duty match head_teacher_id. */
  private async syncHead(em: EntityManager, school: number, classId: number, head: number | null): Promise<void> {
    if (head === null) {
      await em.query(`delete from duty_assignments where class_id = $1 and student_id is null and duty = 'head'`, [classId]);
      return;
    }
    await em.query(
      `insert into duty_assignments (school_id, class_id, student_id, teacher_id, duty) values ($1, $2, null, $3, 'head')
       on conflict (class_id, coalesce(student_id, 0), duty) do update set teacher_id = excluded.teacher_id, created_at = now()`,
      [school, classId, head],
    );
  }
}
