import { Injectable, OnModuleInit } from '@nestjs/common';
import { JobRegistry } from '../../../core/jobs/job-registry';
import { renderSms, SmsProvider } from '../sms-provider';

/** Delivers queued text messages through the configured provider. */
@Injectable()
export class SmsProcessor implements OnModuleInit {
  constructor(
    private readonly registry: JobRegistry,
    private readonly provider: SmsProvider,
  ) {}

  onModuleInit(): void {
    this.registry.register('sms.send', async ({ mobile, template, params }) => {
      await this.provider.send({ mobile, template, params, content: renderSms(template, params) });
    });
  }
}
