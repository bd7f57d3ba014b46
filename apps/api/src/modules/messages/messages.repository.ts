import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Role, type GuardianMessageKind, type MessageChannel } from '@wantuo/shared';
import { sql, type Insertable } from 'kysely';
import { DataSource } from 'typeorm';
import { kdb, type DB } from '../../core/database/kysely';
import type { Queryable } from '../../core/database/sql-kit';

/** One item to resolve: its place in the caller's list, school, guardian and kind. */
export interface MessageTarget {
  ord: number;
  school_id: number;
  user_id: number;
  kind: GuardianMessageKind;
}

/** A WeChat template message to write: a wechat_messages row but its appid and day (the statement sets them). */
export type WechatMessageDraft = Required<
  Pick<
    Insertable<DB['wechat_messages']>,
    'school_id' | 'user_id' | 'openid' | 'kind' | 'template_id' | 'data' | 'params' | 'url' | 'dedupe_key' | 'send_after'
  >
>;

/** What a WeChat send did to one message (the `wechat.send` job). */
export interface WechatOutcome {
  id: number;
  state: 'queued' | 'sent' | 'failed';
  msgid: string | null;
  errcode: number | null;
  errmsg: string | null;
}

/** A JSON list as a table (`jsonb_to_recordset`), its columns declared by `columns` (`name type, …`). */
const recordset = <R, A extends string>(rows: readonly unknown[], alias: A, columns: string) =>
  sql<R>`jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)`.as<A>(sql.raw(`${alias}(${columns})`));

/** The SQL of the messages module (issue 38): guardians resolved, WeChat messages written, claimed and recorded. */
@Injectable()
export class MessagesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Each target's guardian (a live parent account; anyone else drops out): mobile, live binding to the official account
   * `appid`, the channel chosen for the kind, the school's zone, the kind's template.
   */
  resolve(on: Queryable, targets: readonly MessageTarget[], appid: string) {
    return kdb(on)
      .selectFrom(recordset<MessageTarget, 'i'>(targets, 'i', 'ord int, school_id int, user_id int, kind text'))
      .innerJoin('users as u', (j) =>
        j.onRef('u.id', '=', 'i.user_id').on('u.role', '=', Role.Parent).on('u.deleted_at', 'is', null).on('u.status', '=', 1),
      )
      .leftJoin('schools as s', 's.id', 'i.school_id')
      .leftJoin('wechat_bindings as b', (j) => j.onRef('b.user_id', '=', 'u.id').on('b.appid', '=', appid).on('b.unbound_at', 'is', null))
      .leftJoin('message_prefs as p', (j) => j.onRef('p.user_id', '=', 'u.id').onRef('p.kind', '=', 'i.kind'))
      .leftJoin('wechat_templates as t', 't.kind', 'i.kind')
      .select((eb) => [
        'i.ord',
        'u.mobile',
        'b.openid',
        sql<MessageChannel | null>`${eb.ref('p.channel')}`.as('channel'),
        eb.fn.coalesce('s.timezone', sql.lit('Asia/Shanghai')).as('timezone'),
        't.template_id',
      ])
      .execute();
  }

  /**
   * Writes the WeChat messages (a key written before is not written again: its row answers, not fresh), each on its
   * school's local day of `now`. Answers id, send_after, whether it is still queued, whether it is new.
   */
  writeWechat(on: Queryable, rows: readonly WechatMessageDraft[], appid: string, now: Date) {
    return kdb(on)
      .insertInto('wechat_messages')
      .columns(['school_id', 'user_id', 'appid', 'openid', 'kind', 'template_id', 'data', 'params', 'url', 'day', 'dedupe_key', 'send_after'])
      .expression((eb) =>
        eb
          .selectFrom(
            recordset<WechatMessageDraft, 'r'>(
              rows,
              'r',
              'school_id int, user_id int, openid text, kind text, template_id text, data jsonb, params jsonb, url text, dedupe_key text, send_after timestamptz',
            ),
          )
          .leftJoin('schools as s', 's.id', 'r.school_id')
          .select((x) => [
            'r.school_id',
            'r.user_id',
            sql.val(appid).as('appid'),
            'r.openid',
            'r.kind',
            'r.template_id',
            'r.data',
            'r.params',
            'r.url',
            sql<string>`(${now.toISOString()}::timestamptz at time zone ${x.fn.coalesce('s.timezone', sql.lit('Asia/Shanghai'))})::date`.as('day'),
            'r.dedupe_key',
            'r.send_after',
          ]),
      )
      .onConflict((oc) => oc.column('dedupe_key').doUpdateSet((eb) => ({ dedupe_key: eb.ref('excluded.dedupe_key') })))
      .returning((eb) => ['id', 'send_after', eb('state', '=', 'queued').as('queued'), sql<boolean>`xmax = 0`.as('fresh')])
      .execute();
  }

  /**
   * Claims the messages of `ids` that are due (within 5 s) and still to send, or were left sending longer than
   * `staleSeconds` (queued → sending, one more try): two jobs never both send one. With the guardian's mobile, by id.
   */
  claim(ids: readonly number[], staleSeconds: number) {
    return kdb(this.db)
      .with('claimed', (w) =>
        w
          .updateTable('wechat_messages')
          .set((eb) => ({ state: 'sending', tries: eb('tries', '+', 1), updated_at: sql`now()` }))
          .where('id', '=', sql<number>`any(${[...ids]}::bigint[])`)
          .where('send_after', '<=', sql<Date>`now() + interval '5 seconds'`)
          .where((eb) =>
            eb.or([
              eb('state', '=', 'queued'),
              eb.and([eb('state', '=', 'sending'), eb('updated_at', '<', sql<Date>`now() - make_interval(secs => ${staleSeconds})`)]),
            ]),
          )
          .returning(['id', 'school_id', 'user_id', 'openid', 'kind', 'template_id', 'data', 'params', 'url', 'tries']),
      )
      .selectFrom('claimed as c')
      .leftJoin('users as u', (j) => j.onRef('u.id', '=', 'c.user_id').on('u.deleted_at', 'is', null))
      .selectAll('c')
      .select('u.mobile')
      .orderBy('c.id')
      .execute();
  }

  /** Records the sends' outcomes, each message linked to the text sent in its stead (its key `wx-<id>`) if any. */
  async record(on: Queryable, outcomes: readonly WechatOutcome[]): Promise<void> {
    await kdb(on)
      .updateTable('wechat_messages as w')
      .from(recordset<WechatOutcome, 'o'>(outcomes, 'o', 'id bigint, state text, msgid text, errcode int, errmsg text'))
      .set((eb) => ({
        state: eb.ref('o.state'),
        msgid: eb.fn.coalesce('o.msgid', 'w.msgid'),
        errcode: eb.ref('o.errcode'),
        errmsg: eb.ref('o.errmsg'),
        sent_at: eb
          .case()
          .when('o.state', '=', 'sent')
          .then(sql<Date>`now()`)
          .else(eb.ref('w.sent_at'))
          .end(),
        updated_at: sql`now()`,
        sms_message_id: eb.fn.coalesce(
          eb
            .selectFrom('sms_messages as sm')
            .select('sm.id')
            .where('sm.dedupe_key', '=', sql<string>`'wx-' || ${eb.ref('w.id')}`),
          'w.sms_message_id',
        ),
      }))
      .whereRef('w.id', '=', 'o.id')
      .execute();
  }

  /** Due messages (of the last 3 days) whose job was lost: queued or sending, untouched for `stuckSeconds`. */
  stuck(stuckSeconds: number, limit: number) {
    return kdb(this.db)
      .selectFrom('wechat_messages')
      .select('id')
      .where('state', 'in', ['queued', 'sending'])
      .where('send_after', '<=', sql<Date>`now()`)
      .where('updated_at', '<', sql<Date>`now() - make_interval(secs => ${stuckSeconds})`)
      .where('created_at', '>', sql<Date>`now() - interval '3 days'`)
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /**
   * The flow events at `positions` of the `types` guardians hear about: student, school, the local time, who took the
   * child (the verified pick-up person, else the registered one), and every guardian of the student.
   */
  flowEvents(positions: readonly number[], types: readonly string[]) {
    return kdb(this.db)
      .selectFrom('flow_events as e')
      .innerJoin('students as st', 'st.id', 'e.student_id')
      .innerJoin('schools as sc', 'sc.id', 'e.school_id')
      .leftJoin('pickup_people as pp', (j) =>
        j
          .on((eb) => eb(eb.ref('pp.id'), '=', sql<number>`(${eb.ref('e.payload')}->>'picked_up_by')::int`))
          .onRef('pp.student_id', '=', 'e.student_id'),
      )
      .select((eb) => [
        'e.event_id',
        'e.type',
        'e.school_id',
        'e.student_id',
        'st.name as student',
        'sc.name as school',
        sql<string>`to_char(${eb.ref('e.occurred_at')} at time zone ${eb.fn.coalesce('sc.timezone', sql.lit('Asia/Shanghai'))}, 'HH24:MI')`.as(
          'time',
        ),
        sql<string | null>`case when jsonb_typeof(${eb.ref('e.payload')}->'pickup_verified') = 'object'
                 then (${eb.ref('e.payload')}->'pickup_verified'->>'name') || coalesce('（' || nullif(${eb.ref('e.payload')}->'pickup_verified'->>'relation', '') || '）', '')
               when ${eb.ref('pp.id')} is not null then ${eb.ref('pp.name')} || '（' || ${eb.ref('pp.relation')} || '）' end`.as('by'),
        eb.fn
          .coalesce(
            eb
              .selectFrom('student_guardians as sg')
              .select(sql<number[]>`array_agg(sg.user_id order by sg.user_id)`.as('ids'))
              .whereRef('sg.student_id', '=', 'e.student_id'),
            sql<number[]>`'{}'`,
          )
          .as('guardians'),
      ])
      .where('e.global_position', '=', sql<number>`any(${[...positions]}::bigint[])`)
      .where('e.type', '=', sql<string>`any(${[...types]}::text[])`)
      .execute();
  }
}
