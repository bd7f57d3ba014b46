import { EmptyAnswer, FileAnswer, GET, POST, extraOf } from './define';
import {
  AdjustBalanceResult,
  BalancePayResult,
  BillCheckRow,
  BillChecksAnswer,
  BillDifferenceRow,
  BillDifferencesAnswer,
  ParentPayOptions,
  SchoolSubMerchant,
  LedgerPage,
  PaymentState,
  PendingPayment,
  RefundResult,
  SchoolInfo,
  SchoolListAnswer,
  SchoolPaymentsAnswer,
  SchoolPrice,
} from '../answers/school';
import { EmptyInput } from '../schemas/auth';
import {
  AdjustBalanceInput,
  BalancePaySchoolInput,
  BillChecksQuery,
  BillDifferencesQuery,
  CheckBillInput,
  ResolveBillDifferenceInput,
  SchoolSubMerchantQuery,
  SetSchoolSubMerchantInput,
  ConsumeLogExportQuery,
  ConsumeLogQuery,
  EditSchoolInfoInput,
  PaymentStateQuery,
  RechargeInput,
  RefundSchoolPaymentInput,
  SchoolLedgerQuery,
  SchoolListQuery,
  SchoolPaymentsQuery,
  SetDealPwdInput,
  SetSchoolPriceInput,
  WechatPaySchoolInput,
} from '../schemas/school';

/** The access and meaning of this module's actions that actions.tsv does not list. */
const extra = extraOf('school');

/** The actions of module `school` (docs/modules/school.md). */
export const schoolActions = [
  GET('schoolInfo', EmptyInput, SchoolInfo),
  GET('getSchoolPrice', EmptyInput, SchoolPrice),
  GET('consumeLog', ConsumeLogQuery, LedgerPage),
  POST('recharge', RechargeInput, PendingPayment),
  POST('setDealPwd', SetDealPwdInput, EmptyAnswer),
  POST('wechatPaySchool', WechatPaySchoolInput, PendingPayment),
  POST('balancePaySchool', BalancePaySchoolInput, BalancePayResult),
  POST(
    'editSchoolInfo',
    EditSchoolInfoInput,
    SchoolInfo,
    extra(['A'], "the admin edits the school's contact details (contact name and mobile, city, address; optimistic concurrency on version)"),
  ),
  GET(
    'schoolList',
    SchoolListQuery,
    SchoolListAnswer,
    extra(
      ['O'],
      'platform operator lists schools with balance, service expiry and state, renewal price, students and staff, paged, searchable by name or phone',
    ),
  ),
  POST(
    'setSchoolPrice',
    SetSchoolPriceInput,
    SchoolPrice,
    extra(['O'], "platform operator sets a school's renewal price per term and per year (fen)"),
  ),
  POST(
    'adjustSchoolBalance',
    AdjustBalanceInput,
    AdjustBalanceResult,
    extra(
      ['O'],
      "platform operator credits or debits a school's balance with a required reason (an adjustment ledger entry; idempotent by request_id; never below zero)",
    ),
  ),
  GET('schoolLedger', SchoolLedgerQuery, LedgerPage, extra(['O'], "platform operator reads a school's ledger, newest first, paged")),
  GET(
    'schoolPayments',
    SchoolPaymentsQuery,
    SchoolPaymentsAnswer,
    extra(['O'], "platform operator lists a school's payments (WeChat and balance) with what was refunded, newest first, paged, filterable by state"),
  ),
  POST(
    'refundSchoolPayment',
    RefundSchoolPaymentInput,
    RefundResult,
    extra(
      ['O'],
      "platform operator refunds one of a school's paid payments with a required reason: WeChat payments through WeChat Pay, balance payments back to the balance; amount_fen omitted refunds what is left; idempotent by request_id; a refunded top-up is taken back from the balance (never below zero), a refunded renewal takes back its share of the period",
    ),
  ),
  GET(
    'paymentState',
    PaymentStateQuery,
    PaymentState,
    extra(
      ['A', 'P'],
      "the state of one of the school's payments by out_trade_no (pending, paid, closed, refunded): the payment dialog polls it; a pending WeChat payment is asked at the provider; a parent sees only the payments they started",
    ),
  ),
  GET(
    'consumeLogExport',
    ConsumeLogExportQuery,
    FileAnswer,
    extra(['A'], "download the school's ledger as .xlsx with the filters of consumeLog (type, from, to; school-local times, yuan)"),
  ),
  GET(
    'schoolSubMerchant',
    SchoolSubMerchantQuery,
    SchoolSubMerchant,
    extra(
      ['O', 'A'],
      "a school's WeChat Pay sub-merchant (特约商户号, issue 36): whether parents can pay it online, the current record and its history (the operator: any school by school_id; the admin: their own)",
    ),
  ),
  POST(
    'setSchoolSubMerchant',
    SetSchoolSubMerchantInput,
    SchoolSubMerchant,
    extra(
      ['O'],
      "platform operator records, changes or withdraws (sub_mchid null) the sub_mchid WeChat gave a school after its onboarding, and its own official account's sub_appid if any; the current record is ended and a new one added (history kept; expected_id guards concurrent changes); open payments and refunds keep the merchant they were made with",
    ),
  ),
  GET(
    'parentPayOptions',
    EmptyInput,
    ParentPayOptions,
    extra(
      ['P'],
      "whether the guardian's school takes online payments (it has a sub-merchant), and its name and contact phone to pay at the desk otherwise",
    ),
  ),
  GET(
    'billChecks',
    BillChecksQuery,
    BillChecksAnswer,
    extra(
      ['O'],
      "platform operator's daily reconciliations: each merchant's WeChat trade bill of a day against the payments and refunds recorded, paged, newest first",
    ),
  ),
  GET(
    'billDifferences',
    BillDifferencesQuery,
    BillDifferencesAnswer,
    extra(
      ['O'],
      'the differences the reconciliations found (a payment or refund WeChat has and we do not, or the reverse, or an amount that differs), paged, open ones first',
    ),
  ),
  POST(
    'resolveBillDifference',
    ResolveBillDifferenceInput,
    BillDifferenceRow,
    extra(
      ['O'],
      'platform operator marks a reconciliation difference resolved with what was done (who and when kept; a resolved one stays resolved)',
    ),
  ),
  POST(
    'checkBill',
    CheckBillInput,
    BillCheckRow,
    extra(
      ['O'],
      "platform operator reconciles one merchant's trade bill of one past day now (a school's sub-merchant, or the platform's own without school_id); differences found again are not listed twice",
    ),
  ),
] as const;
