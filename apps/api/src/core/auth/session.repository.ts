import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { JobStatus, Role, StudentStatus, UserStatus } from '@wantuo/shared';
import { sql } from 'kysely';
import { DataSource, type EntityManager } from 'typeorm';
import { compiledOnce, type Slots } from '../database/compiled';
import { kdb } from '../database/kysely';

/**
 * The session of a token (every request that misses the session cache): the token, its user, the user's school's
 * service date, and whether a guardian still owes consent (a child of theirs lacks the current versions of the two
 * documents). A hot statement, compiled once and prepared per connection.
 */
const RESOLVE = compiledOnce('session.resolve', (db, p: Slots<{ hash: Buffer }>) =>
  db
    .selectFrom('user_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .leftJoin('schools as s', 's.id', 'u.school_id')
    .select((eb) => [
      't.id as token_id',
      'u.id',
      'u.role',
      'u.school_id',
      'u.name',
      'u.nickname',
      'u.lang',
      's.service_expires_at',
      't.expires_at',
      eb
        .case()
        .when('u.role', '=', sql.lit(Role.Parent))
        .then(
          eb.exists(
            eb
              .selectFrom('student_guardians as g')
              .innerJoin('students as st', (j) => j.onRef('st.id', '=', 'g.student_id').on('st.status', '=', sql.lit(StudentStatus.Active)))
              .select(sql.lit(1).as('one'))
              .whereRef('g.user_id', '=', 'u.id')
              .where((w) =>
                w.or([
                  w(
                    'g.privacy_version',
                    'is distinct from',
                    w
                      .selectFrom('privacy_policies')
                      .select((x) => x.fn.max('version').as('v'))
                      .where('kind', '=', 'privacy'),
                  ),
                  w(
                    'g.children_version',
                    'is distinct from',
                    w
                      .selectFrom('privacy_policies')
                      .select((x) => x.fn.max('version').as('v'))
                      .where('kind', '=', 'children'),
                  ),
                ]),
              ),
          ),
        )
        .else(sql.lit(false))
        .end()
        .$castTo<boolean>()
        .as('needs_consent'),
    ])
    .where('t.token_hash', '=', p.hash)
    .where('t.revoked_at', 'is', null)
    .where('t.expires_at', '>', sql<Date>`now()`)
    .where('u.status', '=', sql.lit(UserStatus.Active))
    .where('u.job_status', '=', sql.lit(JobStatus.OnJob))
    .where('u.deleted_at', 'is', null),
);

/** The tokens' statements (SessionService). */
@Injectable()
export class SessionRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async issue(em: EntityManager, v: { userId: number; hash: Buffer; ttlHours: number; ip: string; userAgent: string }) {
    return kdb(em)
      .insertInto('user_tokens')
      .values({
        user_id: v.userId,
        token_hash: v.hash,
        expires_at: sql<Date>`now() + make_interval(hours => ${v.ttlHours})`,
        ip: v.ip,
        user_agent: v.userAgent,
      })
      .returning('expires_at')
      .executeTakeFirstOrThrow();
  }

  async resolve(hash: Buffer) {
    return (await RESOLVE.run(this.db, { hash }))[0];
  }

  async revoke(em: EntityManager, tokenId: number): Promise<void> {
    await kdb(em)
      .updateTable('user_tokens')
      .set({ revoked_at: sql<Date>`now()` })
      .where('id', '=', tokenId)
      .where('revoked_at', 'is', null)
      .execute();
  }

  async revokeAll(em: EntityManager, userId: number, exceptTokenId: number | null): Promise<void> {
    await kdb(em)
      .updateTable('user_tokens')
      .set({ revoked_at: sql<Date>`now()` })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .$call((q) => (exceptTokenId === null ? q : q.where('id', '<>', exceptTokenId)))
      .execute();
  }
}
