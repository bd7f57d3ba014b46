import { smsUnits } from '@wantuo/shared';
import { SmsGateway, type DeliveryReport, type GatewaySend, type SendOutcome } from './gateway';

/**
 * Development and test provider: a text is "delivered" the moment it is handed over; the full rendered text is what
 * the sms_outbox view shows (GET /api/dev/sms-outbox). No templates, no limits, no receipts to wait for.
 */
export class OutboxGateway extends SmsGateway {
  readonly name = 'outbox' as const;
  readonly batchSize = 1000;
  readonly paramMax = Number.POSITIVE_INFINITY;
  readonly reportAnswer = null;

  async send(req: GatewaySend): Promise<SendOutcome[]> {
    const units = smsUnits(req.content);
    return req.messages.map((m) => ({ id: m.id, ok: true, messageId: `outbox-${m.id}`, units, delivered: true }));
  }

  async poll(): Promise<DeliveryReport[]> {
    return [];
  }

  parseReport(): DeliveryReport[] {
    return [];
  }
}
