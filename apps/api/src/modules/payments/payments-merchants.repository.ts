import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { sql } from 'kysely';
import { DataSource } from 'typeorm';
import { kdb } from '../../core/database/kysely';
import type { Queryable } from '../../core/database/sql-kit';

/** The SQL of the schools' WeChat Pay sub-merchants (issue 38). */
@Injectable()
export class PaymentsMerchantsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The school's current sub-merchant record, if any. */
  current(on: Queryable, schoolId: number) {
    return kdb(on)
      .selectFrom('school_sub_merchants')
      .select(['id', 'sub_mchid', 'sub_appid'])
      .where('school_id', '=', schoolId)
      .where('ended_at', 'is', null)
      .executeTakeFirst();
  }

  /** Whether the number is another school's current sub-merchant. */
  async takenElsewhere(on: Queryable, subMchid: string, schoolId: number): Promise<boolean> {
    const r = await kdb(on)
      .selectFrom('school_sub_merchants')
      .select(sql.lit(1).as('one'))
      .where('sub_mchid', '=', subMchid)
      .where('ended_at', 'is', null)
      .where('school_id', '<>', schoolId)
      .executeTakeFirst();
    return r !== undefined;
  }

  async end(on: Queryable, id: number, by: number): Promise<void> {
    await kdb(on)
      .updateTable('school_sub_merchants')
      .set({ ended_at: sql`now()`, ended_by: by })
      .where('id', '=', id)
      .execute();
  }

  async record(
    on: Queryable,
    v: { school_id: number; sub_mchid: string; sub_appid: string | null; note: string; recorded_by: number },
  ): Promise<void> {
    await kdb(on).insertInto('school_sub_merchants').values(v).execute();
  }

  /** The guardian's school: its name and phone, and whether it takes online payments. */
  payOptions(schoolId: number) {
    return kdb(this.db)
      .selectFrom('schools as s')
      .select((eb) => [
        's.name as school_name',
        's.contact_phone',
        eb
          .exists(
            eb
              .selectFrom('school_sub_merchants as m')
              .select(sql.lit(1).as('one'))
              .whereRef('m.school_id', '=', 's.id')
              .where('m.ended_at', 'is', null),
          )
          .$castTo<boolean>()
          .as('online'),
      ])
      .where('s.id', '=', schoolId)
      .executeTakeFirst();
  }

  /** Whether the school exists (locked for this transaction when `lock`). */
  async school(on: Queryable, schoolId: number, lock: boolean): Promise<boolean> {
    const r = await kdb(on)
      .selectFrom('schools')
      .select(sql.lit(1).as('one'))
      .where('id', '=', schoolId)
      .$if(lock, (q) => q.forUpdate())
      .executeTakeFirst();
    return r !== undefined;
  }

  /** The school's sub-merchant records, newest first (at most 50), with who recorded each. */
  history(on: Queryable, schoolId: number) {
    return kdb(on)
      .selectFrom('school_sub_merchants as m')
      .select((eb) => [
        'm.id',
        'm.sub_mchid',
        'm.sub_appid',
        'm.note',
        'm.recorded_at',
        'm.ended_at',
        eb.selectFrom('users as u').select('u.name').whereRef('u.id', '=', 'm.recorded_by').$asScalar().as('recorded_by_name'),
      ])
      .where('m.school_id', '=', schoolId)
      .orderBy('m.recorded_at', 'desc')
      .orderBy('m.id', 'desc')
      .limit(50)
      .execute();
  }
}
