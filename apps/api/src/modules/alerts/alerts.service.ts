import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Role, type AlertKind, type FlowAlertsQuery, type Page } from '@wantuo/shared';
import { DataSource } from 'typeorm';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { ALERT_GRACE, AlertsRepository, type AlertRow } from './alerts.repository';
import { GuardianMessages } from '../messages/guardian-messages.service';
import { SmsTexts } from '../sms/texts.service';

export { ALERT_GRACE };

/** What each flow exception (ALERT_KINDS, @wantuo/shared) says. */
export const ALERT_WHAT: Record<AlertKind, string> = {
  not_picked_up: `放学 ${ALERT_GRACE.notPickedUpMinutes} 分钟后仍未被接到`,
  not_entered: `上课 ${ALERT_GRACE.notEnteredMinutes} 分钟后仍未入园`,
  absent: '今天未到园且没有请假',
  after_closing: '晚托结束后仍在园内',
  pickup_unauthorised: '未授权接送尝试',
};

/**
 * The kinds raised by an event rather than a condition (pickup_unauthorised, on the pick-up module's domain event:
 * AlertsListener): the scan neither raises nor clears them.
 */
export const EVENT_ALERT_KINDS: readonly AlertKind[] = ['pickup_unauthorised'];

@Injectable()
export class AlertsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repo: AlertsRepository,
    private readonly texts: SmsTexts,
    private readonly messages: GuardianMessages,
  ) {}

  /**
   * One scan at `at` for every school: raise what holds and was not raised yet today (once: a unique key per
   * student, day and kind), clear what no longer holds, and tell each newly raised alert to the head teacher (SMS) and
   * every guardian of the student (GuardianMessages: WeChat, else SMS; held to 07:00 in the quiet hours).
   */
  async scan(at: Date = new Date()): Promise<{ raised: number; cleared: number }> {
    const { raised, cleared } = await this.db.transaction(async (em) => {
      const raised = await this.repo.raise(em, at);
      const cleared = await this.repo.clear(em, at, EVENT_ALERT_KINDS);
      return { raised, cleared };
    });
    const params = (r: (typeof raised)[number]) => ({
      school: r.school_name,
      student: r.student_name,
      class: r.class_name,
      what: ALERT_WHAT[r.kind],
    });
    // the head teacher by SMS; every guardian of the student by WeChat, else SMS (an alert cannot be turned off)
    await this.texts.queue(
      raised
        .filter((r) => r.head_mobile)
        .map((r) => ({
          school_id: r.school_id,
          mobile: r.head_mobile!,
          kind: 'alert.raised' as const,
          params: params(r),
          key: `alert:${r.id}:head`,
        })),
    );
    await this.messages.send(
      raised.flatMap((r) =>
        r.guardians.map((user_id) => ({
          school_id: r.school_id,
          user_id,
          kind: 'alert.raised' as const,
          params: params(r),
          link: `/parent?student=${r.student_id}`,
          key: `alert:${r.id}:${user_id}`,
        })),
      ),
      { now: at },
    );
    return { raised: raised.length, cleared };
  }

  /** Alerts of a day for the boards: the school for admins, own classes for head teachers; open ones first. */
  list(user: SchoolCaller, q: FlowAlertsQuery): Promise<Page<AlertRow>> {
    return this.repo.page(
      {
        schoolId: user.schoolId,
        day: q.date ?? null,
        openOnly: q.open_only ?? false,
        headTeacherId: user.role === Role.HeadTeacher ? user.id : null,
      },
      q,
    );
  }
}
