import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ApplicationStatus } from '@wantuo/shared';
import { sql } from 'kysely';
import { DataSource } from 'typeorm';
import { kdb, pageRows } from '../../core/database/kysely';
import type { PageQuery, Queryable } from '../../core/database/sql-kit';

/** The columns of an application as the operator sees it (`a` the application, `h` the operator who handled it). */
const columns = [
  'a.id',
  'a.school_id',
  'a.institution_name',
  'a.contact_name',
  'a.mobile',
  'a.city',
  'a.students_estimate',
  'a.message',
  sql<ApplicationStatus>`${sql.ref('a.status')}::int`.as('status'),
  'a.handled_by',
  'h.name as handled_by_name',
  'a.handled_note',
  'a.handled_at',
  'a.ip',
  'a.version',
  'a.created_at',
] as const;

/** The SQL of the applications module (issue 38): every statement typed by the schema. */
@Injectable()
export class ApplicationsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Serialises the applications of one IP address, then of one mobile (always in that order). */
  async lock(em: Queryable, ip: string, mobile: string): Promise<void> {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`apply-ip:${ip}`}, 0))`.execute(kdb(em));
    await sql`select pg_advisory_xact_lock(hashtextextended(${`apply-mobile:${mobile}`}, 0))`.execute(kdb(em));
  }

  /** The applications of the mobile in the last 24 hours and of the IP address in the last hour. */
  stats(em: Queryable, mobile: string, ip: string) {
    return kdb(em)
      .selectNoFrom((eb) => [
        sql<number>`(${eb
          .selectFrom('account_applications')
          .select((x) => x.fn.countAll().as('n'))
          .where('mobile', '=', mobile)
          .where('created_at', '>', sql<Date>`now() - interval '24 hours'`)})::int`.as('mobile_day'),
        sql<number>`(${eb
          .selectFrom('account_applications')
          .select((x) => x.fn.countAll().as('n'))
          .where('ip', '=', ip)
          .where('created_at', '>', sql<Date>`now() - interval '1 hour'`)})::int`.as('ip_hour'),
      ])
      .executeTakeFirstOrThrow();
  }

  insert(
    em: Queryable,
    row: {
      institution_name: string;
      contact_name: string;
      mobile: string;
      city: string | null;
      students_estimate: number | null;
      message: string | null;
      ip: string;
    },
  ) {
    return kdb(em)
      .insertInto('account_applications')
      .values(row)
      .returning((eb) => ['id', sql<ApplicationStatus>`${eb.ref('status')}::int`.as('status'), 'created_at'])
      .executeTakeFirstOrThrow();
  }

  /** A page of the applications (of a status), newest first, with the total (one statement). */
  page(status: number | null, q: PageQuery) {
    const k = kdb(this.db);
    const total = k
      .selectFrom('account_applications')
      .select(sql<number>`count(*)::int`.as('total'))
      .$if(status !== null, (b) => b.where('status', '=', status!));
    const list = k
      .selectFrom('account_applications as a')
      .leftJoin('users as h', 'h.id', 'a.handled_by')
      .select(columns)
      .$if(status !== null, (b) => b.where('a.status', '=', status!))
      .orderBy('a.created_at', 'desc')
      .orderBy('a.id', 'desc');
    return pageRows(this.db, total, list, q);
  }

  /** Records the decision on the version read while pending; the application as the operator sees it. */
  decide(em: Queryable, id: number, version: number, status: ApplicationStatus, note: string | null, handledBy: number) {
    return kdb(em)
      .with('a', (db) =>
        db
          .updateTable('account_applications')
          .set((eb) => ({ status, handled_note: note, handled_by: handledBy, handled_at: sql`now()`, version: eb('version', '+', 1) }))
          .where('id', '=', id)
          .where('version', '=', version)
          .where('status', '=', ApplicationStatus.Pending)
          .returningAll(),
      )
      .selectFrom('a')
      .leftJoin('users as h', 'h.id', 'a.handled_by')
      .select(columns)
      .executeTakeFirst();
  }

  async setSchool(em: Queryable, id: number, schoolId: number): Promise<void> {
    await kdb(em).updateTable('account_applications').set({ school_id: schoolId }).where('id', '=', id).execute();
  }

  /** The application's status and version now. */
  current(id: number) {
    return kdb(this.db).selectFrom('account_applications').select(['status', 'version']).where('id', '=', id).executeTakeFirst();
  }
}
