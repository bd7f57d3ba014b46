import { FileAnswer, GET, POST } from './define';
import {
  AccessLogAnswer,
  CallGuardianAnswer,
  MyConsents,
  PolicyHistoryAnswer,
  PolicyVersion,
  PrivacyPolicies,
  PrivacyRequestRow,
  PrivacyRequestsAnswer,
} from '../answers/privacy';
import { EmptyInput } from '../schemas/auth';
import {
  AcceptPoliciesInput,
  CallGuardianInput,
  ChildAccessLogQuery,
  ChildDataExportQuery,
  HandlePrivacyRequestInput,
  MyPrivacyRequestsQuery,
  PrivacyPoliciesQuery,
  PrivacyPolicyHistoryQuery,
  PrivacyRequestInput,
  PrivacyRequestsQuery,
  PublishPrivacyPolicyInput,
  SetConsentInput,
} from '../schemas/privacy';

/** The actions of module `privacy` (docs/modules/privacy.md). */
export const privacyActions = [
  GET('privacyPolicies', PrivacyPoliciesQuery, PrivacyPolicies),
  GET('privacyPolicyHistory', PrivacyPolicyHistoryQuery, PolicyHistoryAnswer),
  POST('publishPrivacyPolicy', PublishPrivacyPolicyInput, PolicyVersion),
  GET('myConsents', EmptyInput, MyConsents),
  POST('acceptPolicies', AcceptPoliciesInput, MyConsents),
  POST('setConsent', SetConsentInput, MyConsents),
  GET('childAccessLog', ChildAccessLogQuery, AccessLogAnswer),
  POST('callGuardian', CallGuardianInput, CallGuardianAnswer),
  GET('childDataExport', ChildDataExportQuery, FileAnswer),
  POST('privacyRequest', PrivacyRequestInput, PrivacyRequestRow),
  GET('myPrivacyRequests', MyPrivacyRequestsQuery, PrivacyRequestsAnswer),
  GET('privacyRequests', PrivacyRequestsQuery, PrivacyRequestsAnswer),
  POST('handlePrivacyRequest', HandlePrivacyRequestInput, PrivacyRequestRow),
] as const;
