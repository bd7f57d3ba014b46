import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Role } from '@wantuo/shared';
import { sql } from 'kysely';
import { DataSource } from 'typeorm';
import { kdb } from '../../core/database/kysely';
import type { Queryable } from '../../core/database/sql-kit';

/**
 * The SQL of the official account's sign-in and server messages (issue 38): authorisation states and bind tickets,
 * bindings, template results, followers.
 */
@Injectable()
export class WechatRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  // ---- sign-in ----

  /** Removes tickets expired over `hours` hours ago. */
  async pruneTickets(hours: number): Promise<void> {
    await kdb(this.db)
      .deleteFrom('wechat_oauth_tickets')
      .where('expires_at', '<', sql<Date>`now() - make_interval(hours => ${hours})`)
      .execute();
  }

  /** A one-use authorisation state (kept as its hash) with where to go after, living `seconds`. */
  async writeState(idHash: Buffer, appid: string, redirect: string, seconds: number): Promise<void> {
    await kdb(this.db)
      .insertInto('wechat_oauth_tickets')
      .values({ id_hash: idHash, kind: 'state', appid, redirect, expires_at: sql<Date>`now() + make_interval(secs => ${seconds})` })
      .execute();
  }

  /** Spends a live state of the account `appid` (once); answers where to go after. */
  spendState(idHash: Buffer, appid: string) {
    return kdb(this.db)
      .updateTable('wechat_oauth_tickets')
      .set({ used_at: sql`now()` })
      .where('id_hash', '=', idHash)
      .where('kind', '=', 'state')
      .where('appid', '=', appid)
      .where('used_at', 'is', null)
      .where('expires_at', '>', sql<Date>`now()`)
      .returning('redirect')
      .$narrowType<{ redirect: string }>()
      .executeTakeFirst();
  }

  /** The live parent account bound to the openid, if any. */
  boundParent(appid: string, openid: string) {
    return kdb(this.db)
      .selectFrom('wechat_bindings as b')
      .innerJoin('users as u', 'u.id', 'b.user_id')
      .select('b.user_id')
      .where('b.appid', '=', appid)
      .where('b.openid', '=', openid)
      .where('b.unbound_at', 'is', null)
      .where('u.role', '=', Role.Parent)
      .where('u.deleted_at', 'is', null)
      .executeTakeFirst();
  }

  /** What opening a session needs of the account. */
  account(id: number) {
    return kdb(this.db)
      .selectFrom('users')
      .select(['id', 'school_id as schoolId', 'role', 'status', 'job_status as jobStatus'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  }

  /** A one-use bind ticket for the openid (kept as its hash), living `seconds`; answers when it expires. */
  writeBindTicket(idHash: Buffer, appid: string, openid: string, redirect: string, seconds: number) {
    return kdb(this.db)
      .insertInto('wechat_oauth_tickets')
      .values({ id_hash: idHash, kind: 'bind', appid, openid, redirect, expires_at: sql<Date>`now() + make_interval(secs => ${seconds})` })
      .returning('expires_at')
      .executeTakeFirstOrThrow();
  }

  /** Spends a live bind ticket (once); answers its openid and account. */
  spendBindTicket(em: Queryable, idHash: Buffer) {
    return kdb(em)
      .updateTable('wechat_oauth_tickets')
      .set({ used_at: sql`now()` })
      .where('id_hash', '=', idHash)
      .where('kind', '=', 'bind')
      .where('used_at', 'is', null)
      .where('expires_at', '>', sql<Date>`now()`)
      .returning(['openid', 'appid'])
      .$narrowType<{ openid: string }>()
      .executeTakeFirst();
  }

  /** Ends as `rebound` the live bindings of the openid or of the account; answers them. */
  endForRebind(em: Queryable, appid: string, openid: string, userId: number) {
    return kdb(em)
      .updateTable('wechat_bindings')
      .set({ unbound_at: sql`now()`, unbound_reason: 'rebound' })
      .where('appid', '=', appid)
      .where('unbound_at', 'is', null)
      .where((eb) => eb.or([eb('openid', '=', openid), eb('user_id', '=', userId)]))
      .returning(['user_id', 'school_id', 'openid'])
      .execute();
  }

  /** Binds the openid to the account; answers when. */
  bind(em: Queryable, userId: number, schoolId: number | null, appid: string, openid: string) {
    return kdb(em)
      .insertInto('wechat_bindings')
      .values({ user_id: userId, school_id: schoolId, appid, openid })
      .returning('bound_at')
      .executeTakeFirstOrThrow();
  }

  // ---- server messages ----

  /**
   * A template message's result: the account's message of `msgid` still queued, sending or sent ends `state` (with
   * `errmsg`). Answers how many messages have the msgid and how many changed.
   */
  templateFinished(appid: string, msgid: string, state: 'delivered' | 'failed', errmsg: string | null) {
    return kdb(this.db)
      .with('hit', (w) => w.selectFrom('wechat_messages').select(['id', 'state']).where('appid', '=', appid).where('msgid', '=', msgid))
      .with('u', (w) =>
        w
          .updateTable('wechat_messages as w')
          .from('hit')
          .set({ state, errmsg, updated_at: sql`now()` })
          .whereRef('w.id', '=', 'hit.id')
          .where('hit.state', 'in', ['queued', 'sending', 'sent'])
          .returning('w.id'),
      )
      .selectNoFrom((eb) => [
        sql<number>`(${eb.selectFrom('hit').select((x) => x.fn.countAll().as('n'))})::int`.as('found'),
        sql<number>`(${eb.selectFrom('u').select((x) => x.fn.countAll().as('n'))})::int`.as('updated'),
      ])
      .executeTakeFirstOrThrow();
  }

  /** A follow or unfollow at `at` (epoch seconds): kept unless a later change is kept already. */
  async followed(appid: string, openid: string, subscribed: boolean, at: number): Promise<void> {
    await kdb(this.db)
      .insertInto('wechat_followers')
      .values({ appid, openid, subscribed, changed_at: sql<Date>`to_timestamp(${at})` })
      .onConflict((oc) =>
        oc
          .columns(['appid', 'openid'])
          .doUpdateSet((eb) => ({ subscribed: eb.ref('excluded.subscribed'), changed_at: eb.ref('excluded.changed_at') }))
          .whereRef('wechat_followers.changed_at', '<=', 'excluded.changed_at'),
      )
      .execute();
  }
}
