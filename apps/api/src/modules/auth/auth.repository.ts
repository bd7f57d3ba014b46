import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ActivityAction, Page, Role } from '@wantuo/shared';
import { sql, type ExpressionBuilder, type InferResult, type Insertable } from 'kysely';
import { DataSource } from 'typeorm';
import { kdb, pageRows, type DB } from '../../core/database/kysely';
import type { PageQuery, Queryable } from '../../core/database/sql-kit';
import { JobStatus, UserStatus } from './entities/user.entity';

/** One entry of an account's trail as the login log lists it (its time still a Date). */
export type ActivityEntry = InferResult<ReturnType<typeof trail>>[number];

/** The trail's columns (the answer ActivityRow). */
const trail = (on: Queryable) =>
  kdb(on)
    .selectFrom('user_activity')
    .select((eb) => [
      'id',
      eb.ref('action').$castTo<ActivityAction>().as('action'),
      eb.ref('detail').$castTo<Record<string, unknown>>().as('detail'),
      'ip',
      'user_agent',
      'at',
    ]);

/** The account is the sign-in name: its user name or e-mail (either case), or its mobile. */
const named = (eb: ExpressionBuilder<DB & { u: DB['users'] }, 'u'>, account: string) =>
  eb.or([
    eb(eb.fn('lower', ['u.username']), '=', eb.fn('lower', [eb.val(account)])),
    eb(eb.fn('lower', ['u.email']), '=', eb.fn('lower', [eb.val(account)])),
    eb('u.mobile', '=', account),
  ]);

/** A QR ticket's state (qr_login_tickets.state). */
export type QrTicketState = 'waiting' | 'scanned' | 'confirmed' | 'cancelled';

/** The account `userId` may sign in (active, on the job, not deleted): a phone's step on a ticket needs it. */
const mayStep = (eb: ExpressionBuilder<DB, 'qr_login_tickets'>, userId: number) =>
  eb.exists(
    eb
      .selectFrom('users as u')
      .select(sql.lit(1).as('one'))
      .where('u.id', '=', userId)
      .where('u.status', '=', UserStatus.Active)
      .where('u.job_status', '=', JobStatus.OnJob)
      .where('u.deleted_at', 'is', null),
  );

/** The SQL of the auth module (issue 38): failed sign-ins and their lock, passwords, the login log, QR tickets. */
@Injectable()
export class AuthRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  // ---- accounts ----

  /**
   * The live accounts a sign-in name may be (user name or e-mail, either case; mobile), the last signed in first, at
   * most 5: what a password sign-in checks, with the hash.
   */
  candidates(account: string) {
    return kdb(this.db)
      .selectFrom('users as u')
      .select([
        'u.id',
        'u.school_id as schoolId',
        'u.role',
        'u.status',
        'u.job_status as jobStatus',
        'u.locked_until as lockedUntil',
        'u.failed_logins as failedLogins',
        'u.password_hash as passwordHash',
      ])
      .where('u.deleted_at', 'is', null)
      .where((eb) => named(eb, account))
      .orderBy('u.last_login_at', (ob) => ob.desc().nullsLast())
      .orderBy('u.id', 'asc')
      .limit(5)
      .execute();
  }

  /** What opening a session needs of an account (and whether it is deleted), in `on`'s transaction. */
  sessionAccount(on: Queryable, id: number) {
    return kdb(on)
      .selectFrom('users')
      .select(['id', 'school_id as schoolId', 'role', 'status', 'job_status as jobStatus', 'deleted_at as deletedAt'])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** Whether an active, live account has the mobile (`role`: of that role only). */
  async mobileHasAccount(mobile: string, role?: Role): Promise<boolean> {
    const r = await kdb(this.db)
      .selectFrom('users')
      .select(sql.lit(1).as('one'))
      .where('mobile', '=', mobile)
      .where('status', '=', UserStatus.Active)
      .where('deleted_at', 'is', null)
      .$if(role !== undefined, (q) => q.where('role', '=', role!))
      .limit(1)
      .executeTakeFirst();
    return r !== undefined;
  }

  /** The live account of a mobile signed in last (the first made on a tie). */
  lastByMobile(mobile: string) {
    return kdb(this.db)
      .selectFrom('users')
      .select(['id', 'school_id as schoolId', 'role', 'status', 'job_status as jobStatus'])
      .where('mobile', '=', mobile)
      .where('deleted_at', 'is', null)
      .orderBy('last_login_at', (ob) => ob.desc().nullsLast())
      .orderBy('id', 'asc')
      .limit(1)
      .executeTakeFirst();
  }

  /** Every live account of a mobile. */
  allByMobile(mobile: string) {
    return kdb(this.db)
      .selectFrom('users')
      .select(['id', 'school_id as schoolId'])
      .where('mobile', '=', mobile)
      .where('deleted_at', 'is', null)
      .execute();
  }

  /** The account's own answer fields (`on`: a transaction's, to read what it wrote). */
  account(on: Queryable, id: number) {
    return kdb(on)
      .selectFrom('users')
      .select(['id', 'name', 'username', 'nickname', 'avatar_url', 'role', 'school_id', 'mobile', 'email', 'lang'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  }

  /** A school's name, zone and service end. */
  school(id: number) {
    return kdb(this.db).selectFrom('schools').select(['id', 'name', 'timezone', 'service_expires_at']).where('id', '=', id).executeTakeFirst();
  }

  /** The account's password hash. */
  passwordHashOf(id: number) {
    return kdb(this.db).selectFrom('users').select('password_hash').where('id', '=', id).executeTakeFirstOrThrow();
  }

  /** The mobile of the live account a sign-in name is, the last signed in first (undefined: none). */
  async mobileOf(account: string): Promise<{ mobile: string | null } | undefined> {
    const rows = await kdb(this.db)
      .selectFrom('users as u')
      .select('u.mobile')
      .where('u.deleted_at', 'is', null)
      .where((eb) => named(eb, account))
      .orderBy('u.last_login_at', (ob) => ob.desc().nullsLast())
      .execute();
    return rows[0];
  }

  /** Own nickname and avatar changed (the version moved on). */
  async updateProfile(em: Queryable, id: number, changes: { nickname?: string; avatar_url?: string }): Promise<void> {
    await kdb(em)
      .updateTable('users')
      .set((eb) => ({ ...changes, version: eb('version', '+', 1), updated_at: sql`now()` }))
      .where('id', '=', id)
      .execute();
  }

  /**
   * Counts a wrong password of the account (a lock that has run out starts a fresh count) and locks it `minutes` at
   * `max` in a row; answers its lock (null: not locked).
   */
  failedLogin(em: Queryable, id: number, max: number, minutes: number) {
    return kdb(em)
      .updateTable('users')
      .set((eb) => {
        const count = sql<number>`case when ${eb.ref('locked_until')} is not null and ${eb.ref('locked_until')} <= now() then 1 else ${eb.ref(
          'failed_logins',
        )} + 1 end`;
        return {
          failed_logins: count,
          locked_until: sql<Date | null>`case when (${count}) >= ${max} then now() + make_interval(mins => ${minutes}) else null end`,
        };
      })
      .where('id', '=', id)
      .returning('locked_until')
      .executeTakeFirstOrThrow();
  }

  /** The account signed in: its failed count cleared, its lock lifted, its last sign-in now. */
  async signedIn(em: Queryable, id: number): Promise<void> {
    await kdb(em)
      .updateTable('users')
      .set({ failed_logins: 0, locked_until: null, last_login_at: sql`now()` })
      .where('id', '=', id)
      .execute();
  }

  /** A new password: the failed count cleared, the lock lifted, the version moved on. */
  async setPassword(em: Queryable, id: number, passwordHash: string): Promise<void> {
    await kdb(em)
      .updateTable('users')
      .set((eb) => ({
        password_hash: passwordHash,
        failed_logins: 0,
        locked_until: null,
        version: eb('version', '+', 1),
        updated_at: sql`now()`,
      }))
      .where('id', '=', id)
      .execute();
  }

  /** An account's status and job status (undefined: none). */
  statusOf(id: number) {
    return kdb(this.db).selectFrom('users').select(['status', 'job_status']).where('id', '=', id).executeTakeFirst();
  }

  // ---- the login log ----

  /** Writes one entry of an account's own trail. */
  async recordActivity(em: Queryable, row: Insertable<DB['user_activity']> & { action: ActivityAction }): Promise<void> {
    await kdb(em).insertInto('user_activity').values(row).execute();
  }

  /** A page of an account's trail, newest first, with the total. */
  activityPage(userId: number, q: PageQuery): Promise<Page<ActivityEntry>> {
    const total = kdb(this.db)
      .selectFrom('user_activity')
      .select((eb) => sql<number>`${eb.fn.countAll()}::int`.as('total'))
      .where('user_id', '=', userId);
    const list = trail(this.db).where('user_id', '=', userId).orderBy('at', 'desc').orderBy('id', 'desc');
    return pageRows(this.db, total, list, q);
  }

  // ---- QR tickets ----

  /** Removes tickets expired over `hours` hours ago. */
  async pruneTickets(hours: number): Promise<void> {
    await kdb(this.db)
      .deleteFrom('qr_login_tickets')
      .where('expires_at', '<', sql<Date>`now() - make_interval(hours => ${hours})`)
      .execute();
  }

  /** A new ticket living `seconds` (the database's clock); answers when it expires. */
  createTicket(row: Omit<Insertable<DB['qr_login_tickets']>, 'expires_at'>, seconds: number) {
    return kdb(this.db)
      .insertInto('qr_login_tickets')
      .values({ ...row, expires_at: sql<Date>`now() + make_interval(secs => ${seconds})` })
      .returning('expires_at')
      .executeTakeFirstOrThrow();
  }

  /** The ticket of `id` and secret, as a poll sees it (`collectable`: expired under `graceSeconds` ago at most). */
  ticketForPoll(id: string, secretHash: Buffer, graceSeconds: number) {
    return kdb(this.db)
      .selectFrom('qr_login_tickets')
      .select((eb) => [
        sql<QrTicketState>`${eb.ref('state')}`.as('state'),
        'scanned_by',
        'expires_at',
        'remember',
        eb('consumed_at', 'is not', null).as('consumed'),
        eb('expires_at', '<=', sql<Date>`now()`).as('expired'),
        eb('expires_at', '>', sql<Date>`now() - make_interval(secs => ${graceSeconds})`).as('collectable'),
      ])
      .where('id', '=', id)
      .where('secret_hash', '=', secretHash)
      .executeTakeFirst();
  }

  /** Spends a confirmed ticket (once: a second poll gets nothing); answers who scanned it. */
  consumeTicket(em: Queryable, id: string, secretHash: Buffer) {
    return kdb(em)
      .updateTable('qr_login_tickets')
      .set({ consumed_at: sql`now()` })
      .where('id', '=', id)
      .where('secret_hash', '=', secretHash)
      .where('state', '=', 'confirmed')
      .where('consumed_at', 'is', null)
      .returning('scanned_by')
      .$narrowType<{ scanned_by: number }>()
      .executeTakeFirst();
  }

  /** A live waiting ticket (or one this account scanned already) becomes the account's, if the account may sign in. */
  scanTicket(id: string, userId: number) {
    return kdb(this.db)
      .updateTable('qr_login_tickets')
      .set({ state: 'scanned', scanned_by: userId, scanned_at: sql`now()` })
      .where('id', '=', id)
      .where('expires_at', '>', sql<Date>`now()`)
      .where((eb) => eb.or([eb('state', '=', 'waiting'), eb.and([eb('state', '=', 'scanned'), eb('scanned_by', '=', userId)])]))
      .where((eb) => mayStep(eb, userId))
      .returning(['expires_at', 'ip', 'user_agent', 'created_at'])
      .executeTakeFirst();
  }

  /** The account that scanned the live ticket confirms it, if it may sign in. */
  confirmTicket(id: string, userId: number) {
    return kdb(this.db)
      .updateTable('qr_login_tickets')
      .set({ state: 'confirmed', confirmed_at: sql`now()` })
      .where('id', '=', id)
      .where('state', '=', 'scanned')
      .where('scanned_by', '=', userId)
      .where('expires_at', '>', sql<Date>`now()`)
      .where((eb) => mayStep(eb, userId))
      .returning('id')
      .executeTakeFirst();
  }

  /** The account that scanned the live ticket refuses it. */
  cancelTicket(id: string, userId: number) {
    return kdb(this.db)
      .updateTable('qr_login_tickets')
      .set({ state: 'cancelled', cancelled_at: sql`now()` })
      .where('id', '=', id)
      .where('state', '=', 'scanned')
      .where('scanned_by', '=', userId)
      .where('expires_at', '>', sql<Date>`now()`)
      .returning('id')
      .executeTakeFirst();
  }

  /** A ticket's state (why a phone's step did not apply). */
  ticket(id: string) {
    return kdb(this.db)
      .selectFrom('qr_login_tickets')
      .select((eb) => [
        sql<QrTicketState>`${eb.ref('state')}`.as('state'),
        'scanned_by',
        'expires_at',
        eb('expires_at', '<=', sql<Date>`now()`).as('expired'),
      ])
      .where('id', '=', id)
      .executeTakeFirst();
  }
}
