import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { CONVERSATION_LIMITS, localTime } from '@wantuo/shared';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { LOGGER } from '../../core/logging/logger';
import { GuardianMessages, type GuardianMessage } from '../messages/guardian-messages.service';
import { ConversationsClock } from './conversations-clock';
import { ConversationsRepository } from './conversations.repository';

/** At most this many notices a run (the next run takes the rest). */
const BATCH = 500;

/**
 * The `conversations.notify` sweep (every 30 s): a guardian who has not read a school message within a minute is told
 * through the channel they chose for 'family.message' (WeChat, else SMS; held to 07:00 in the quiet hours), once per
 * conversation per quiet period, and never of the same message twice. The notice names the school, the sender and the
 * time: never the message, never the child. Claimed and staged in one transaction, dispatched after its commit.
 */
@Injectable()
export class ConversationNotices {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly messages: GuardianMessages,
    private readonly clock: ConversationsClock,
    private readonly repo: ConversationsRepository,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  async sweep(at?: Date): Promise<number> {
    const now = at ?? this.clock.now();
    const staged = await this.db.transaction(async (em) => {
      const due = await this.repo.claimNotices(em, now, CONVERSATION_LIMITS.notifyDelayMs, CONVERSATION_LIMITS.notifyQuietMs, BATCH);
      const items: GuardianMessage[] = due.map((d) => ({
        school_id: d.school_id,
        user_id: d.user_id,
        kind: 'family.message',
        params: { school: d.school_name, from: d.from_name, time: localTime(d.sent_at, d.timezone) },
        link: `/m/parent_chat?student=${d.student_id}`,
        key: `family.message:${d.user_id}:${d.message_id}`,
      }));
      return { n: items.length, staged: await this.messages.stage(em, items, { now }) };
    });
    await this.messages.dispatch(staged.staged);
    if (staged.n) this.log.info({ notices: staged.n }, 'family conversation notices');
    return staged.n;
  }
}
