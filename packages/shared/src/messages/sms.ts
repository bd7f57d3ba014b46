import type { Bilingual } from './bilingual';

/** The SMS consoles (sms.v.*). The SMS-code messages (sms.too_soon, …) live with sign-in in auth.ts. */
export const smsMessages = {
  'sms.v.day_invalid': { zh: '日期格式需为 YYYY-MM-DD', en: 'A date looks like YYYY-MM-DD' },
  'sms.v.range_invalid': { zh: '结束日期不能早于开始日期', en: 'The end date cannot be before the start date' },
  'sms.v.range_too_long': { zh: '日期范围最多 {max} 天', en: 'The date range is at most {max} days' },
  'sms.v.school_invalid': { zh: '机构 ID 需为正整数', en: 'The school ID is a positive whole number' },
  'sms.v.state_invalid': {
    zh: '状态只能是 queued、sending、sent、delivered 或 failed',
    en: 'The state is queued, sending, sent, delivered or failed',
  },
  'sms.v.kind_invalid': { zh: '未知的短信类型', en: 'Unknown message kind' },
  'sms.v.provider_invalid': { zh: '短信通道只能是 aliyun、tencent 或 outbox', en: 'The provider is aliyun, tencent or outbox' },
  'sms.v.mobile_invalid': { zh: '手机号筛选需为 3-11 位数字', en: 'The mobile filter is 3 to 11 digits' },
} satisfies Record<string, Bilingual>;
