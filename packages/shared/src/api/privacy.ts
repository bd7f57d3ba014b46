import { FileAnswer, GET, POST, extraOf } from './define';
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

/** The access and meaning of this module's actions that actions.tsv does not list. */
const extra = extraOf('privacy');

/** The actions of module `privacy` (docs/modules/privacy.md). */
export const privacyActions = [
  GET(
    'privacyPolicies',
    PrivacyPoliciesQuery,
    PrivacyPolicies,
    extra(
      ['pub'],
      "the current privacy policy and children's personal-information rules (issue 37), in the caller's language with the platform's and the school's names filled in (the signed-in caller's school, or school_id on a public page)",
    ),
  ),
  GET(
    'privacyPolicyHistory',
    PrivacyPolicyHistoryQuery,
    PolicyHistoryAnswer,
    extra(['O'], 'platform operator reads every version of one document, newest first, both languages unfilled'),
  ),
  POST(
    'publishPrivacyPolicy',
    PublishPrivacyPolicyInput,
    PolicyVersion,
    extra(
      ['O'],
      "platform operator publishes a new version of the privacy policy or the children's rules (expected_version guards concurrent edits; earlier versions are kept); every guardian is asked to accept again",
    ),
  ),
  GET(
    'myConsents',
    EmptyInput,
    MyConsents,
    extra(
      ['P'],
      "the guardian's consents per child: the documents' versions accepted, photos, health notes; and whether they must accept before seeing any child's data",
    ),
  ),
  POST(
    'acceptPolicies',
    AcceptPoliciesInput,
    MyConsents,
    extra(
      ['P'],
      'guardian accepts the current versions they read for every child of theirs (a consent row per child with the versions, time, ip and user agent); refused when a newer version has been published since they read',
    ),
  ),
  POST(
    'setConsent',
    SetConsentInput,
    MyConsents,
    extra(
      ['P'],
      'guardian grants or withdraws the separate consent for photos or health notes of one child, or withdraws the documents; at once (a withdrawn health consent erases the stored note), appended to the consent history',
    ),
  ),
  GET(
    'childAccessLog',
    ChildAccessLogQuery,
    AccessLogAnswer,
    extra(
      ['A', 'P'],
      "who read or exported children's data (who, role, which children, what, when, from where), paged, newest first: the admin's whole school or one child, a guardian their own child",
    ),
  ),
  POST(
    'callGuardian',
    CallGuardianInput,
    CallGuardianAnswer,
    extra(
      ['T', 'H', 'A'],
      "staff about to call a child's guardian or pick-up person: the whole mobile (masked elsewhere outside their duty), logged as a call",
    ),
  ),
  GET(
    'childDataExport',
    ChildDataExportQuery,
    FileAnswer,
    extra(
      ['P', 'A'],
      "everything held about one child as a zip (a readable sheet per kind of data and the child's photos): a guardian their own child, the admin any child of the school; logged as an export",
    ),
  ),
  POST(
    'privacyRequest',
    PrivacyRequestInput,
    PrivacyRequestRow,
    extra(
      ['P'],
      "guardian asks the school to correct (saying what) or delete their child's personal data; due within the set days; one open request per kind and child",
    ),
  ),
  GET(
    'myPrivacyRequests',
    MyPrivacyRequestsQuery,
    PrivacyRequestsAnswer,
    extra(['P'], "the guardian's own correction and deletion requests, newest first, paged"),
  ),
  GET(
    'privacyRequests',
    PrivacyRequestsQuery,
    PrivacyRequestsAnswer,
    extra(['A'], "the school's correction and deletion requests, open ones first by due time, paged"),
  ),
  POST(
    'handlePrivacyRequest',
    HandlePrivacyRequestInput,
    PrivacyRequestRow,
    extra(
      ['A'],
      "admin completes or refuses a request with a note; completing a deletion erases or anonymises the child's personal data everywhere (money records kept with the child anonymised), once",
    ),
  ),
] as const;
