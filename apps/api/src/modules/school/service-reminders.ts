import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { GRACE_DAYS, REMINDER_DAYS } from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { SmsTexts } from '../sms/texts.service';
import { dueServiceReminders, type SentReminder } from './school.repository';

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
      const sent = await dueServiceReminders(em, at, REMINDER_DAYS);
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
