import { Injectable } from '@nestjs/common';
import type { SmsEvent } from '@wantuo/shared';
import { sql } from 'kysely';
import { kdb } from '../../core/database/kysely';
import type { Queryable } from '../../core/database/sql-kit';

/** The SQL of one-time SMS codes (issue 38): their locks and limits, written, checked, spent; inside the caller's transaction. */
@Injectable()
export class SmsCodesRepository {
  /** The transaction-scoped lock of a key (`sms-ip:…`, `sms-mobile:…`): requests for it wait on each other. */
  async lock(em: Queryable, key: string): Promise<void> {
    await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(kdb(em));
  }

  /** Seconds since the mobile's last code (null: none), its codes today in `zone`, the ip's codes in the last hour. */
  async codeStats(em: Queryable, mobile: string, ip: string, zone: string) {
    const codes = kdb(em).selectFrom('sms_codes');
    const r = await kdb(em)
      .selectNoFrom(() => [
        sql<number | null>`(${codes.select(sql`extract(epoch from now() - max(created_at))`.as('age')).where('mobile', '=', mobile)})::float8`.as(
          'last_age',
        ),
        sql<number>`(${codes
          .select((eb) => eb.fn.countAll().as('n'))
          .where('mobile', '=', mobile)
          .where('created_at', '>=', sql<Date>`(date_trunc('day', now() at time zone ${zone}) at time zone ${zone})`)})::int`.as('today'),
        sql<number>`(${codes
          .select((eb) => eb.fn.countAll().as('n'))
          .where('ip', '=', ip)
          .where('created_at', '>', sql<Date>`now() - interval '1 hour'`)})::int`.as('ip_hour'),
      ])
      .executeTakeFirstOrThrow();
    return r;
  }

  /** Writes a code request (`code_hash` null: counted, nothing sent), valid `ttlMinutes` from now. */
  async writeCode(em: Queryable, mobile: string, event: SmsEvent, codeHash: Buffer | null, ip: string, ttlMinutes: number): Promise<void> {
    await kdb(em)
      .insertInto('sms_codes')
      .values({ mobile, event, code_hash: codeHash, ip, expires_at: sql<Date>`now() + make_interval(mins => ${ttlMinutes})` })
      .execute();
  }

  /** The newest live code of a mobile for an event, locked. */
  liveCode(em: Queryable, mobile: string, event: SmsEvent) {
    return kdb(em)
      .selectFrom('sms_codes')
      .select(['id', 'code_hash', 'attempts'])
      .where('mobile', '=', mobile)
      .where('event', '=', event)
      .where('code_hash', 'is not', null)
      .where('used_at', 'is', null)
      .where('expires_at', '>', sql<Date>`now()`)
      .orderBy('id', 'desc')
      .limit(1)
      .forUpdate()
      .$narrowType<{ code_hash: Buffer }>()
      .executeTakeFirst();
  }

  /** The code is used (it signed in once). */
  async useCode(em: Queryable, id: number): Promise<void> {
    await kdb(em)
      .updateTable('sms_codes')
      .set({ used_at: sql`now()` })
      .where('id', '=', id)
      .execute();
  }

  /** A wrong try of the code: counted, and the code burnt at `max` tries. */
  async failCode(em: Queryable, id: number, max: number): Promise<void> {
    await kdb(em)
      .updateTable('sms_codes')
      .set((eb) => ({
        attempts: eb('attempts', '+', 1),
        used_at: eb
          .case()
          .when(eb('attempts', '+', 1), '>=', max)
          .then(sql<Date>`now()`)
          .else(eb.ref('used_at'))
          .end(),
      }))
      .where('id', '=', id)
      .execute();
  }
}
