import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { messageSendAt, nextRemindAt, REMIND_INTERVAL_MS, Role, type RemindInformResult } from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { JobsService } from '../../core/jobs/jobs.service';
import { GuardianMessages } from '../messages/guardian-messages.service';
import { NoticeClock, noticeMessages, queueTexts, REMIND_SQL } from './notices-sql';

/** Reminding a notice's unread recipients (guardians: WeChat, else SMS; staff: by text): at most once per notice per hour. */
@Injectable()
export class RemindService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly jobs: JobsService,
    private readonly clock: NoticeClock,
    private readonly messages: GuardianMessages,
  ) {}

  /**
   * The author (the admin: any notice of the school) reminds the unread recipients. The notice's row is updated first
   * (last_reminded_at) only when its last reminder is an hour old or more: a concurrent reminder waits for that row,
   * then finds the time taken and is refused, so two reminders at once send once. The reminder is appended to
   * notice_reminders; the guardians' messages are written with it (GuardianMessages, sent after the commit) and the
   * staff's texts queued in bulk before the commit, both held to 07:00 in the quiet hours by messageSendAt (sms_at).
   * `reminded` counts the staff texted and the guardians told.
   */
  async remind(user: SessionUser, id: number): Promise<RemindInformResult> {
    const now = this.clock.now();
    const isAdmin = user.role === Role.Admin;
    const done = await this.db.transaction(async (em) => {
      const [taken]: Array<{ id: number; title: string; school: string; timezone: string }> = await em.query(
        `with n as (
           update notices n set last_reminded_at = $4
            where n.id = $1 and n.school_id = $2 and ($5::boolean or n.author_id = $3) and n.recipients > n.read_count
              and (n.last_reminded_at is null or n.last_reminded_at <= $4::timestamptz - make_interval(secs => $6))
           returning n.id, n.title, n.school_id)
         select n.id, n.title, s.name as school, s.timezone from n join schools s on s.id = n.school_id`,
        [id, user.schoolId, user.id, now, isAdmin, REMIND_INTERVAL_MS / 1000],
      );
      if (!taken) {
        const [n]: Array<{ unread: number; last_reminded_at: Date | null }> = await em.query(
          `select n.recipients - n.read_count as unread, n.last_reminded_at from notices n where n.id = $1 and n.school_id = $2 and ($4::boolean or n.author_id = $3)`,
          [id, user.schoolId, user.id, isAdmin],
        );
        if (!n) throw new AppError('notices.not_found');
        if (n.unread <= 0) throw new AppError('notices.nothing_to_remind');
        const next = nextRemindAt(n.last_reminded_at, now) ?? new Date(now.getTime() + 60_000);
        throw new AppError('notices.remind_too_soon', { time: hhmm(next, await this.timezone(em, user.schoolId!)) });
      }
      const smsAt = messageSendAt('notice.remind', now, taken.timezone);
      const [sent]: Array<{ reminder_id: number; unread: number; mobiles: string[]; guardians: number[] }> = await em.query(REMIND_SQL, [
        id,
        user.id,
        smsAt,
      ]);
      const params = { school: taken.school, title: taken.title };
      const staged = await this.messages.stage(
        em,
        noticeMessages(user.schoolId!, sent.guardians, 'notice.remind', params, `notice:${id}:r${sent.reminder_id}`),
        { now },
      );
      if (staged.users) await em.query(`update notice_reminders set texts = texts + $2 where id = $1`, [sent.reminder_id, staged.users]);
      const text = { school_id: user.schoolId!, template: 'notice.remind' as const, params };
      await queueTexts(this.jobs, `n${id}-r${sent.reminder_id}`, sent.mobiles, text, Math.max(0, smsAt.getTime() - now.getTime()));
      const result: RemindInformResult = {
        id,
        reminded: sent.mobiles.length + staged.users,
        sms_at: smsAt.toISOString(),
        held: smsAt.getTime() > now.getTime(),
        next_remind_at: new Date(now.getTime() + REMIND_INTERVAL_MS).toISOString(),
      };
      return { result, staged };
    });
    await this.messages.dispatch(done.staged);
    return done.result;
  }

  private async timezone(em: { query: DataSource['query'] }, schoolId: number): Promise<string> {
    const [s]: Array<{ timezone: string }> = await em.query(`select timezone from schools where id = $1`, [schoolId]);
    return s?.timezone ?? 'Asia/Shanghai';
  }
}

/** HH:MM of an instant in a time zone. */
function hhmm(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
}
