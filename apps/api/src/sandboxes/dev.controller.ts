import { Controller, Get } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isSmsKind, mobile, SMS_CODE_MASK, type SmsKind } from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { z } from 'zod';
import { Access } from '../core/auth/access.decorator';
import { Input } from '../core/http/input.decorator';
import { OutboxPhone } from '../modules/sms/gateways/outbox-phone';
import { SANDBOX_ALIYUN, SANDBOX_TENCENT, sandboxKindOf } from '../modules/sms/gateways/sandbox-account';
import { renderSms } from '../modules/sms/render';
import { AliyunFake } from './sms-fake/aliyun-fake.service';
import { TencentFake } from './sms-fake/tencent-fake';

const OutboxQuery = z.strictObject({ mobile });

/** Development and test helpers. This controller is not even registered when NODE_ENV=production. */
@Controller('api/dev')
export class DevController {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly phone: OutboxPhone,
    private readonly aliyun: AliyunFake,
    private readonly tencent: TencentFake,
  ) {}

  /**
   * The last texts handed to a provider for a mobile, newest first (the sms_outbox view, where a sent code is masked),
   * with the code of the newest code text. The codes are read where they were delivered, "the phone": the outbox's
   * (OutboxPhone) or the fake gateway's (AliyunFake, TencentFake: by our message id in OutId / SessionContext).
   */
  @Get('sms-outbox')
  @Access('pub')
  async smsOutbox(@Input(OutboxQuery) q: z.infer<typeof OutboxQuery>) {
    const rows: Array<{ id: number; mobile: string; template: string; content: string; params: Record<string, string>; created_at: Date }> =
      await this.db.query(
        `select id::int, mobile, template, content, params, created_at from sms_outbox where mobile = $1 order by id desc limit 10`,
        [q.mobile],
      );
    const codes = await this.codesAtPhone(q.mobile);
    const list = rows.map((m) => {
      const code = codes.get(m.id);
      if (!code || m.params.code !== SMS_CODE_MASK || !isSmsKind(m.template)) return m;
      const params = { ...m.params, code };
      return { ...m, params, content: renderSms(m.template, params) };
    });
    // the newest message that carries a code (alerts and notices go to the same mobiles); null when its phone lost it
    const code = list.find((m) => m.params.code)?.params.code;
    return { mobile: q.mobile, code: code && code !== SMS_CODE_MASK ? code : null, list };
  }

  /** The codes a mobile received, by our message id. */
  private async codesAtPhone(to: string): Promise<Map<number, string>> {
    const codes = new Map<number, string>();
    for (const t of await this.phone.texts(to)) if (t.params.code) codes.set(t.id, t.params.code);
    const atFake = (kind: SmsKind | undefined, ref: string, code: string | undefined) => {
      if (kind && code && /^\d+$/.test(ref)) codes.set(Number(ref), code);
    };
    for (const m of this.aliyun.messages(to, 50))
      atFake(sandboxKindOf(SANDBOX_ALIYUN.templates, m.templateCode), m.ref, (m.params as Record<string, string>).code);
    for (const m of this.tencent.messages(to, 50)) atFake(sandboxKindOf(SANDBOX_TENCENT.templates, m.templateCode), m.ref, (m.params as string[])[0]);
    return codes;
  }
}
