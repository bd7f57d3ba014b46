import { GET, extraOf } from './define';
import { SmsMessagePage, SmsOverview, SmsUsagePage } from '../answers/sms';
import { EmptyInput } from '../schemas/auth';
import { SmsMessagesQuery, SmsUsageQuery } from '../schemas/sms';

/** The access and meaning of this module's actions that actions.tsv does not list. */
const extra = extraOf('sms');

/** The actions of module `sms` (docs/modules/sms.md). */
export const smsActions = [
  GET(
    'smsOverview',
    EmptyInput,
    SmsOverview,
    extra(
      ['O'],
      "platform operator's view of the SMS gateways: the provider and its fallback, each gateway's template per message kind (which have none), the report callback paths, today's counts",
    ),
  ),
  GET(
    'smsUsage',
    SmsUsageQuery,
    SmsUsagePage,
    extra(
      ['O', 'A'],
      'texts per school and school-local day (sent, delivered, failed, waiting, units), paged, newest first, with the totals of the range; the operator sees every school (or one), an admin their own',
    ),
  ),
  GET(
    'smsMessages',
    SmsMessagesQuery,
    SmsMessagePage,
    extra(
      ['O', 'A'],
      "the texts themselves, paged, newest first, by day range, state, kind, provider and mobile: their provider, template, state and the provider's code when refused; the operator every school's (or one), an admin their own",
    ),
  ),
] as const;
