import type { SmsFailureClass } from './sms';

/**
 * What an Aliyun SMS (dysmsapi 2017-05-25) error code means for a message (SmsFailureClass): the API's own codes
 * (Code of a SendSms / SendBatchSms answer) and the OpenAPI gateway's (HTTP 4xx/5xx: credentials, signature,
 * throttling). See help.aliyun.com/document_detail/101346 (国内消息API错误码).
 */

/** this account cannot send with this provider: balance, account state, credentials, sign, RAM rights, subscription */
const ACCOUNT = new Set([
  'isv.AMOUNT_NOT_ENOUGH',
  'isv.OUT_OF_SERVICE',
  'isv.ACCOUNT_ABNORMAL',
  'isv.ACCOUNT_NOT_EXISTS',
  'isv.PRODUCT_UN_SUBSCRIPT',
  'isv.PRODUCT_UNSUBSCRIBE',
  'isv.SMS_SIGNATURE_ILLEGAL',
  'isv.SMS_SIGN_ILLEGAL',
  'isv.SIGN_STATE_ILLEGAL',
  'isv.SMS_SIGNATURE_SCENE_ILLEGAL',
  'isv.EXTEND_CODE_ERROR',
  'isv.DENY_IP_RANGE',
  'isv.RAM_PERMISSION_DENY',
  'isp.RAM_PERMISSION_DENY',
  'SignatureDoesNotMatch',
  'IncompleteSignature',
  'InvalidAccessKeySecret',
]);

/** the provider's own trouble or its QPS throttling: the same request may pass a little later */
const TRANSIENT = new Set(['isp.SYSTEM_ERROR', 'isp.GATEWAY_ERROR', 'ServiceUnavailable', 'InternalError', 'ServiceTimeout', 'SignatureNonceUsed']);

/** codes of the gateway's credential families (InvalidAccessKeyId.NotFound, .Inactive; Forbidden.RAM, .AccessKeyDisabled…) */
const ACCOUNT_PREFIXES = ['InvalidAccessKeyId', 'InvalidSecurityToken', 'Forbidden'];

/**
 * The class of an Aliyun error code. Refusals of the message itself (the mobile's business limit, the day's quota, a bad
 * number, blacklist words, template variables, an unapproved template) are final; an unknown isv.* code is final too
 * (isv: the caller's request); anything else unknown (isp.*, gateway 5xx, network errors' codes) is transient.
 */
export function classifyAliyun(code: string): SmsFailureClass {
  if (ACCOUNT.has(code) || ACCOUNT_PREFIXES.some((p) => code === p || code.startsWith(`${p}.`))) return 'account';
  if (TRANSIENT.has(code) || code.startsWith('Throttling') || /^isv\.\w*FLOW_CONTROL\w*$/.test(code)) return 'transient';
  return code.startsWith('isv.') ? 'final' : 'transient';
}
