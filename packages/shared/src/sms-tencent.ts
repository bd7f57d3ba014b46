import type { SmsFailureClass } from './sms';

/**
 * Tencent Cloud SMS (API 3.0, 2021-01-11): what its error codes mean for a message (SmsFailureClass). The codes are
 * the request-level Response.Error.Code and the per-number SendStatus.Code of SendSms; "Ok" is a success, not a
 * failure. Source: the product's error code list (cloud.tencent.com/document/api/382/59177, and the SDKs' errors.go) and API 3.0's common
 * error codes (382/52075).
 */

/** SendStatus.Code of a number Tencent accepted. */
export const TENCENT_OK = 'Ok';

/** Codes by class; a code not listed falls back on its prefix (TENCENT_PREFIX_CLASS), then on `final`. */
const TENCENT_CODES: Record<string, SmsFailureClass> = {
  // the provider's own trouble or throttling of our calls: the same request may pass later
  RequestLimitExceeded: 'transient',
  'RequestLimitExceeded.GlobalRegionUinLimitExceeded': 'transient',
  'RequestLimitExceeded.IPLimitExceeded': 'transient',
  'RequestLimitExceeded.UinLimitExceeded': 'transient',
  // this account cannot send (credentials, app, balance, sign, arrears, the app's own daily cap): the fallback can
  'AuthFailure.InvalidAuthorization': 'account',
  'AuthFailure.InvalidSecretId': 'account',
  'AuthFailure.MFAFailure': 'account',
  'AuthFailure.SecretIdNotFound': 'account',
  // the API's clock: our server's time is off by more than five minutes, nothing a retry of the same message fixes
  'AuthFailure.SignatureExpire': 'account',
  'AuthFailure.SignatureFailure': 'account',
  'AuthFailure.TokenFailure': 'account',
  'AuthFailure.UnauthorizedOperation': 'account',
  'FailedOperation.InsufficientBalanceInSmsPackage': 'account',
  'FailedOperation.SignatureIncorrectOrUnapproved': 'account',
  'FailedOperation.MissingSignatureList': 'account',
  'FailedOperation.NotEnterpriseCertification': 'account',
  'InvalidParameterValue.SdkAppIdNotExist': 'account',
  'InvalidParameter.AppidAndBizId': 'account',
  'InvalidParameterValue.SignNameLengthTooLong': 'account',
  'UnauthorizedOperation.SmsSdkAppIdVerifyFail': 'account',
  'UnauthorizedOperation.SdkAppIdIsDisabled': 'account',
  'UnauthorizedOperation.SerivceSuspendDueToArrears': 'account',
  'UnauthorizedOperation.ServiceSuspendDueToArrears': 'account',
  'UnauthorizedOperation.RequestIpNotInWhitelist': 'account',
  'UnauthorizedOperation.RequestPermissionDeny': 'account',
  'UnauthorizedOperation.IndividualUserMarketingSmsPermissionDeny': 'account',
  // the app's daily total set in the console (and the international one): this provider is done for the day
  'LimitExceeded.AppDailyLimit': 'account',
  'LimitExceeded.AppMainlandChinaDailyLimit': 'account',
  'LimitExceeded.AppGlobalDailyLimit': 'account',
  'LimitExceeded.DailyLimit': 'account',
  // the message itself: the mobile's frequency limits, a bad or blacklisted number, its content or variables
  'LimitExceeded.PhoneNumberDailyLimit': 'final',
  'LimitExceeded.PhoneNumberOneHourLimit': 'final',
  'LimitExceeded.PhoneNumberThirtySecondLimit': 'final',
  'LimitExceeded.PhoneNumberSameContentDailyLimit': 'final',
  'LimitExceeded.DeliveryFrequencyLimit': 'final',
  'LimitExceeded.PhoneNumberCountLimit': 'final',
  'InvalidParameterValue.IncorrectPhoneNumber': 'final',
  'FailedOperation.PhoneNumberParseFail': 'final',
  'FailedOperation.PhoneNumberInBlacklist': 'final',
  // an unapproved template, or variables that do not fit it, is refused for every retry: shown, not handed over
  'FailedOperation.TemplateIncorrectOrUnapproved': 'final',
  'FailedOperation.TemplateUnapprovedOrNotExist': 'final',
  'FailedOperation.TemplateIdNotExist': 'final',
  'FailedOperation.TemplateParamSetNotMatchApprovedTemplate': 'final',
  'FailedOperation.MissingTemplateList': 'final',
  'FailedOperation.MissingTemplateToModify': 'final',
  'InvalidParameterValue.TemplateParameterLengthLimit': 'final',
  'InvalidParameterValue.TemplateParameterFormatError': 'final',
  'InvalidParameterValue.ProhibitedUseUrlInTemplateParameter': 'final',
  'InvalidParameterValue.ContentLengthLimit': 'final',
  // sensitive words are in the text: the other provider's review would refuse the same words
  'FailedOperation.ContainSensitiveWord': 'final',
  'InvalidParameter.DirtyWordFound': 'final',
  // a request the API cannot read is our bug: retrying the same bytes gives the same answer
  'FailedOperation.JsonParseFail': 'final',
  'FailedOperation.FailResolvePacket': 'final',
  'FailedOperation.MarketingSendTimeConstraint': 'final',
  'MissingParameter.EmptyPhoneNumberSet': 'final',
  'UnsupportedOperation.ContainDomesticAndInternationalPhoneNumber': 'final',
};

/** Families whose unlisted members share a class: any InternalError is the provider's (InternalError.Timeout, …). */
const TENCENT_PREFIX_CLASS: Array<[string, SmsFailureClass]> = [
  ['InternalError', 'transient'],
  ['RequestLimitExceeded', 'transient'],
  ['AuthFailure', 'account'],
  ['UnauthorizedOperation', 'account'],
];

/**
 * The class of a Tencent SMS error code (request-level or per-number). Unknown codes: InternalError.* (and the
 * other families above) by their family, anything else `final` (a code never seen is shown, not retried blindly).
 */
export function classifyTencent(code: string): SmsFailureClass {
  if (code === TENCENT_OK) throw new TypeError('classifyTencent: "Ok" is a success, not a failure');
  const known = TENCENT_CODES[code];
  if (known && Object.hasOwn(TENCENT_CODES, code)) return known;
  for (const [family, cls] of TENCENT_PREFIX_CLASS) if (code === family || code.startsWith(`${family}.`)) return cls;
  return 'final';
}
