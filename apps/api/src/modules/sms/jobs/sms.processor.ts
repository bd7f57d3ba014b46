import { Injectable, OnModuleInit } from '@nestjs/common';
import { JobRegistry } from '../../../core/jobs/job-registry';
import { JobsService } from '../../../core/jobs/jobs.service';
import { renderSms, SmsProvider } from '../sms-provider';
import { fanOut } from './sms-fanout';

/** Delivers queued text messages through the configured provider; fans a text to many mobiles out into single sends. */
@Injectable()
export class SmsProcessor implements OnModuleInit {
  constructor(
    private readonly registry: JobRegistry,
    private readonly provider: SmsProvider,
    private readonly jobs: JobsService,
  ) {}

  onModuleInit(): void {
    this.registry.register('sms.send', async ({ mobile, template, params }) => {
      await this.provider.send({ mobile, template, params, content: renderSms(template, params) });
    });
    this.registry.register('sms.fanout', async (data) => {
      await fanOut(this.jobs, data);
    });
  }
}
