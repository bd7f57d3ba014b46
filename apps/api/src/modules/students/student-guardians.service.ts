import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Page, SaveStudentGuardiansInput, StudentDetail, StudentGuardianChange, StudentGuardianLogInput } from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { offsetOf, pageOf, totalOf } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { callerView } from '../privacy/mobile-access';
import { StudentsService } from './students.service';

interface Current {
  user_id: number;
  name: string;
  mobile: string | null;
  relation: string;
  is_primary: boolean;
}

interface Change {
  kind: StudentGuardianChange['kind'];
  guardian_id: number;
  guardian_name: string;
  guardian_mobile: string | null;
  relation: string;
  old_relation: string | null;
}

/**
 * The guardians of an existing student (saveStudentGuardians, studentGuardianLog): the admin replaces the list on the
 * guardians_version read; each difference (added, removed, relation, made primary) is appended to
 * student_guardian_changes with who and when. A fixed number of statements whatever the list.
 */
@Injectable()
export class StudentGuardiansService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly students: StudentsService,
  ) {}

  async save(user: SessionUser, input: SaveStudentGuardiansInput): Promise<StudentDetail> {
    const schoolId = user.schoolId!;
    return this.db.transaction(async (em) => {
      // parent accounts are created under the school's lock, as addStudent and the import do
      await this.students.lockSchool(em, schoolId);
      const [student]: Array<{ guardians_version: number }> = await em.query(
        `select guardians_version from students where id = $1 and school_id = $2 for update`,
        [input.student_id, schoolId],
      );
      if (!student) throw new AppError('stu.not_found');
      if (student.guardians_version !== input.version) throw new AppError('error.conflict');
      const current: Current[] = await em.query(
        `select g.user_id, u.name, u.mobile, g.relation, g.is_primary
           from student_guardians g join users u on u.id = g.user_id
          where g.student_id = $1 order by g.is_primary desc, g.created_at, g.user_id`,
        [input.student_id],
      );
      const byMobile = new Map(current.filter((g) => g.mobile).map((g) => [g.mobile!, g]));
      const fresh = input.guardians.filter((g) => !byMobile.has(g.mobile));
      const accounts = fresh.length
        ? await this.students.ensureParents(
            em,
            schoolId,
            fresh.map((g) => ({ mobile: g.mobile, name: g.name })),
          )
        : new Map<string, number>();
      const names: Map<number, string> = fresh.length
        ? new Map(
            ((await em.query(`select id, name from users where id = any($1)`, [[...accounts.values()]])) as Array<{ id: number; name: string }>).map(
              (u) => [u.id, u.name],
            ),
          )
        : new Map();

      const wanted = input.guardians.map((g) => {
        const known = byMobile.get(g.mobile);
        const userId = known?.user_id ?? accounts.get(g.mobile)!;
        return {
          user_id: userId,
          name: known?.name ?? names.get(userId) ?? g.name,
          mobile: g.mobile,
          relation: g.relation,
          is_primary: !!g.is_primary,
          known,
        };
      });
      const kept = new Set(wanted.map((w) => w.user_id));
      const changes: Change[] = [];
      for (const g of current) {
        if (!kept.has(g.user_id))
          changes.push({
            kind: 'removed',
            guardian_id: g.user_id,
            guardian_name: g.name,
            guardian_mobile: g.mobile,
            relation: g.relation,
            old_relation: null,
          });
      }
      for (const w of wanted) {
        if (!w.known)
          changes.push({
            kind: 'added',
            guardian_id: w.user_id,
            guardian_name: w.name,
            guardian_mobile: w.mobile,
            relation: w.relation,
            old_relation: null,
          });
        else if (w.known.relation !== w.relation)
          changes.push({
            kind: 'relation',
            guardian_id: w.user_id,
            guardian_name: w.name,
            guardian_mobile: w.mobile,
            relation: w.relation,
            old_relation: w.known.relation,
          });
      }
      const primary = wanted.find((w) => w.is_primary)!;
      if (!primary.known?.is_primary) {
        changes.push({
          kind: 'primary',
          guardian_id: primary.user_id,
          guardian_name: primary.name,
          guardian_mobile: primary.mobile,
          relation: primary.relation,
          old_relation: null,
        });
      }
      if (!changes.length) return (await this.students.detail(em, schoolId, input.student_id, callerView(user)))!;

      const removed = current.filter((g) => !kept.has(g.user_id)).map((g) => g.user_id);
      if (removed.length) {
        await em.query(`delete from student_guardians where student_id = $1 and user_id = any($2)`, [input.student_id, removed]);
      }
      // the old primary first gives way: the one-primary index is checked row by row
      await em.query(`update student_guardians set is_primary = false where student_id = $1 and is_primary and user_id <> $2`, [
        input.student_id,
        primary.user_id,
      ]);
      const stay = wanted.filter((w) => w.known).map((w) => ({ user_id: w.user_id, relation: w.relation, is_primary: w.is_primary }));
      await em.query(
        `update student_guardians g set relation = x.relation, is_primary = x.is_primary
           from jsonb_to_recordset($2::jsonb) as x(user_id int, relation text, is_primary boolean)
          where g.student_id = $1 and g.user_id = x.user_id and (g.relation <> x.relation or g.is_primary <> x.is_primary)`,
        [input.student_id, JSON.stringify(stay)],
      );
      const added = wanted.filter((w) => !w.known).map((w) => ({ user_id: w.user_id, relation: w.relation, is_primary: w.is_primary }));
      if (added.length) {
        await em.query(
          `insert into student_guardians (school_id, student_id, user_id, relation, is_primary)
           select $1, $2, x.user_id, x.relation, x.is_primary from jsonb_to_recordset($3::jsonb) as x(user_id int, relation text, is_primary boolean)`,
          [schoolId, input.student_id, JSON.stringify(added)],
        );
      }
      const [bumped]: [Array<{ guardians_version: number }>, number] = await em.query(
        `update students set guardians_version = guardians_version + 1, updated_at = now() where id = $1 returning guardians_version`,
        [input.student_id],
      );
      await em.query(
        `insert into student_guardian_changes (school_id, student_id, kind, guardian_id, guardian_name, guardian_mobile, relation, old_relation, guardians_version, actor_id)
         select $1, $2, x.kind, x.guardian_id, x.guardian_name, x.guardian_mobile, x.relation, x.old_relation, $3, $4
           from jsonb_array_elements($5::jsonb) with ordinality as e(v, ord),
                jsonb_to_record(e.v) as x(kind text, guardian_id int, guardian_name text, guardian_mobile text, relation text, old_relation text)
          order by e.ord`,
        [schoolId, input.student_id, bumped[0].guardians_version, user.id, JSON.stringify(changes)],
      );
      return (await this.students.detail(em, schoolId, input.student_id, callerView(user)))!;
    });
  }

  /** The student's guardian changes, newest first, paged: the student and total in one statement, the page in it too. */
  async log(user: SessionUser, q: StudentGuardianLogInput): Promise<Page<StudentGuardianChange>> {
    const rows: Array<StudentGuardianChange & { total: number | null }> = await this.db.query(
      `select n.total, p.*
         from students s
         cross join lateral (select count(*)::int as total from student_guardian_changes where student_id = s.id) n
         left join lateral (
           select c.id::int as id, c.kind, c.guardian_id, c.guardian_name, c.guardian_mobile, c.relation, c.old_relation,
                  c.guardians_version, c.actor_id, a.name as actor_name, c.created_at
             from student_guardian_changes c join users a on a.id = c.actor_id
            where c.student_id = s.id
            order by c.id desc
            limit $3 offset $4
         ) p on true
        where s.id = $1 and s.school_id = $2`,
      [q.student_id, user.schoolId, q.limit, offsetOf(q)],
    );
    if (!rows.length) throw new AppError('stu.not_found');
    const list = rows.filter((r) => r.id !== null).map(({ total: _, ...r }) => r as StudentGuardianChange);
    return pageOf(list, totalOf(rows), q);
  }
}
