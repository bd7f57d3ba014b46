import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  JobStatus,
  Role,
  type AccountListQuery,
  type AddTeacherInput,
  type EditTeacherInput,
  type MessageKey,
  type Page,
  type ResetTeacherPwdInput,
  type ResetTeacherPwdResult,
  type StaffDuty,
  type StaffPick,
  type StaffPickerQuery,
  type StaffRow,
  type TeacherIdInput,
  type TeacherInfoQuery,
  type TeacherSaveInfoInput,
  type TeachersListQuery,
} from '@wantuo/shared';
import { randomInt } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { SessionService } from '../../core/auth/session.service';
import { uniqueViolationOf } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import type { Sendable } from '../../core/http/sendable';
import { hashPassword } from '../auth/passwords';
import { StaffRepository, type Picker, type StaffAccount, type StaffChanges } from './staff.repository';

export type { Picker } from './staff.repository';

const STILL_DUTY: Record<StaffDuty, MessageKey> = {
  shuttle: 'staff.still_duty_shuttle',
  tutor: 'staff.still_duty_tutor',
  head: 'staff.still_duty_head',
};

/** A password that meets the policy: 12 characters of an unambiguous alphabet, with letters and digits. */
export function generatePassword(): string {
  const letters = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKMNPQRSTUVWXYZ';
  const digits = '23456789';
  const all = letters + digits;
  const chars = [letters[randomInt(letters.length)], digits[randomInt(digits.length)]];
  while (chars.length < 12) chars.push(all[randomInt(all.length)]);
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j], chars[i]];
  }
  return chars.join('');
}

/**
 * Staff accounts of the caller's school: the admin lists, adds, edits, deletes teachers and head teachers,
 * sets them left-job or on-job and resets their passwords; teachers read and edit their own profile;
 * duty pickers list the on-job staff who can take a duty.
 */
@Injectable()
export class StaffService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly sessions: SessionService,
    private readonly repo: StaffRepository,
  ) {}

  /** All staff (admins, teachers, head teachers), newest first; rows and total in one query. */
  accountList(user: SchoolCaller, q: AccountListQuery): Promise<Page<Sendable<StaffRow>>> {
    return this.page(user, q, q.role ? [q.role] : [Role.Admin, Role.Teacher, Role.HeadTeacher]);
  }

  /** Teachers and head teachers. */
  teachersList(user: SchoolCaller, q: TeachersListQuery): Promise<Page<Sendable<StaffRow>>> {
    return this.page(user, q, q.role ? [q.role] : [Role.Teacher, Role.HeadTeacher]);
  }

  private async page(
    user: SchoolCaller,
    q: { page: number; limit: number; keyword?: string; job_status?: number },
    roles: Role[],
  ): Promise<Page<Sendable<StaffRow>>> {
    return this.repo.page(user.schoolId, roles, q.job_status ?? null, q.keyword || null, q);
  }

  /**
   * One profile. Without an id: the caller's own. An admin or head teacher reads any teacher of the school;
   * a teacher only their own (another id is not found).
   */
  async teacherInfo(user: SchoolCaller, q: TeacherInfoQuery): Promise<Sendable<StaffRow>> {
    const id = q.id ?? user.id;
    if (id !== user.id && user.role === Role.Teacher) throw new AppError('staff.not_found');
    const row = await this.repo.profile(user.schoolId, id, user.id);
    if (!row) throw new AppError('staff.not_found');
    return row;
  }

  /** A new teacher or head teacher of the caller's school, on-job, with an initial password. */
  async addTeacher(user: SchoolCaller, input: AddTeacherInput): Promise<Sendable<StaffRow>> {
    const passwordHash = await hashPassword(input.password);
    try {
      return await this.db.transaction(async (em) => {
        await this.assertMobileFree(em, user.schoolId, input.mobile, null);
        if (input.email) await this.assertEmailFree(em, input.email, null);
        let username = input.username;
        if (username) {
          if (await this.repo.usernameTaken(em, username)) throw new AppError('staff.username_taken', { username });
        } else {
          username = await this.freeUsername(em, `t${input.mobile}`);
        }
        return this.repo.insert(em, {
          school_id: user.schoolId,
          role: input.role,
          username,
          name: input.name,
          nickname: input.nickname || input.name,
          mobile: input.mobile,
          email: input.email || null,
          password_hash: passwordHash,
          duties: input.duties ?? [],
          gender: input.gender ?? null,
          remark: input.remark || null,
        });
      });
    } catch (e) {
      throw await this.explainUnique(e, user.schoolId, input);
    }
  }

  /** Changes the fields given, on the version the admin read. */
  async editTeacher(user: SchoolCaller, input: EditTeacherInput): Promise<Sendable<StaffRow>> {
    try {
      return await this.db.transaction(async (em) => {
        const current = await this.target(em, user, input.id);
        if (current.version !== input.version) throw new AppError('error.conflict');
        if (input.mobile !== undefined) await this.assertMobileFree(em, user.schoolId, input.mobile, input.id);
        if (input.email) await this.assertEmailFree(em, input.email, input.id);
        if (input.role !== undefined || input.duties !== undefined) await this.assertStillFits(em, user.schoolId, current, input);
        const row = await this.repo.update(em, input.id, input.version, this.changes(input));
        if (!row) throw new AppError('error.conflict');
        // a role or name change reaches the sessions of the teacher at once
        await this.sessions.changed(em);
        return row;
      });
    } catch (e) {
      throw await this.explainUnique(e, user.schoolId, input);
    }
  }

  /** Soft delete, refused while the teacher still heads a class or holds a duty (the message names them). */
  async delTeacher(user: SchoolCaller, input: TeacherIdInput): Promise<Record<string, never>> {
    await this.db.transaction(async (em) => {
      const current = await this.target(em, user, input.id);
      this.checkVersion(current, input.version);
      const holds = await this.repo.holdsOf(em, user.schoolId, input.id);
      const hold = holds.find((h) => h.duty === 'class_head') ?? holds[0];
      if (hold) throw this.stillHolds(current.name, hold);
      await this.repo.softDelete(em, input.id, current.version);
      await this.revokeTokens(em, input.id);
    });
    return {};
  }

  private stillHolds(name: string, hold: { duty: 'class_head' | StaffDuty; classes: string }): AppError {
    return new AppError(hold.duty === 'class_head' ? 'staff.still_heads' : STILL_DUTY[hold.duty], { name, classes: hold.classes });
  }

  /**
   * A change of role or duties must leave the teacher fit for what they hold: heading a class or the head duty needs
   * role head teacher or the head duty; the shuttle and tutoring duties need that duty. Refused naming the classes.
   */
  private async assertStillFits(em: EntityManager, schoolId: number, current: StaffAccount, input: EditTeacherInput): Promise<void> {
    const role = input.role ?? current.role;
    const duties: readonly string[] = input.duties ?? current.duties;
    const fits = (duty: 'class_head' | StaffDuty) =>
      duty === 'class_head' || duty === 'head' ? role === Role.HeadTeacher || duties.includes('head') : duties.includes(duty);
    const hold = (await this.repo.holdsOf(em, schoolId, current.id)).find((h) => !fits(h.duty));
    if (hold) throw this.stillHolds(current.name, hold);
  }

  /** Left-job: the account cannot sign in, its sessions end, it leaves the duty pickers; its history stays. */
  async setLeave(user: SchoolCaller, input: TeacherIdInput): Promise<Sendable<StaffRow>> {
    return this.db.transaction(async (em) => {
      const current = await this.target(em, user, input.id);
      this.checkVersion(current, input.version);
      if (current.job_status === JobStatus.Left) throw new AppError('staff.already_left', { name: current.name });
      const row = await this.setJob(em, current, JobStatus.Left);
      await this.revokeTokens(em, input.id);
      return row;
    });
  }

  /** On-job again: the account can sign in and is listed by the duty pickers. */
  async onJob(user: SchoolCaller, input: TeacherIdInput): Promise<Sendable<StaffRow>> {
    return this.db.transaction(async (em) => {
      const current = await this.target(em, user, input.id);
      this.checkVersion(current, input.version);
      if (current.job_status === JobStatus.OnJob) throw new AppError('staff.already_on_job', { name: current.name });
      return this.setJob(em, current, JobStatus.OnJob);
    });
  }

  /** Sets the password the admin chose, or a generated one (answered once); every session of the teacher ends. */
  async resetTeacherPwd(user: SchoolCaller, input: ResetTeacherPwdInput): Promise<ResetTeacherPwdResult> {
    const generated = input.password ? null : generatePassword();
    const passwordHash = await hashPassword(input.password ?? generated!);
    await this.db.transaction(async (em) => {
      const current = await this.target(em, user, input.id);
      this.checkVersion(current, input.version);
      await this.repo.setPassword(em, input.id, passwordHash, current.version);
      await this.revokeTokens(em, input.id);
    });
    return { id: input.id, password: generated };
  }

  /** A teacher or head teacher edits their own profile: nickname, name, gender, e-mail, remark. */
  async teacherSaveInfo(user: SchoolCaller, input: TeacherSaveInfoInput): Promise<Sendable<StaffRow>> {
    try {
      return await this.db.transaction(async (em) => {
        const current = await this.repo.ownVersion(em, user.id, user.schoolId);
        if (!current) throw new AppError('staff.not_found');
        this.checkVersion(current, input.version);
        if (input.email) await this.assertEmailFree(em, input.email, user.id);
        const row = await this.repo.update(em, user.id, null, this.changes(input));
        await this.sessions.changed(em);
        return row!;
      });
    } catch (e) {
      throw await this.explainUnique(e, user.schoolId, input);
    }
  }

  /** On-job staff of the school who can take a duty, by name. */
  async picker(user: SchoolCaller, kind: Picker, q: StaffPickerQuery): Promise<Page<Sendable<StaffPick>>> {
    return this.repo.picker(user.schoolId, kind, q.keyword || null, q);
  }

  /**
   * The teacher an admin action works on, locked for the transaction: of the caller's school, not deleted,
   * never an admin account (another school's id is not found, like an unknown one).
   */
  private async target(em: EntityManager, user: SchoolCaller, id: number): Promise<StaffAccount> {
    const row = await this.repo.target(em, user.schoolId, id);
    if (!row) throw new AppError('staff.not_found');
    if (row.role === Role.Admin) throw new AppError('staff.admin_protected');
    return row;
  }

  private checkVersion(current: { version: number }, version: number | undefined): void {
    if (version !== undefined && version !== current.version) throw new AppError('error.conflict');
  }

  private async setJob(em: EntityManager, current: StaffAccount, status: JobStatus): Promise<Sendable<StaffRow>> {
    const row = await this.repo.setJob(em, current.id, current.version, status);
    await this.sessions.changed(em);
    return row;
  }

  private async revokeTokens(em: EntityManager, userId: number): Promise<void> {
    await this.repo.revokeTokens(em, userId);
    await this.sessions.changed(em);
  }

  /** The profile fields given. */
  private changes(input: Partial<EditTeacherInput>): StaffChanges {
    const c: StaffChanges = {};
    if (input.name !== undefined) c.name = input.name;
    if (input.nickname !== undefined) c.nickname = input.nickname;
    if (input.mobile !== undefined) c.mobile = input.mobile;
    if (input.role !== undefined) c.role = input.role;
    if (input.duties !== undefined) c.duties = input.duties;
    if (input.gender !== undefined) c.gender = input.gender;
    if (input.email !== undefined) c.email = input.email || null;
    if (input.remark !== undefined) c.remark = input.remark || null;
    return c;
  }

  /** Checks under a lock on (school, mobile): of two concurrent writes of one mobile the second sees the first. */
  private async assertMobileFree(em: EntityManager, schoolId: number, mobile: string, exceptId: number | null): Promise<void> {
    await this.repo.lockMobile(em, schoolId, mobile);
    const other = await this.repo.mobileHolder(em, schoolId, mobile, exceptId);
    if (other !== undefined) throw new AppError('staff.mobile_taken', { mobile, name: other });
  }

  private async assertEmailFree(em: EntityManager, email: string, exceptId: number | null): Promise<void> {
    if (await this.repo.emailTaken(em, email, exceptId)) throw new AppError('staff.email_taken', { email });
  }

  /** `base`, or `base_2`, `base_3`, ...: the first user name no account has (platform-wide, case-insensitive). */
  private async freeUsername(em: EntityManager, base: string): Promise<string> {
    // concurrent additions from one base (the same mobile in two schools) pick their names one after the other
    const taken = new Set(await this.repo.usernamesFrom(em, base));
    if (!taken.has(base.toLowerCase())) return base;
    for (let n = 2; ; n++) if (!taken.has(`${base}_${n}`.toLowerCase())) return `${base}_${n}`;
  }

  /** A concurrent write that won the race on a unique index: the same message as the check before it. */
  private async explainUnique(e: unknown, schoolId: number | null, input: { mobile?: string; email?: string; username?: string }): Promise<unknown> {
    const constraint = uniqueViolationOf(e);
    if (constraint === null) return e;
    if (constraint.includes('mobile')) {
      const other = await this.repo.mobileHolder(this.db, schoolId, input.mobile, null);
      return new AppError('staff.mobile_taken', { mobile: input.mobile ?? '', name: other ?? '?' });
    }
    if (constraint.includes('email')) return new AppError('staff.email_taken', { email: input.email ?? '' });
    return new AppError('staff.username_taken', { username: input.username ?? '' });
  }
}
