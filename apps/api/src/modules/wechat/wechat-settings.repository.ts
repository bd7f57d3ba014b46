import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Role, type GuardianMessageKind, type MessageChannel, type SmsKind } from '@wantuo/shared';
import { sql } from 'kysely';
import { DataSource } from 'typeorm';
import { kdb } from '../../core/database/kysely';
import { offsetOf, type PageQuery, type Queryable } from '../../core/database/sql-kit';

/** `= any(…::text[])` for a list of kinds: one parameter. */
const anyText = (list: readonly string[]) => sql<GuardianMessageKind>`any(${[...list]}::text[])`;
/** A day parameter as a date. */
const dateOf = (day: string) => sql<string>`${day}::date`;
const zero = sql<number>`0::bigint`;

/**
 * The SQL of the WeChat settings and counts (issue 38): a guardian's channels and binding, a school's delivery per day
 * and kind and its bound guardians, the official account's bindings and template ids.
 */
@Injectable()
export class WechatSettingsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The channels the account chose, per kind. */
  prefs(userId: number) {
    return kdb(this.db).selectFrom('message_prefs').select(['kind', 'channel']).where('user_id', '=', userId).execute();
  }

  /** The account's live binding to the official account `appid`. */
  binding(userId: number, appid: string) {
    return kdb(this.db)
      .selectFrom('wechat_bindings')
      .select(['bound_at', 'openid'])
      .where('user_id', '=', userId)
      .where('appid', '=', appid)
      .where('unbound_at', 'is', null)
      .executeTakeFirst();
  }

  /** Upserts the account's channels (one statement; an unchanged one is not touched). */
  async savePrefs(userId: number, prefs: ReadonlyArray<{ kind: GuardianMessageKind; channel: MessageChannel }>): Promise<void> {
    await kdb(this.db)
      .insertInto('message_prefs')
      .columns(['user_id', 'kind', 'channel'])
      .expression(
        kdb(this.db)
          .selectFrom(
            sql<{ kind: GuardianMessageKind; channel: MessageChannel }>`unnest(${prefs.map((p) => p.kind)}::text[], ${prefs.map(
              (p) => p.channel,
            )}::text[])`.as<'p'>(sql.raw('p(kind, channel)')),
          )
          .select([sql.val(userId).as('user_id'), 'p.kind', 'p.channel']),
      )
      .onConflict((oc) =>
        oc
          .columns(['user_id', 'kind'])
          .doUpdateSet((eb) => ({ channel: eb.ref('excluded.channel'), updated_at: sql`now()` }))
          .where(sql<boolean>`message_prefs.channel is distinct from excluded.channel`),
      )
      .execute();
  }

  /** Ends the account's live binding (reason 'user'); answers it. */
  unbind(em: Queryable, userId: number, appid: string) {
    return kdb(em)
      .updateTable('wechat_bindings')
      .set({ unbound_at: sql`now()`, unbound_reason: 'user' })
      .where('user_id', '=', userId)
      .where('appid', '=', appid)
      .where('unbound_at', 'is', null)
      .returning(['openid', 'bound_at'])
      .execute();
  }

  /**
   * One page of a school's delivery per day and kind in [from, to] over `kinds` (newest day first, then in the kinds'
   * order): WeChat messages by state with the texts sent instead of them, texts of those kinds sent directly; each row
   * with how many rows and the totals of the whole range.
   */
  stats(school: number, from: string, to: string, kinds: readonly GuardianMessageKind[], q: PageQuery) {
    const k = kdb(this.db);
    return (
      k
        .with('w', (w) =>
          w
            .selectFrom('wechat_messages as m')
            .select((eb) => [
              'm.day',
              sql<string>`${eb.ref('m.kind')}`.as('kind'),
              eb.fn.countAll<number>().filterWhere('m.state', 'in', ['sent', 'delivered']).as('wechat_sent'),
              eb.fn.countAll<number>().filterWhere('m.state', '=', 'delivered').as('wechat_delivered'),
              eb.fn.countAll<number>().filterWhere('m.state', '=', 'failed').as('wechat_failed'),
              eb.fn.countAll<number>().filterWhere('m.state', 'in', ['queued', 'sending']).as('wechat_waiting'),
              eb.fn.count<number>('m.sms_message_id').as('sms_fallback'),
              zero.as('sms_direct'),
            ])
            .where('m.school_id', '=', school)
            .where((eb) => eb.between('m.day', dateOf(from), dateOf(to)))
            .where('m.kind', '=', anyText(kinds))
            .groupBy(['m.day', 'm.kind']),
        )
        // the texts sent instead of a WeChat message (its day may be a few days before the text's, the quiet hours and retries)
        .with('fallback', (w) =>
          w
            .selectFrom('wechat_messages as m')
            .select('m.sms_message_id as id')
            .where('m.school_id', '=', school)
            .where((eb) => eb.between('m.day', sql<string>`${from}::date - 7`, dateOf(to)))
            .where('m.sms_message_id', 'is not', null),
        )
        .with('s', (w) =>
          w
            .selectFrom('sms_messages as t')
            .select((eb) => [
              't.day',
              sql<string>`${eb.ref('t.kind')}`.as('kind'),
              zero.as('wechat_sent'),
              zero.as('wechat_delivered'),
              zero.as('wechat_failed'),
              zero.as('wechat_waiting'),
              zero.as('sms_fallback'),
              eb.fn.countAll<number>().as('sms_direct'),
            ])
            .where('t.school_id', '=', school)
            .where((eb) => eb.between('t.day', dateOf(from), dateOf(to)))
            .where('t.kind', '=', sql<SmsKind>`any(${[...kinds]}::text[])`)
            .where((eb) => eb.not(eb.exists(eb.selectFrom('fallback as f').select(sql.lit(1).as('one')).whereRef('f.id', '=', 't.id'))))
            .groupBy(['t.day', 't.kind']),
        )
        .with('g', (w) =>
          w
            .selectFrom((eb) => eb.selectFrom('w').selectAll().unionAll(eb.selectFrom('s').selectAll()).as('u'))
            .select((eb) => [
              'u.day',
              'u.kind',
              sql<number>`sum(${eb.ref('u.wechat_sent')})::int`.as('wechat_sent'),
              sql<number>`sum(${eb.ref('u.wechat_delivered')})::int`.as('wechat_delivered'),
              sql<number>`sum(${eb.ref('u.wechat_failed')})::int`.as('wechat_failed'),
              sql<number>`sum(${eb.ref('u.wechat_waiting')})::int`.as('wechat_waiting'),
              sql<number>`sum(${eb.ref('u.sms_fallback')})::int`.as('sms_fallback'),
              sql<number>`sum(${eb.ref('u.sms_direct')})::int`.as('sms_direct'),
            ])
            .groupBy(['u.day', 'u.kind']),
        )
        .selectFrom('g')
        .select((eb) => [
          sql<string>`to_char(${eb.ref('g.day')}, 'YYYY-MM-DD')`.as('day'),
          'g.kind',
          'g.wechat_sent',
          'g.wechat_delivered',
          'g.wechat_failed',
          'g.wechat_waiting',
          'g.sms_fallback',
          'g.sms_direct',
          sql<number>`count(*) over ()::int`.as('rows'),
          sql<number>`sum(${eb.ref('g.wechat_sent')}) over ()::int`.as('all_wechat_sent'),
          sql<number>`sum(${eb.ref('g.wechat_delivered')}) over ()::int`.as('all_wechat_delivered'),
          sql<number>`sum(${eb.ref('g.wechat_failed')}) over ()::int`.as('all_wechat_failed'),
          sql<number>`sum(${eb.ref('g.wechat_waiting')}) over ()::int`.as('all_wechat_waiting'),
          sql<number>`sum(${eb.ref('g.sms_fallback')}) over ()::int`.as('all_sms_fallback'),
          sql<number>`sum(${eb.ref('g.sms_direct')}) over ()::int`.as('all_sms_direct'),
        ])
        .orderBy('g.day', 'desc')
        .orderBy((eb) => sql`array_position(${[...kinds]}::text[], ${eb.ref('g.kind')}::text)`)
        .limit(q.limit)
        .offset(offsetOf(q))
        .execute()
    );
  }

  /** The school's parents (live accounts) and how many of them are bound to the official account `appid`. */
  guardians(school: number, appid: string) {
    return kdb(this.db)
      .selectFrom('users as u')
      .leftJoin('wechat_bindings as b', (j) => j.onRef('b.user_id', '=', 'u.id').on('b.appid', '=', appid).on('b.unbound_at', 'is', null))
      .select((eb) => [sql<number>`${eb.fn.count('b.user_id')}::int`.as('bound'), sql<number>`${eb.fn.countAll()}::int`.as('total')])
      .where('u.school_id', '=', school)
      .where('u.role', '=', Role.Parent)
      .where('u.deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
  }

  /** How many live bindings the official account `appid` has. */
  async boundCount(appid: string): Promise<number> {
    const r = await kdb(this.db)
      .selectFrom('wechat_bindings')
      .select((eb) => sql<number>`${eb.fn.countAll()}::int`.as('n'))
      .where('appid', '=', appid)
      .where('unbound_at', 'is', null)
      .executeTakeFirstOrThrow();
    return r.n;
  }

  /** The template ids set, with who set them. */
  templates() {
    return kdb(this.db)
      .selectFrom('wechat_templates as t')
      .leftJoin('users as u', 'u.id', 't.updated_by')
      .select(['t.kind', 't.template_id', 't.updated_at', 'u.name as updated_by_name'])
      .execute();
  }

  /** Upserts the template ids given (one statement; an unchanged one is not touched), who and when kept. */
  async saveTemplates(userId: number, templates: ReadonlyArray<{ kind: GuardianMessageKind; template_id: string }>): Promise<void> {
    await kdb(this.db)
      .insertInto('wechat_templates')
      .columns(['kind', 'template_id', 'updated_by'])
      .expression(
        kdb(this.db)
          .selectFrom(
            sql<{ kind: GuardianMessageKind; template_id: string }>`unnest(${templates.map((t) => t.kind)}::text[], ${templates.map(
              (t) => t.template_id,
            )}::text[])`.as<'t'>(sql.raw('t(kind, template_id)')),
          )
          .select(['t.kind', 't.template_id', sql.val(userId).as('updated_by')]),
      )
      .onConflict((oc) =>
        oc
          .column('kind')
          .doUpdateSet((eb) => ({ template_id: eb.ref('excluded.template_id'), updated_by: eb.ref('excluded.updated_by'), updated_at: sql`now()` }))
          .where(sql<boolean>`wechat_templates.template_id is distinct from excluded.template_id`),
      )
      .execute();
  }

  /**
   * The default range's days: its last (`to`, else the school's today) and its first, the `schoolDays`th last school
   * day up to it (a weekday not a holiday, or a make-up day) within 60 days (none: the last day).
   */
  defaultRange(school: number, to: string | null, schoolDays: number) {
    return kdb(this.db)
      .with('t', (w) =>
        w
          .selectFrom('schools as s')
          .select((eb) => sql<string>`coalesce(${to}::date, (now() at time zone ${eb.ref('s.timezone')})::date)`.as('last'))
          .where('s.id', '=', school),
      )
      .with('days', (w) =>
        w
          .selectFrom(['t', sql<{ g: string }>`generate_series(t.last - 60, t.last, interval '1 day')`.as<'g'>(sql.raw('g(g)'))])
          .select(sql<string>`g.g::date`.as('day'))
          .where((eb) =>
            eb.fn.coalesce(
              eb
                .selectFrom('school_calendar_days as cd')
                .select((x) => x('cd.kind', '=', 'makeup').as('makeup'))
                .where('cd.school_id', '=', school)
                .where('cd.day', '=', sql<string>`g.g::date`),
              sql<boolean>`extract(isodow from g.g) < 6`,
            ),
          )
          .orderBy(sql`g.g`, 'desc')
          .limit(schoolDays),
      )
      .selectFrom('t')
      .select((eb) => [
        sql<string>`to_char(${eb.ref('t.last')}, 'YYYY-MM-DD')`.as('to'),
        sql<string>`to_char(coalesce(${eb.selectFrom('days').select((x) => x.fn.min('days.day').as('first'))}, ${eb.ref('t.last')}), 'YYYY-MM-DD')`.as(
          'from',
        ),
      ])
      .executeTakeFirstOrThrow();
  }
}
