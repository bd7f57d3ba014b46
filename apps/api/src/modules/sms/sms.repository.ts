import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { SmsProviderName, SmsState } from '@wantuo/shared';
import { sql, type Insertable } from 'kysely';
import { DataSource } from 'typeorm';
import { kdb, type DB } from '../../core/database/kysely';
import type { Queryable } from '../../core/database/sql-kit';

/** A JSON list as a table (`jsonb_to_recordset`), its columns declared by `columns` (`name type, …`). */
const recordset = <R, A extends string>(rows: readonly unknown[], alias: A, columns: string) =>
  sql<R>`jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)`.as<A>(sql.raw(`${alias}(${columns})`));

/** `= any(…::bigint[])` for a list of message ids: one parameter, whatever the list's length. */
const anyId = (ids: readonly number[]) => sql<number>`any(${[...ids]}::bigint[])`;

/** A text to write: an sms_messages row but its day and provider (the statement sets them). */
export type TextDraft = Required<Pick<Insertable<DB['sms_messages']>, 'school_id' | 'mobile' | 'kind' | 'params' | 'content' | 'dedupe_key'>>;

/**
 * The texts' rows in one insert on `on` (a transaction's or the pool's), new ones queued for `provider`, each on its
 * school's local day (China's for the platform's own); a key written before answers its row again (`do update`, a
 * no-op). Answers id, kind, params, provider, whether still queued, whether new.
 */
export function writeTexts(on: Queryable, rows: readonly TextDraft[], provider: SmsProviderName) {
  return kdb(on)
    .insertInto('sms_messages')
    .columns(['school_id', 'day', 'mobile', 'kind', 'params', 'content', 'dedupe_key', 'provider'])
    .expression((eb) =>
      eb
        .selectFrom(recordset<TextDraft, 't'>(rows, 't', 'school_id int, mobile text, kind text, params jsonb, content text, dedupe_key text'))
        .leftJoin('schools as s', 's.id', 't.school_id')
        .select((x) => [
          't.school_id',
          sql<string>`(now() at time zone ${x.fn.coalesce('s.timezone', sql.lit('Asia/Shanghai'))})::date`.as('day'),
          't.mobile',
          't.kind',
          't.params',
          't.content',
          't.dedupe_key',
          sql.val(provider).as('provider'),
        ]),
    )
    .onConflict((oc) => oc.column('dedupe_key').doUpdateSet((eb) => ({ dedupe_key: eb.ref('excluded.dedupe_key') })))
    .returning((eb) => ['id', 'kind', 'params', 'provider', eb('state', '=', 'queued').as('queued'), sql<boolean>`xmax = 0`.as('fresh')])
    .execute();
}

/** What becomes of one message after a send: one row of the set-based update (SmsDelivery). */
export interface SmsResult {
  id: number;
  state: SmsState;
  provider: SmsProviderName;
  handed_over: boolean;
  tries: number;
  template_code: string | null;
  provider_message_id: string | null;
  error_code: string | null;
  error_message: string | null;
  units: number | null;
  /** a code text once the provider has it (or it failed): its variables and text with the code masked */
  params?: Record<string, string>;
  content?: string;
  /** the receipt's moment (a text the provider had: delivered or failed then) */
  done_at?: string | null;
}

/** One delivery report to apply (its moment as the ISO text JSON carries). */
export interface SmsReportRow {
  message_id: string;
  mobile: string;
  delivered: boolean;
  code: string | null;
  message: string | null;
  at: Date | string | null;
  units: number | null;
}

/** The SQL of SMS delivery (issue 38): texts claimed and recorded, receipts applied (codes and consoles: their own repositories). */
@Injectable()
export class SmsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  // ---- delivery ----

  /**
   * Claims the messages of `ids` still to be sent (queued, or left sending longer than `staleSeconds`: `unknown`, its
   * request may have reached the provider), queued → sending with one more try; the locked rows are checked again
   * after a concurrent claim, so one job takes each. By id.
   */
  claim(ids: readonly number[], staleSeconds: number) {
    return kdb(this.db)
      .with('was', (w) =>
        w
          .selectFrom('sms_messages')
          .select(['id', 'state'])
          .where('id', '=', anyId(ids))
          .where((eb) =>
            eb.or([
              eb('state', '=', 'queued'),
              eb.and([eb('state', '=', 'sending'), eb('updated_at', '<', sql<Date>`now() - make_interval(secs => ${staleSeconds})`)]),
            ]),
          )
          .forUpdate(),
      )
      .with('claimed', (w) =>
        w
          .updateTable('sms_messages as m')
          .from('was')
          .set((eb) => ({ state: 'sending', tries: eb('m.tries', '+', 1), updated_at: sql`now()` }))
          .whereRef('m.id', '=', 'was.id')
          .returning((eb) => [
            'm.id',
            'm.mobile',
            'm.kind',
            'm.params',
            'm.content',
            'm.provider',
            'm.handed_over',
            'm.tries',
            'm.error_code',
            'm.error_message',
            eb('was.state', '=', 'sending').as('unknown'),
            'm.created_at',
          ]),
      )
      .selectFrom('claimed')
      .selectAll()
      .orderBy('id')
      .execute();
  }

  /** Which of the provider's message ids `ids` are recorded already. */
  async recordedIds(provider: SmsProviderName, ids: readonly string[]): Promise<string[]> {
    const rows = await kdb(this.db)
      .selectFrom('sms_messages')
      .select('provider_message_id as id')
      .where('provider', '=', provider)
      .where('provider_message_id', '=', sql<string>`any(${[...ids]}::text[])`)
      .$narrowType<{ id: string }>()
      .execute();
    return rows.map((r) => r.id);
  }

  /** Every result of a job in one statement. */
  async record(results: readonly SmsResult[]): Promise<void> {
    await kdb(this.db)
      .updateTable('sms_messages as m')
      .from(
        recordset<SmsResult, 'r'>(
          results,
          'r',
          'id bigint, state text, provider text, handed_over boolean, tries int, template_code text, provider_message_id text, ' +
            'error_code text, error_message text, units int, params jsonb, content text, done_at timestamptz',
        ),
      )
      .set((eb) => ({
        state: eb.ref('r.state'),
        provider: eb.ref('r.provider'),
        handed_over: eb.ref('r.handed_over'),
        tries: eb.ref('r.tries'),
        params: sql`coalesce(${eb.ref('r.params')}, ${eb.ref('m.params')})`,
        content: sql`coalesce(${eb.ref('r.content')}, ${eb.ref('m.content')})`,
        template_code: eb.fn.coalesce('r.template_code', 'm.template_code'),
        provider_message_id: eb.fn.coalesce('r.provider_message_id', 'm.provider_message_id'),
        error_code: eb.ref('r.error_code'),
        error_message: eb.ref('r.error_message'),
        units: sql`coalesce(${eb.ref('r.units')}, ${eb.ref('m.units')})`,
        sent_at: eb
          .case()
          .when('r.state', 'in', ['sent', 'delivered'])
          .then(sql<Date>`now()`)
          .else(eb.ref('m.sent_at'))
          .end(),
        done_at: eb
          .case()
          .when('r.state', 'in', ['delivered', 'failed'])
          .then(sql<Date>`coalesce(${eb.ref('r.done_at')}, now())`)
          .else(eb.ref('m.done_at'))
          .end(),
        updated_at: sql`now()`,
      }))
      .whereRef('m.id', '=', 'r.id')
      .execute();
  }

  // ---- receipts ----

  /**
   * Applies reports to the provider's sent messages (by its id and the mobile: delivered or failed, once); answers the
   * reports that matched, a report of a message already delivered or failed (a provider sending it twice) too.
   */
  applyReports(provider: SmsProviderName, reports: readonly SmsReportRow[]) {
    return kdb(this.db)
      .with('r', (w) =>
        w
          .selectFrom(
            recordset<SmsReportRow, 'r'>(
              reports,
              'r',
              'message_id text, mobile text, delivered boolean, code text, message text, at timestamptz, units int',
            ),
          )
          .selectAll(),
      )
      .with('done', (w) =>
        w
          .updateTable('sms_messages as m')
          .from('r')
          .set((eb) => ({
            state: sql<SmsState>`case when ${eb.ref('r.delivered')} then 'delivered' else 'failed' end`,
            error_code: sql<string | null>`case when ${eb.ref('r.delivered')} then (case when ${eb.ref('m.handed_over')} then ${eb.ref(
              'm.error_code',
            )} end) else left(coalesce(${eb.ref('r.code')}, 'UNDELIVERED'), 80) end`,
            error_message: sql<string | null>`case when ${eb.ref('r.delivered')} then (case when ${eb.ref('m.handed_over')} then ${eb.ref(
              'm.error_message',
            )} end) else left(${eb.ref('r.message')}, 300) end`,
            units: sql`coalesce(${eb.ref('r.units')}, ${eb.ref('m.units')})`,
            done_at: sql`coalesce(${eb.ref('r.at')}, now())`,
            updated_at: sql`now()`,
          }))
          .where('m.provider', '=', provider)
          .whereRef('m.provider_message_id', '=', 'r.message_id')
          .whereRef('m.mobile', '=', 'r.mobile')
          .where('m.state', '=', 'sent')
          .returning(['m.provider_message_id as message_id', 'm.mobile']),
      )
      .selectFrom('done')
      .select(['message_id', 'mobile'])
      .unionAll((eb) =>
        eb
          .selectFrom('sms_messages as m')
          .innerJoin('r', (j) => j.onRef('m.provider_message_id', '=', 'r.message_id').onRef('m.mobile', '=', 'r.mobile'))
          .select(['m.provider_message_id as message_id', 'm.mobile'])
          .where('m.provider', '=', provider)
          .where('m.state', 'in', ['delivered', 'failed']),
      )
      .execute();
  }

  /** The provider's sent messages still without a receipt, sent over a minute and under `days` days ago: oldest first, at most `limit`. */
  awaitingReceipts(provider: SmsProviderName, days: number, limit: number) {
    return kdb(this.db)
      .selectFrom('sms_messages')
      .select(['id', 'mobile', 'provider_message_id as message_id', 'sent_at'])
      .where('provider', '=', provider)
      .where('state', '=', 'sent')
      .where('provider_message_id', 'is not', null)
      .where('sent_at', '<', sql<Date>`now() - interval '1 minute'`)
      .where('sent_at', '>', sql<Date>`now() - make_interval(days => ${days})`)
      .orderBy('sent_at')
      .limit(limit)
      .$narrowType<{ message_id: string; sent_at: Date }>()
      .execute();
  }

  /**
   * Messages queued or claimed, untouched `minutes` and written within `days` days: a queued one's job was lost (its
   * moment set now), a claimed one stays as it is (its job asks the provider first). Answered to be handed to jobs.
   */
  stuck(minutes: number, days: number) {
    return kdb(this.db)
      .updateTable('sms_messages')
      .set((eb) => ({
        updated_at: eb
          .case()
          .when('state', '=', 'queued')
          .then(sql<Date>`now()`)
          .else(eb.ref('updated_at'))
          .end(),
      }))
      .where('state', 'in', ['queued', 'sending'])
      .where('updated_at', '<', sql<Date>`now() - make_interval(mins => ${minutes})`)
      .where('created_at', '>', sql<Date>`now() - make_interval(days => ${days})`)
      .returning(['id', 'kind', 'params', 'provider'])
      .execute();
  }
}
