import { EmptyAnswer, FileAnswer, GET, POST } from './define';
import {
  AdjustBalanceResult,
  BalancePayResult,
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

/** The actions of module `school` (docs/modules/school.md). */
export const schoolActions = [
  GET('schoolInfo', EmptyInput, SchoolInfo),
  GET('getSchoolPrice', EmptyInput, SchoolPrice),
  GET('consumeLog', ConsumeLogQuery, LedgerPage),
  POST('recharge', RechargeInput, PendingPayment),
  POST('setDealPwd', SetDealPwdInput, EmptyAnswer),
  POST('wechatPaySchool', WechatPaySchoolInput, PendingPayment),
  POST('balancePaySchool', BalancePaySchoolInput, BalancePayResult),
  POST('editSchoolInfo', EditSchoolInfoInput, SchoolInfo),
  GET('schoolList', SchoolListQuery, SchoolListAnswer),
  POST('setSchoolPrice', SetSchoolPriceInput, SchoolPrice),
  POST('adjustSchoolBalance', AdjustBalanceInput, AdjustBalanceResult),
  GET('schoolLedger', SchoolLedgerQuery, LedgerPage),
  GET('schoolPayments', SchoolPaymentsQuery, SchoolPaymentsAnswer),
  POST('refundSchoolPayment', RefundSchoolPaymentInput, RefundResult),
  GET('paymentState', PaymentStateQuery, PaymentState),
  GET('consumeLogExport', ConsumeLogExportQuery, FileAnswer),
] as const;
