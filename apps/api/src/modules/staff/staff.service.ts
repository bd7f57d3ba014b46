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
import { offsetOf, pageOf, totalOf, uniqueViolationOf } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { hashPassword } from '../auth/passwords';

/** The columns of a staff account (`u`); never the password hash. */
const COLUMNS = `u.id, u.username, u.name, u.nickname, u.mobile, u.email, u.role::int as role, u.duties, u.gender::int as gender,
  u.remark, u.job_status::int as job_status, u.left_at, u.last_login_at, u.version, u.created_at`;

const PICK_COLUMNS = `u.id, u.name, u.nickname, u.mobile, u.role::int as role, u.duties`;

/** keyword matches part of the name, nickname, user name or mobile (case-insensitive, no pattern characters) */
const KEYWORD = (p: string) =>
  `(${p}::text is null or strpos(lower(u.name), lower(${p})) > 0 or strpos(lower(u.nickname), lower(${p})) > 0
     or strpos(lower(u.username), lower(${p})) > 0 or strpos(coalesce(u.mobile, ''), ${p}) > 0)`;

/** Which on-job staff each duty picker lists. */
const PICKERS = {
  /** the head teacher of a care class: head teachers, and teachers with the head duty */
  head: `(u.role = ${Role.HeadTeacher} or 'head' = any(u.duties))`,
  shuttle: `'shuttle' = any(u.duties)`,
  tutor: `'tutor' = any(u.duties)`,
} as const;
export type Picker = keyof typeof PICKERS;

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
  ) {}

  /** All staff (admins, teachers, head teachers), newest first; rows and total in one query. */
  accountList(user: SessionUser, q: AccountListQuery): Promise<Page<StaffRow>> {
    return this.page(user, q, `u.role = any($5::smallint[])`, q.role ? [q.role] : [Role.Admin, Role.Teacher, Role.HeadTeacher]);
  }

  /** Teachers and head teachers. */
  teachersList(user: SessionUser, q: TeachersListQuery): Promise<Page<StaffRow>> {
    return this.page(user, q, `u.role = any($5::smallint[])`, q.role ? [q.role] : [Role.Teacher, Role.HeadTeacher]);
  }

  private async page(
    user: SessionUser,
    q: { page: number; limit: number; keyword?: string; job_status?: number },
    where: string,
    roles: number[],
  ): Promise<Page<StaffRow>> {
    const filter = `u.school_id = $1 and u.deleted_at is null and ${where}
      and ($2::smallint is null or u.job_status = $2) and ${KEYWORD('$6')}`;
    const rows: Array<Partial<StaffRow> & { total: number }> = await this.db.query(
      `select c.total, p.*
         from (select count(*)::int as total from users u where ${filter}) c
         left join lateral (
           select ${COLUMNS} from users u where ${filter}
            order by u.job_status, u.id desc
            limit $3 offset $4
         ) p on true`,
      [user.schoolId, q.job_status ?? null, q.limit, offsetOf(q), roles, q.keyword || null],
    );
    const list = rows.filter((r) => r.id !== null).map(({ total: _, ...r }) => r as StaffRow);
    return pageOf(list, totalOf(rows), q);
  }

  /**
   * One profile. Without an id: the caller's own. An admin or head teacher reads any teacher of the school;
   * a teacher only their own (another id is not found).
   */
  async teacherInfo(user: SessionUser, q: TeacherInfoQuery): Promise<StaffRow> {
    const id = q.id ?? user.id;
    if (id !== user.id && user.role === Role.Teacher) throw new AppError('staff.not_found');
    const [row]: StaffRow[] = await this.db.query(
      `select ${COLUMNS} from users u
        where u.id = $1 and u.school_id = $2 and u.deleted_at is null and (u.id = $3 or u.role in (${Role.Teacher}, ${Role.HeadTeacher}))`,
      [id, user.schoolId, user.id],
    );
    if (!row) throw new AppError('staff.not_found');
    return row;
  }

  /** A new teacher or head teacher of the caller's school, on-job, with an initial password. */
  async addTeacher(user: SessionUser, input: AddTeacherInput): Promise<StaffRow> {
    const passwordHash = await hashPassword(input.password);
    try {
      return await this.db.transaction(async (em) => {
        await this.assertMobileFree(em, user.schoolId!, input.mobile, null);
        if (input.email) await this.assertEmailFree(em, input.email, null);
        let username = input.username;
        if (username) {
          const [taken]: unknown[] = await em.query(`select 1 from users where lower(username) = lower($1)`, [username]);
          if (taken) throw new AppError('staff.username_taken', { username });
        } else {
          username = await this.freeUsername(em, `t${input.mobile}`);
        }
        const [row]: StaffRow[] = await em.query(
          `insert into users as u (school_id, role, username, name, nickname, mobile, email, password_hash, duties, gender, remark)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9::varchar[], $10, $11)
           returning ${COLUMNS}`,
          [
            user.schoolId,
            input.role,
            username,
            input.name,
            input.nickname || input.name,
            input.mobile,
            input.email || null,
            passwordHash,
            input.duties ?? [],
            input.gender ?? null,
            input.remark || null,
          ],
        );
        return row;
      });
    } catch (e) {
      throw await this.explainUnique(e, user.schoolId, input);
    }
  }

  /** Changes the fields given, on the version the admin read. */
  async editTeacher(user: SessionUser, input: EditTeacherInput): Promise<StaffRow> {
    try {
      return await this.db.transaction(async (em) => {
        const current = await this.target(em, user, input.id);
        if (current.version !== input.version) throw new AppError('error.conflict');
        if (input.mobile !== undefined) await this.assertMobileFree(em, user.schoolId!, input.mobile, input.id);
        if (input.email) await this.assertEmailFree(em, input.email, input.id);
        if (input.role !== undefined || input.duties !== undefined) await this.assertStillFits(em, user.schoolId!, current, input);
        const { sets, params } = this.changes(input, 3);
        const [rows]: [StaffRow[], number] = await em.query(
          `update users u set ${[...sets, 'version = version + 1', 'updated_at = now()'].join(', ')}
            where u.id = $1 and u.version = $2 and u.deleted_at is null
            returning ${COLUMNS}`,
          [input.id, input.version, ...params],
        );
        if (!rows[0]) throw new AppError('error.conflict');
        // a role or name change reaches the sessions of the teacher at once
        await this.sessions.changed(em);
        return rows[0];
      });
    } catch (e) {
      throw await this.explainUnique(e, user.schoolId, input);
    }
  }

  /** Soft delete, refused while the teacher still heads a class or holds a duty (the message names them). */
  async delTeacher(user: SessionUser, input: TeacherIdInput): Promise<Record<string, never>> {
    await this.db.transaction(async (em) => {
      const current = await this.target(em, user, input.id);
      this.checkVersion(current, input.version);
      const holds = await this.holdsOf(em, user.schoolId!, input.id);
      const hold = holds.find((h) => h.duty === 'class_head') ?? holds[0];
      if (hold) throw this.stillHolds(current.name, hold);
      await em.query(`update users set deleted_at = now(), updated_at = now(), version = version + 1 where id = $1 and version = $2`, [
        input.id,
        current.version,
      ]);
      await this.revokeTokens(em, input.id);
    });
    return {};
  }

  /** The classes (not deleted) a teacher heads, and those where they hold each duty. */
  private holdsOf(em: EntityManager, schoolId: number, teacherId: number): Promise<Array<{ duty: 'class_head' | StaffDuty; classes: string }>> {
    return em.query(
      `select 'class_head' as duty, string_agg(c.name, '、' order by c.id) as classes
         from care_classes c where c.school_id = $2 and c.head_teacher_id = $1 and c.deleted_at is null
       having count(*) > 0
       union all
       select d.duty, string_agg(distinct c.name, '、') as classes
         from duty_assignments d join care_classes c on c.id = d.class_id and c.deleted_at is null
        where d.school_id = $2 and d.teacher_id = $1
        group by d.duty`,
      [teacherId, schoolId],
    );
  }

  private stillHolds(name: string, hold: { duty: 'class_head' | StaffDuty; classes: string }): AppError {
    return new AppError(hold.duty === 'class_head' ? 'staff.still_heads' : STILL_DUTY[hold.duty], { name, classes: hold.classes });
  }

  /**
   * A change of role or duties must leave the teacher fit for what they hold: heading a class or the head duty needs
   * role head teacher or the head duty; the shuttle and tutoring duties need that duty. Refused naming the classes.
   */
  private async assertStillFits(em: EntityManager, schoolId: number, current: StaffRow, input: EditTeacherInput): Promise<void> {
    const role = input.role ?? current.role;
    const duties: readonly string[] = input.duties ?? current.duties;
    const fits = (duty: 'class_head' | StaffDuty) =>
      duty === 'class_head' || duty === 'head' ? role === Role.HeadTeacher || duties.includes('head') : duties.includes(duty);
    const hold = (await this.holdsOf(em, schoolId, current.id)).find((h) => !fits(h.duty));
    if (hold) throw this.stillHolds(current.name, hold);
  }

  /** Left-job: the account cannot sign in, its sessions end, it leaves the duty pickers; its history stays. */
  async setLeave(user: SessionUser, input: TeacherIdInput): Promise<StaffRow> {
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
  async onJob(user: SessionUser, input: TeacherIdInput): Promise<StaffRow> {
    return this.db.transaction(async (em) => {
      const current = await this.target(em, user, input.id);
      this.checkVersion(current, input.version);
      if (current.job_status === JobStatus.OnJob) throw new AppError('staff.already_on_job', { name: current.name });
      return this.setJob(em, current, JobStatus.OnJob);
    });
  }

  /** Sets the password the admin chose, or a generated one (answered once); every session of the teacher ends. */
  async resetTeacherPwd(user: SessionUser, input: ResetTeacherPwdInput): Promise<ResetTeacherPwdResult> {
    const generated = input.password ? null : generatePassword();
    const passwordHash = await hashPassword(input.password ?? generated!);
    await this.db.transaction(async (em) => {
      const current = await this.target(em, user, input.id);
      this.checkVersion(current, input.version);
      await em.query(
        `update users set password_hash = $2, failed_logins = 0, locked_until = null, updated_at = now(), version = version + 1
          where id = $1 and version = $3`,
        [input.id, passwordHash, current.version],
      );
      await this.revokeTokens(em, input.id);
    });
    return { id: input.id, password: generated };
  }

  /** A teacher or head teacher edits their own profile: nickname, name, gender, e-mail, remark. */
  async teacherSaveInfo(user: SessionUser, input: TeacherSaveInfoInput): Promise<StaffRow> {
    try {
      return await this.db.transaction(async (em) => {
        const [current]: Array<{ version: number }> = await em.query(
          `select version from users where id = $1 and school_id = $2 and deleted_at is null for update`,
          [user.id, user.schoolId],
        );
        if (!current) throw new AppError('staff.not_found');
        this.checkVersion(current, input.version);
        if (input.email) await this.assertEmailFree(em, input.email, user.id);
        const { sets, params } = this.changes(input, 2);
        const [rows]: [StaffRow[], number] = await em.query(
          `update users u set ${[...sets, 'version = version + 1', 'updated_at = now()'].join(', ')}
            where u.id = $1 returning ${COLUMNS}`,
          [user.id, ...params],
        );
        await this.sessions.changed(em);
        return rows[0];
      });
    } catch (e) {
      throw await this.explainUnique(e, user.schoolId, input);
    }
  }

  /** On-job staff of the school who can take a duty, by name. */
  async picker(user: SessionUser, kind: Picker, q: StaffPickerQuery): Promise<Page<StaffPick>> {
    const filter = `u.school_id = $1 and u.deleted_at is null and u.status = 1 and u.job_status = ${JobStatus.OnJob}
      and u.role in (${Role.Teacher}, ${Role.HeadTeacher}) and ${PICKERS[kind]} and ${KEYWORD('$4')}`;
    const rows: Array<Partial<StaffPick> & { total: number }> = await this.db.query(
      `select c.total, p.*
         from (select count(*)::int as total from users u where ${filter}) c
         left join lateral (
           select ${PICK_COLUMNS} from users u where ${filter}
            order by u.name, u.id
            limit $2 offset $3
         ) p on true`,
      [user.schoolId, q.limit, offsetOf(q), q.keyword || null],
    );
    const list = rows.filter((r) => r.id !== null).map(({ total: _, ...r }) => r as StaffPick);
    return pageOf(list, totalOf(rows), q);
  }

  /**
   * The teacher an admin action works on, locked for the transaction: of the caller's school, not deleted,
   * never an admin account (another school's id is not found, like an unknown one).
   */
  private async target(em: EntityManager, user: SessionUser, id: number): Promise<StaffRow> {
    const [row]: StaffRow[] = await em.query(
      `select ${COLUMNS} from users u where u.id = $1 and u.school_id = $2 and u.deleted_at is null
          and u.role in (${Role.Admin}, ${Role.Teacher}, ${Role.HeadTeacher})
        for update`,
      [id, user.schoolId],
    );
    if (!row) throw new AppError('staff.not_found');
    if (row.role === Role.Admin) throw new AppError('staff.admin_protected');
    return row;
  }

  private checkVersion(current: { version: number }, version: number | undefined): void {
    if (version !== undefined && version !== current.version) throw new AppError('error.conflict');
  }

  private async setJob(em: EntityManager, current: StaffRow, status: JobStatus): Promise<StaffRow> {
    const [rows]: [StaffRow[], number] = await em.query(
      `update users u set job_status = $2::smallint, left_at = case when $2::smallint = ${JobStatus.Left} then now() else null end,
              updated_at = now(), version = version + 1
        where u.id = $1 and u.version = $3 returning ${COLUMNS}`,
      [current.id, status, current.version],
    );
    await this.sessions.changed(em);
    return rows[0];
  }

  private async revokeTokens(em: EntityManager, userId: number): Promise<void> {
    await em.query(`update user_tokens set revoked_at = now() where user_id = $1 and revoked_at is null`, [userId]);
    await this.sessions.changed(em);
  }

  /** `set` clauses of the profile fields given, with parameters numbered from `from`. */
  private changes(input: Partial<EditTeacherInput>, from: number): { sets: string[]; params: unknown[] } {
    const sets: string[] = [];
    const params: unknown[] = [];
    const set = (column: string, value: unknown, cast = '') => {
      params.push(value);
      sets.push(`${column} = $${from + params.length - 1}${cast}`);
    };
    if (input.name !== undefined) set('name', input.name);
    if (input.nickname !== undefined) set('nickname', input.nickname);
    if (input.mobile !== undefined) set('mobile', input.mobile);
    if (input.role !== undefined) set('role', input.role);
    if (input.duties !== undefined) set('duties', input.duties, '::varchar[]');
    if (input.gender !== undefined) set('gender', input.gender);
    if (input.email !== undefined) set('email', input.email || null);
    if (input.remark !== undefined) set('remark', input.remark || null);
    return { sets, params };
  }

  /** Checks under a lock on (school, mobile): of two concurrent writes of one mobile the second sees the first. */
  private async assertMobileFree(em: EntityManager, schoolId: number, mobile: string, exceptId: number | null): Promise<void> {
    await em.query(`select pg_advisory_xact_lock(hashtextextended('staff-mobile:' || $1 || ':' || $2, 0))`, [schoolId, mobile]);
    const [other]: Array<{ name: string }> = await em.query(
      `select name from users where school_id = $1 and mobile = $2 and deleted_at is null and ($3::int is null or id <> $3) limit 1`,
      [schoolId, mobile, exceptId],
    );
    if (other) throw new AppError('staff.mobile_taken', { mobile, name: other.name });
  }

  private async assertEmailFree(em: EntityManager, email: string, exceptId: number | null): Promise<void> {
    const [other]: unknown[] = await em.query(`select 1 from users where lower(email) = lower($1) and ($2::int is null or id <> $2) limit 1`, [
      email,
      exceptId,
    ]);
    if (other) throw new AppError('staff.email_taken', { email });
  }

  /** `base`, or `base_2`, `base_3`, ...: the first user name no account has (platform-wide, case-insensitive). */
  private async freeUsername(em: EntityManager, base: string): Promise<string> {
    // concurrent additions from one base (the same mobile in two schools) pick their names one after the other
    await em.query(`select pg_advisory_xact_lock(hashtextextended('staff-username:' || lower($1), 0))`, [base]);
    const rows: Array<{ name: string }> = await em.query(
      `select lower(username) as name from users where lower(username) = lower($1) or lower(username) like lower($1) || '\\_%'`,
      [base],
    );
    const taken = new Set(rows.map((r) => r.name));
    if (!taken.has(base.toLowerCase())) return base;
    for (let n = 2; ; n++) if (!taken.has(`${base}_${n}`.toLowerCase())) return `${base}_${n}`;
  }

  /** A concurrent write that won the race on a unique index: the same message as the check before it. */
  private async explainUnique(e: unknown, schoolId: number | null, input: { mobile?: string; email?: string; username?: string }): Promise<unknown> {
    const constraint = uniqueViolationOf(e);
    if (constraint === null) return e;
    if (constraint.includes('mobile')) {
      const [other]: Array<{ name: string }> = await this.db.query(
        `select name from users where school_id = $1 and mobile = $2 and deleted_at is null limit 1`,
        [schoolId, input.mobile],
      );
      return new AppError('staff.mobile_taken', { mobile: input.mobile ?? '', name: other?.name ?? '?' });
    }
    if (constraint.includes('email')) return new AppError('staff.email_taken', { email: input.email ?? '' });
    return new AppError('staff.username_taken', { username: input.username ?? '' });
  }
}
