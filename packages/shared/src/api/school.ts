import { GET, POST, Pending } from './define';
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
  GET('schoolInfo', EmptyInput, Pending),
  GET('getSchoolPrice', EmptyInput, Pending),
  GET('consumeLog', ConsumeLogQuery, Pending),
  POST('recharge', RechargeInput, Pending),
  POST('setDealPwd', SetDealPwdInput, Pending),
  POST('wechatPaySchool', WechatPaySchoolInput, Pending),
  POST('balancePaySchool', BalancePaySchoolInput, Pending),
  POST('editSchoolInfo', EditSchoolInfoInput, Pending),
  GET('schoolList', SchoolListQuery, Pending),
  POST('setSchoolPrice', SetSchoolPriceInput, Pending),
  POST('adjustSchoolBalance', AdjustBalanceInput, Pending),
  GET('schoolLedger', SchoolLedgerQuery, Pending),
  GET('schoolPayments', SchoolPaymentsQuery, Pending),
  POST('refundSchoolPayment', RefundSchoolPaymentInput, Pending),
  GET('paymentState', PaymentStateQuery, Pending),
  GET('consumeLogExport', ConsumeLogExportQuery, Pending),
] as const;
