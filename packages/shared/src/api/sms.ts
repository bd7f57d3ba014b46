import { GET } from './define';
import { SmsMessagePage, SmsOverview, SmsUsagePage } from '../answers/sms';
import { EmptyInput } from '../schemas/auth';
import { SmsMessagesQuery, SmsUsageQuery } from '../schemas/sms';

/** The actions of module `sms` (docs/modules/sms.md). */
export const smsActions = [
  GET('smsOverview', EmptyInput, SmsOverview),
  GET('smsUsage', SmsUsageQuery, SmsUsagePage),
  GET('smsMessages', SmsMessagesQuery, SmsMessagePage),
] as const;
