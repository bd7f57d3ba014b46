import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { messageSendAt, nextRemindAt, REMIND_INTERVAL_MS, Role, type RemindInformResult } from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { AppError } from '../../core/http/app-error';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { JobsService } from '../../core/jobs/jobs.service';
import { GuardianMessages } from '../messages/guardian-messages.service';
import { NoticeClock, noticeMessages, queueTexts } from './notices-sql';
import { NoticesRepository } from './notices.repository';

/** Reminding a notice's unread recipients (guardians: WeChat, else SMS; staff: by text): at most once per notice per hour. */
@Injectable()
export class RemindService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repo: NoticesRepository,
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
  async remind(user: SchoolCaller, id: number): Promise<RemindInformResult> {
    const now = this.clock.now();
    const isAdmin = user.role === Role.Admin;
    const done = await this.db.transaction(async (em) => {
      const taken = await this.repo.takeForReminder(em, {
        id,
        schoolId: user.schoolId,
        me: user.id,
        isAdmin,
        now,
        intervalSecs: REMIND_INTERVAL_MS / 1000,
      });
      if (!taken) {
        const n = await this.repo.reminderState(em, { id, schoolId: user.schoolId, me: user.id, isAdmin });
        if (!n) throw new AppError('notices.not_found');
        if (n.unread <= 0) throw new AppError('notices.nothing_to_remind');
        const next = nextRemindAt(n.last_reminded_at, now) ?? new Date(now.getTime() + 60_000);
        throw new AppError('notices.remind_too_soon', { time: hhmm(next, (await this.repo.timezone(em, user.schoolId)) ?? 'Asia/Shanghai') });
      }
      const smsAt = messageSendAt('notice.remind', now, taken.timezone);
      const sent = await this.repo.remind(em, id, user.id, smsAt);
      const params = { school: taken.school, title: taken.title };
      const staged = await this.messages.stage(
        em,
        noticeMessages(user.schoolId, sent.guardians, 'notice.remind', params, `notice:${id}:r${sent.reminder_id}`),
        { now },
      );
      if (staged.users) await this.repo.addReminderTexts(em, sent.reminder_id, staged.users);
      const text = { school_id: user.schoolId, template: 'notice.remind' as const, params };
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
}

/** HH:MM of an instant in a time zone. */
function hhmm(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
}
