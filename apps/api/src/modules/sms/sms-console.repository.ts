import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { SmsKind, SmsMessagesQuery } from '@wantuo/shared';
import { sql, type ExpressionBuilder } from 'kysely';
import { DataSource } from 'typeorm';
import { kdb, pageRows, type DB } from '../../core/database/kysely';
import { containsPattern, offsetOf, type PageQuery } from '../../core/database/sql-kit';

type Messages = ExpressionBuilder<DB & { m: DB['sms_messages'] }, 'm'>;

/** The counts' columns over sms_messages `m` (units: what the providers accepted, so billed). */
const counts = (eb: Messages) => [
  sql<number>`${eb.fn.countAll()}::int`.as('total'),
  sql<number>`${eb.fn.countAll().filterWhere('m.state', 'in', ['sent', 'delivered'])}::int`.as('sent'),
  sql<number>`${eb.fn.countAll().filterWhere('m.state', '=', 'delivered')}::int`.as('delivered'),
  sql<number>`${eb.fn.countAll().filterWhere('m.state', '=', 'failed')}::int`.as('failed'),
  sql<number>`${eb.fn.countAll().filterWhere('m.state', 'in', ['queued', 'sending'])}::int`.as('waiting'),
  sql<number>`${eb.fn.coalesce(eb.fn.sum('m.units').filterWhere('m.provider_message_id', 'is not', null), sql.lit(0))}::int`.as('units'),
];

/** The consoles' filter: the day range and (null: every school and the platform's own texts) the school. */
const inRange = (eb: Messages, school: number | null, from: string, to: string) =>
  eb.and([eb.between('m.day', from, to), ...(school === null ? [] : [eb('m.school_id', '=', school)])]);

/** The SQL of the SMS consoles (issue 38): counts per day and school, the texts themselves, the default range. */
@Injectable()
export class SmsConsoleRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Today's counts (China's day) over every school. */
  todayCounts() {
    return kdb(this.db)
      .selectFrom('sms_messages as m')
      .select(counts)
      .where('m.day', '=', sql<string>`(now() at time zone 'Asia/Shanghai')::date`)
      .executeTakeFirstOrThrow();
  }

  /**
   * A page of the counts per day and school (null: every school) in [from, to], newest day first (the platform's own
   * texts first), each row with how many rows and the totals of the whole range.
   */
  usage(school: number | null, from: string, to: string, q: PageQuery) {
    return kdb(this.db)
      .with('g', (w) =>
        w
          .selectFrom('sms_messages as m')
          .select((eb) => ['m.day', 'm.school_id', ...counts(eb)])
          .where((eb) => inRange(eb, school, from, to))
          .groupBy(['m.day', 'm.school_id']),
      )
      .selectFrom('g')
      .leftJoin('schools as s', 's.id', 'g.school_id')
      .select((eb) => [
        sql<string>`to_char(${eb.ref('g.day')}, 'YYYY-MM-DD')`.as('day'),
        'g.school_id',
        's.name as school_name',
        'g.total',
        'g.sent',
        'g.delivered',
        'g.failed',
        'g.waiting',
        'g.units',
        sql<number>`count(*) over ()::int`.as('rows'),
        sql<number>`sum(${eb.ref('g.total')}) over ()::int`.as('all_total'),
        sql<number>`sum(${eb.ref('g.sent')}) over ()::int`.as('all_sent'),
        sql<number>`sum(${eb.ref('g.delivered')}) over ()::int`.as('all_delivered'),
        sql<number>`sum(${eb.ref('g.failed')}) over ()::int`.as('all_failed'),
        sql<number>`sum(${eb.ref('g.waiting')}) over ()::int`.as('all_waiting'),
        sql<number>`sum(${eb.ref('g.units')}) over ()::int`.as('all_units'),
      ])
      .orderBy('g.day', 'desc')
      .orderBy('g.school_id', (ob) => ob.nullsFirst())
      .limit(q.limit)
      .offset(offsetOf(q))
      .execute();
  }

  /** A page of the texts of a school (null: every school) in [from, to] as filtered, newest first, with the total. */
  messages(school: number | null, from: string, to: string, q: SmsMessagesQuery) {
    const pattern = containsPattern(q.mobile);
    const matching = (eb: Messages) =>
      eb.and([
        inRange(eb, school, from, to),
        ...(q.state === undefined ? [] : [eb('m.state', '=', q.state)]),
        ...(q.kind === undefined ? [] : [eb('m.kind', '=', q.kind as SmsKind)]),
        ...(q.provider === undefined ? [] : [eb('m.provider', '=', q.provider)]),
        ...(pattern === null ? [] : [eb('m.mobile', 'like', pattern)]),
      ]);
    const total = kdb(this.db)
      .selectFrom('sms_messages as m')
      .select((eb) => sql<number>`${eb.fn.countAll()}::int`.as('total'))
      .where(matching);
    const list = kdb(this.db)
      .selectFrom('sms_messages as m')
      .leftJoin('schools as s', 's.id', 'm.school_id')
      .select((eb) => [
        'm.id',
        'm.school_id',
        's.name as school_name',
        sql<string>`to_char(${eb.ref('m.day')}, 'YYYY-MM-DD')`.as('day'),
        'm.mobile',
        'm.kind',
        'm.content',
        'm.provider',
        'm.handed_over',
        'm.template_code',
        'm.state',
        'm.provider_message_id',
        'm.error_code',
        'm.error_message',
        'm.units',
        'm.tries',
        'm.created_at',
        'm.sent_at',
        'm.done_at',
      ])
      .where(matching)
      .orderBy('m.id', 'desc');
    return pageRows(this.db, total, list, q);
  }

  /** The school's today (null: China's) and the first day of the `days` days up to it. */
  defaultRange(school: number | null, days: number) {
    const k = kdb(this.db);
    const today = k
      .selectNoFrom((x) => [
        sql<string>`(now() at time zone ${x.fn.coalesce(
          x
            .selectFrom('schools')
            .select('timezone')
            .where('id', '=', school as number),
          sql.lit('Asia/Shanghai'),
        )})::date`.as('today'),
      ])
      .as('t');
    return k
      .selectFrom(today)
      .select((eb) => [
        sql<string>`to_char(${eb.ref('t.today')}, 'YYYY-MM-DD')`.as('today'),
        sql<string>`to_char(${eb.ref('t.today')} - ${days - 1}::int, 'YYYY-MM-DD')`.as('first'),
      ])
      .executeTakeFirstOrThrow();
  }
}
