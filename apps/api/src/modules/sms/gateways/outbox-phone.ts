import { Inject, Injectable } from '@nestjs/common';
import type { SmsKind } from '@wantuo/shared';
import type { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../../../core/config/config';
import { REDIS } from '../../../core/redis/redis.provider';

/** A text as the outbox's "phone" received it: our message id, the kind, its variables (the code too) and the full text. */
export interface PhoneText {
  id: number;
  mobile: string;
  kind: SmsKind;
  params: Record<string, string>;
  content: string;
  at: string;
}

/** Texts kept per mobile, and for how long. */
const PER_MOBILE = 50;
const KEEP_SECONDS = 24 * 3600;

/**
 * The development outbox's phone (outside production only): what the outbox delivered, kept where the sender put it
 * rather than in the database (sms_messages keeps a code's text masked once sent). In Redis under the queue prefix
 * when there is one (the worker delivers, the API's GET /api/dev/sms-outbox reads), else in this process's memory
 * (without Redis the jobs run in the API itself). Bounded: the last 50 texts of a mobile, for a day.
 */
@Injectable()
export class OutboxPhone {
  private readonly memory = new Map<string, PhoneText[]>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(REDIS) private readonly redis: Redis | null,
  ) {}

  private key(mobile: string): string {
    return `${this.config.queuePrefix}:sms-phone:${mobile}`;
  }

  /** Keeps delivered texts (nothing in production: there the outbox delivers to no one). */
  async receive(texts: readonly PhoneText[]): Promise<void> {
    if (!this.config.sms.fakes || !texts.length) return;
    if (this.redis) {
      const multi = this.redis.multi();
      for (const t of texts) {
        const key = this.key(t.mobile);
        multi
          .lpush(key, JSON.stringify(t))
          .ltrim(key, 0, PER_MOBILE - 1)
          .expire(key, KEEP_SECONDS);
      }
      await multi.exec();
      return;
    }
    for (const t of texts) {
      const list = [t, ...(this.memory.get(t.mobile) ?? [])].slice(0, PER_MOBILE);
      this.memory.set(t.mobile, list);
    }
  }

  /** The texts a mobile received, newest first. */
  async texts(mobile: string): Promise<PhoneText[]> {
    if (!this.redis) return this.memory.get(mobile) ?? [];
    return (await this.redis.lrange(this.key(mobile), 0, PER_MOBILE - 1)).map((s) => JSON.parse(s) as PhoneText);
  }
}
