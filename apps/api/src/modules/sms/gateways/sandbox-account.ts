import { SMS_KIND_NAMES, type SmsKind } from '@wantuo/shared';
import type { AliyunSmsConfig, SmsTemplates, TencentSmsConfig } from '../../../core/config/sms-config';

/**
 * The accounts of the local fake gateways (/api/dev/sms/aliyun, /api/dev/sms/tencent): what the fakes accept, and
 * what the API uses outside production when SMS_PROVIDER names a gateway without its account variables. The fakes
 * "approve" exactly these templates, with each kind's variables (SMS_KINDS).
 */
const templates = (first: number, prefix: string): Record<SmsKind, string> =>
  Object.fromEntries(SMS_KIND_NAMES.map((k, i) => [k, `${prefix}${first + i}`])) as Record<SmsKind, string>;

export const SANDBOX_ALIYUN: Omit<AliyunSmsConfig, 'endpoint'> & { templates: Record<SmsKind, string> } = {
  accessKeyId: 'LTAI5tSandboxWantuoDev01',
  accessKeySecret: 'sandboxAliyunSecretForLocalTests01',
  signName: '晚托平台',
  templates: templates(460_001, 'SMS_'),
};

export const SANDBOX_TENCENT: Omit<TencentSmsConfig, 'endpoint' | 'region'> & { templates: Record<SmsKind, string> } = {
  secretId: 'AKIDSandboxWantuoDevTencent0001',
  secretKey: 'sandboxTencentSecretKeyForTests1',
  sdkAppId: '1400900001',
  signName: '晚托平台',
  templates: templates(2_300_001, ''),
};

/** The kind an approved template code stands for at a fake, or undefined (an unapproved template). */
export function sandboxKindOf(all: SmsTemplates, code: string): SmsKind | undefined {
  return (Object.entries(all) as Array<[SmsKind, string]>).find(([, c]) => c === code)?.[0];
}
