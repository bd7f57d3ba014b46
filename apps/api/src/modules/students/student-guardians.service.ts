import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Page, SaveStudentGuardiansInput, StudentDetail, StudentGuardianChange, StudentGuardianLogInput } from '@wantuo/shared';
import { DataSource } from 'typeorm';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { AppError } from '../../core/http/app-error';
import type { Sendable } from '../../core/http/sendable';
import { callerView } from '../privacy/mobile-access';
import { StudentsGuardiansRepository, type GuardianChange } from './students-guardians.repository';
import { StudentsRepository } from './students.repository';
import { StudentsService } from './students.service';

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
    private readonly repo: StudentsGuardiansRepository,
    private readonly rows: StudentsRepository,
  ) {}

  async save(user: SchoolCaller, input: SaveStudentGuardiansInput): Promise<Sendable<StudentDetail>> {
    const schoolId = user.schoolId;
    return this.db.transaction(async (em) => {
      // parent accounts are created under the school's lock, as addStudent and the import do
      await this.students.lockSchool(em, schoolId);
      const student = await this.repo.versionForUpdate(em, schoolId, input.student_id);
      if (!student) throw new AppError('stu.not_found');
      if (student.guardians_version !== input.version) throw new AppError('error.conflict');
      const current = await this.repo.current(em, input.student_id);
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
        ? new Map((await this.rows.userNames(em, [...accounts.values()])).map((u) => [u.id, u.name]))
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
      const changes: GuardianChange[] = [];
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
      if (removed.length) await this.repo.remove(em, input.student_id, removed);
      // the old primary first gives way: the one-primary index is checked row by row
      await this.repo.unsetPrimary(em, input.student_id, primary.user_id);
      const stay = wanted.filter((w) => w.known).map((w) => ({ user_id: w.user_id, relation: w.relation, is_primary: w.is_primary }));
      await this.repo.updateLinks(em, input.student_id, stay);
      const added = wanted
        .filter((w) => !w.known)
        .map((w) => ({ student_id: input.student_id, user_id: w.user_id, relation: w.relation, is_primary: w.is_primary }));
      if (added.length) await this.rows.insertGuardians(em, schoolId, added);
      const version = await this.repo.bumpVersion(em, input.student_id);
      await this.repo.insertChanges(em, { schoolId, studentId: input.student_id, version, actorId: user.id }, changes);
      return (await this.students.detail(em, schoolId, input.student_id, callerView(user)))!;
    });
  }

  /** The student's guardian changes, newest first, paged: the student and total in one statement, the page in it too. */
  async log(user: SchoolCaller, q: StudentGuardianLogInput): Promise<Sendable<Page<StudentGuardianChange>>> {
    const page = await this.repo.log(user.schoolId, q.student_id, q);
    if (!page) throw new AppError('stu.not_found');
    return page;
  }
}
