import { Injectable, OnModuleInit } from '@nestjs/common';
import { JobRegistry } from '../../../core/jobs/job-registry';
import { SmsDelivery } from '../delivery.service';
import { SmsReports } from '../reports.service';
import { SmsTexts } from '../texts.service';

/**
 * The sms queue: `sms.send` hands batches of messages to their provider, `sms.fanout` writes a notice's texts to
 * many mobiles and their batches, `sms.poll` asks for receipts and re-queues lost messages, `sms.reports` applies
 * reports that came early.
 */
@Injectable()
export class SmsProcessor implements OnModuleInit {
  constructor(
    private readonly registry: JobRegistry,
    private readonly delivery: SmsDelivery,
    private readonly texts: SmsTexts,
    private readonly reports: SmsReports,
  ) {}

  onModuleInit(): void {
    this.registry.register('sms.send', ({ ids }) => this.delivery.send(ids));
    this.registry.register('sms.fanout', async ({ key, school_id, mobiles, template, params }) => {
      await this.texts.queue(mobiles.map((mobile) => ({ school_id, mobile, kind: template, params, key: `${key}-${mobile}` })));
    });
    this.registry.register('sms.poll', async () => {
      await this.reports.poll();
    });
    this.registry.register('sms.reports', ({ provider, reports }) => this.reports.applyLate(provider, reports));
  }
}
