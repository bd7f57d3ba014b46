import { Controller, Get } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { mobile } from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { z } from 'zod';
import { Access } from '../../core/auth/access.decorator';
import { Input } from '../../core/http/input.decorator';

const OutboxQuery = z.strictObject({ mobile });

/** Development and test helpers. This controller is not even registered when NODE_ENV=production. */
@Controller('api/dev')
export class DevController {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The last messages the outbox SMS provider "sent" to a mobile, newest first, with the code of the newest. */
  @Get('sms-outbox')
  @Access('pub')
  async smsOutbox(@Input(OutboxQuery) q: z.infer<typeof OutboxQuery>) {
    const list: Array<{ id: number; mobile: string; template: string; content: string; params: Record<string, string>; created_at: Date }> =
      await this.db.query(
        `select id::int, mobile, template, content, params, created_at from sms_outbox where mobile = $1 order by id desc limit 10`,
        [q.mobile],
      );
    // the newest message that carries a code (alerts and notices go to the same mobiles)
    return { mobile: q.mobile, code: list.find((m) => m.params.code)?.params.code ?? null, list };
  }
}
