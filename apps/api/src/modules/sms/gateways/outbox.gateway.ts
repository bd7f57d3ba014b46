import { smsUnits } from '@wantuo/shared';
import { SmsGateway, type DeliveryReport, type GatewaySend, type ProviderRecord, type SendOutcome } from './gateway';
import type { OutboxPhone } from './outbox-phone';

/**
 * Development and test provider: a text is "delivered" the moment it is handed over, to the outbox's phone
 * (OutboxPhone: what GET /api/dev/sms-outbox reads the codes from); the sms_outbox view shows the rows, a code's masked.
 * No templates, no limits, no receipts to wait for.
 */
export class OutboxGateway extends SmsGateway {
  readonly name = 'outbox' as const;
  readonly batchSize = 1000;
  readonly paramMax = Number.POSITIVE_INFINITY;
  readonly reportAnswer = null;

  constructor(private readonly phone: OutboxPhone) {
    super();
  }

  async send(req: GatewaySend): Promise<SendOutcome[]> {
    const units = smsUnits(req.content);
    const at = new Date().toISOString();
    await this.phone.receive(req.messages.map((m) => ({ id: m.id, mobile: m.mobile, kind: req.kind, params: req.params, content: req.content, at })));
    return req.messages.map((m) => ({ id: m.id, ok: true, messageId: `outbox-${m.id}`, units, delivered: true }));
  }

  async poll(): Promise<DeliveryReport[]> {
    return [];
  }

  /** The outbox keeps no record to ask: a text whose fate is unknown is delivered again (to the development phone). */
  async records(): Promise<ProviderRecord[]> {
    return [];
  }

  parseReport(): DeliveryReport[] {
    return [];
  }
}
