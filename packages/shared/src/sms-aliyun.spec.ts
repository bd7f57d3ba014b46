import { smsNextStep } from './sms';
import { classifyAliyun } from './sms-aliyun';

describe('classifyAliyun', () => {
  it.each([
    // the provider's own trouble and throttling: again later, same provider
    ['isp.SYSTEM_ERROR', 'transient'],
    ['isp.GATEWAY_ERROR', 'transient'],
    ['Throttling', 'transient'],
    ['Throttling.User', 'transient'],
    ['Throttling.Api', 'transient'],
    ['isv.OUT_OF_FLOW_CONTROL', 'transient'],
    ['isv.FLOW_CONTROL', 'transient'],
    ['ServiceUnavailable', 'transient'],
    ['InternalError', 'transient'],
    ['SignatureNonceUsed', 'transient'],
    // network errors and unknown non-isv codes
    ['ECONNREFUSED', 'transient'],
    ['ReadTimeout', 'transient'],
    ['isp.SOMETHING_NEW', 'transient'],
    // this account cannot send: the fallback provider takes it
    ['InvalidAccessKeyId.NotFound', 'account'],
    ['InvalidAccessKeyId.Inactive', 'account'],
    ['InvalidAccessKeyId', 'account'],
    ['SignatureDoesNotMatch', 'account'],
    ['Forbidden.RAM', 'account'],
    ['Forbidden.AccessKeyDisabled', 'account'],
    ['isv.AMOUNT_NOT_ENOUGH', 'account'],
    ['isv.OUT_OF_SERVICE', 'account'],
    ['isv.ACCOUNT_ABNORMAL', 'account'],
    ['isv.ACCOUNT_NOT_EXISTS', 'account'],
    ['isv.PRODUCT_UN_SUBSCRIPT', 'account'],
    ['isv.SMS_SIGNATURE_ILLEGAL', 'account'],
    ['isv.SMS_SIGN_ILLEGAL', 'account'],
    ['isv.SMS_SIGNATURE_SCENE_ILLEGAL', 'account'],
    ['isv.RAM_PERMISSION_DENY', 'account'],
    ['isp.RAM_PERMISSION_DENY', 'account'],
    // the message itself is refused
    ['isv.BUSINESS_LIMIT_CONTROL', 'final'],
    ['isv.DAY_LIMIT_CONTROL', 'final'],
    ['isv.MONTH_LIMIT_CONTROL', 'final'],
    ['isv.MOBILE_NUMBER_ILLEGAL', 'final'],
    ['isv.MOBILE_COUNT_OVER_LIMIT', 'final'],
    ['isv.BLACK_KEY_CONTROL_LIMIT', 'final'],
    ['isv.PARAM_LENGTH_LIMIT', 'final'],
    ['isv.TEMPLATE_MISSING_PARAMETERS', 'final'],
    ['isv.SMS_TEMPLATE_ILLEGAL', 'final'],
    ['isv.TEMPLATE_PARAMS_ILLEGAL', 'final'],
    ['isv.INVALID_PARAMETERS', 'final'],
    ['isv.INVALID_JSON_PARAM', 'final'],
    ['isv.SMS_CONTENT_ILLEGAL', 'final'],
    ['isv.SOMETHING_NEW', 'final'],
  ] as const)('%s → %s', (code, cls) => expect(classifyAliyun(code)).toBe(cls));

  it('a per-mobile limit fails the message; a balance refusal goes to the fallback once', () => {
    const route = { provider: 'aliyun' as const, fallback: 'tencent' as const, handedOver: false };
    expect(smsNextStep(classifyAliyun('isv.BUSINESS_LIMIT_CONTROL'), 1, route)).toEqual({ do: 'fail' });
    expect(smsNextStep(classifyAliyun('isv.AMOUNT_NOT_ENOUGH'), 1, route)).toEqual({ do: 'fallback', provider: 'tencent' });
    expect(smsNextStep(classifyAliyun('isp.SYSTEM_ERROR'), 1, route)).toEqual({ do: 'retry' });
  });
});
