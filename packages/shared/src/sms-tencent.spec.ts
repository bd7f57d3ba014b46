import { classifyTencent, TENCENT_OK } from './sms-tencent';
import type { SmsFailureClass } from './sms';

describe('classifyTencent', () => {
  const table: Array<[string, SmsFailureClass]> = [
    // the provider's trouble and throttling of our calls
    ['InternalError.SendAndRecvFail', 'transient'],
    ['InternalError.Timeout', 'transient'],
    ['InternalError.OtherError', 'transient'],
    ['InternalError.SomethingNew', 'transient'],
    ['InternalError', 'transient'],
    ['RequestLimitExceeded', 'transient'],
    ['RequestLimitExceeded.IPLimitExceeded', 'transient'],
    // this account cannot send: the fallback provider takes it
    ['AuthFailure.SecretIdNotFound', 'account'],
    ['AuthFailure.SignatureFailure', 'account'],
    ['AuthFailure.SignatureExpire', 'account'],
    ['AuthFailure.InvalidAuthorization', 'account'],
    ['AuthFailure.SomethingNew', 'account'],
    ['UnauthorizedOperation.SmsSdkAppIdVerifyFail', 'account'],
    ['UnauthorizedOperation.SerivceSuspendDueToArrears', 'account'],
    ['UnauthorizedOperation.SomethingNew', 'account'],
    ['FailedOperation.InsufficientBalanceInSmsPackage', 'account'],
    ['FailedOperation.SignatureIncorrectOrUnapproved', 'account'],
    ['InvalidParameterValue.SdkAppIdNotExist', 'account'],
    ['LimitExceeded.AppDailyLimit', 'account'],
    ['LimitExceeded.AppMainlandChinaDailyLimit', 'account'],
    // the message itself
    ['LimitExceeded.PhoneNumberDailyLimit', 'final'],
    ['LimitExceeded.PhoneNumberThirtySecondLimit', 'final'],
    ['LimitExceeded.PhoneNumberOneHourLimit', 'final'],
    ['LimitExceeded.PhoneNumberSameContentDailyLimit', 'final'],
    ['InvalidParameterValue.IncorrectPhoneNumber', 'final'],
    ['FailedOperation.PhoneNumberInBlacklist', 'final'],
    ['FailedOperation.TemplateIncorrectOrUnapproved', 'final'],
    ['FailedOperation.TemplateUnapprovedOrNotExist', 'final'],
    ['FailedOperation.TemplateParamSetNotMatchApprovedTemplate', 'final'],
    ['InvalidParameterValue.TemplateParameterLengthLimit', 'final'],
    ['FailedOperation.MissingTemplateToModify', 'final'],
    ['FailedOperation.ContainSensitiveWord', 'final'],
    ['FailedOperation.JsonParseFail', 'final'],
    // unknown, outside the families: shown, not retried
    ['FailedOperation.SomethingNew', 'final'],
    ['LimitExceeded.SomethingNew', 'final'],
    ['Whatever', 'final'],
    ['', 'final'],
    // not a prefix match by accident, nor an inherited property
    ['InternalErrorish', 'final'],
    ['constructor', 'final'],
    ['toString', 'final'],
  ];

  it.each(table)('%s → %s', (code, cls) => {
    expect(classifyTencent(code)).toBe(cls);
  });

  it('refuses to classify "Ok" (a success)', () => {
    expect(() => classifyTencent(TENCENT_OK)).toThrow(TypeError);
  });
});
