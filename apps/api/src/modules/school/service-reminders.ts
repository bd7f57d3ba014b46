import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { GRACE_DAYS, REMINDER_DAYS, Role } from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { SmsTexts } from '../sms/texts.service';

/**
 * Reminders due at $1, for every school at once, and recorded in the same statement: the school-local date of the
 * expiry minus today's school-local date is one of REMINDER_DAYS ($2). Only the rows this statement inserts come back
 * (`on conflict do nothing returning`), each with the mobiles of the school's admins, so a reminder already sent by
 * an earlier or a concurrent run is never sent again (a concurrent run waits on the key, then inserts nothing).
 *
 * Not on the day the school was created: the welcome SMS already says how long the trial is.
 */
const DUE_SQL = `with today as (
    select s.id, s.name, s.service_expires_at, s.timezone,
           (s.service_expires_at at time zone s.timezone)::date - ($1::timestamptz at time zone s.timezone)::date as days_before
      from schools s
     where s.status = 1 and s.service_expires_at > $1::timestamptz
       and s.service_expires_at < $1::timestamptz + make_interval(days => $3)
       and (s.created_at at time zone s.timezone)::date < ($1::timestamptz at time zone s.timezone)::date
  ), sent as (
    insert into service_reminders (school_id, expires_at, days_before, sent_at)
    select id, service_expires_at, days_before, $1 from today where days_before = any($2::int[])
    on conflict do nothing
    returning school_id, expires_at, days_before
  )
  select sent.school_id, sent.days_before::int as days_before, d.name as school,
         to_char(sent.expires_at at time zone d.timezone, 'YYYY"年"FMMM"月"FMDD"日"') as date,
         coalesce(array_agg(u.mobile order by u.id) filter (where u.mobile is not null), '{}') as mobiles
    from sent join today d on d.id = sent.school_id
    left join users u on u.school_id = sent.school_id and u.role = $4 and u.deleted_at is null and u.status = 1 and u.mobile is not null
   group by sent.school_id, sent.days_before, sent.expires_at, d.name, d.timezone`;

export interface SentReminder {
  school_id: number;
  days_before: number;
  school: string;
  date: string;
  mobiles: string[];
}

/**
 * The service-expiry reminders (issue 10): an SMS to each admin of a school 30, 7 and 1 days before its service
 * expires, counted in school-local dates, each reminder once per school and expiry. The `school.remind` job runs it
 * every hour; a run only sends what no earlier run sent, so running it more often, twice, or on two workers at once
 * changes nothing. A renewal moves the expiry, which starts a new series. Only the day itself counts: a day on which no
 * run succeeded at all skips that reminder (the next one still goes out).
 */
@Injectable()
export class ServiceReminders {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly texts: SmsTexts,
  ) {}

  async run(at: Date = new Date()): Promise<SentReminder[]> {
    // the texts are written in the transaction that records the reminders (both or neither), and sent after it
    const { sent, staged } = await this.db.transaction(async (em) => {
      const sent: SentReminder[] = await em.query(DUE_SQL, [at, [...REMINDER_DAYS], Math.max(...REMINDER_DAYS) + 2, Role.Admin]);
      const staged = await this.texts.stage(
        em,
        sent.flatMap((r) => {
          const params = { school: r.school, date: r.date, days: String(r.days_before), grace: String(GRACE_DAYS) };
          return r.mobiles.map((mobile) => ({ school_id: r.school_id, mobile, kind: 'school.expiring' as const, params }));
        }),
      );
      return { sent, staged };
    });
    await this.texts.dispatch(staged);
    return sent;
  }
}
