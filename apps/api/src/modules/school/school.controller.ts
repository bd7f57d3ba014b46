import { Controller, Res } from '@nestjs/common';
import type { Response } from 'express';
import {
  AdjustBalanceInput,
  BalancePaySchoolInput,
  BillChecksQuery,
  BillDifferencesQuery,
  CheckBillInput,
  ConsumeLogExportQuery,
  ConsumeLogQuery,
  EditSchoolInfoInput,
  SchoolLedgerQuery,
  SchoolListQuery,
  SetDealPwdInput,
  SetSchoolPriceInput,
  PaymentStateQuery,
  RechargeInput,
  RefundSchoolPaymentInput,
  ResolveBillDifferenceInput,
  SchoolPaymentsQuery,
  SchoolSubMerchantQuery,
  SetSchoolSubMerchantInput,
  WechatPaySchoolInput,
} from '@wantuo/shared';
import { CurrentUser } from '../../core/auth/current-user.decorator';
import { Action } from '../../core/http/action.decorator';
import { Input } from '../../core/http/input.decorator';
import { sendFile } from '../../core/http/send-file';
import type { SessionUser } from '../../core/http/request-context';
import { ReconciliationService } from '../payments/reconciliation/reconciliation.service';
import { SubMerchantsService } from '../payments/sub-merchants.service';
import { OperatorSchoolsService } from './operator-schools.service';
import { SchoolService } from './school.service';

/** The institution admin's school account (module `school` of actions.tsv). */
@Controller('api/index')
export class SchoolController {
  constructor(private readonly school: SchoolService) {}

  @Action('GET', 'schoolInfo')
  info(@Input() _: unknown, @CurrentUser() user: SessionUser) {
    return this.school.info(user);
  }

  @Action('POST', 'editSchoolInfo')
  edit(@Input() input: EditSchoolInfoInput, @CurrentUser() user: SessionUser) {
    return this.school.edit(user, input);
  }

  @Action('GET', 'getSchoolPrice')
  price(@Input() _: unknown, @CurrentUser() user: SessionUser) {
    return this.school.price(user);
  }

  @Action('GET', 'consumeLog')
  consumeLog(@Input() q: ConsumeLogQuery, @CurrentUser() user: SessionUser) {
    return this.school.consumeLog(user, q);
  }

  @Action('GET', 'consumeLogExport')
  async consumeLogExport(@Input() q: ConsumeLogExportQuery, @CurrentUser() user: SessionUser, @Res() res: Response) {
    sendFile(res, await this.school.consumeLogExport(user, q));
  }

  @Action('POST', 'setDealPwd')
  setDealPwd(@Input() input: SetDealPwdInput, @CurrentUser() user: SessionUser) {
    return this.school.setDealPwd(user, input);
  }

  @Action('POST', 'recharge')
  recharge(@Input() input: RechargeInput, @CurrentUser() user: SessionUser) {
    return this.school.recharge(user, input);
  }

  @Action('POST', 'wechatPaySchool')
  wechatPay(@Input() input: WechatPaySchoolInput, @CurrentUser() user: SessionUser) {
    return this.school.wechatPay(user, input);
  }

  @Action('GET', 'paymentState')
  paymentState(@Input() q: PaymentStateQuery, @CurrentUser() user: SessionUser) {
    return this.school.paymentState(user, q);
  }

  @Action('POST', 'balancePaySchool')
  balancePay(@Input() input: BalancePaySchoolInput, @CurrentUser() user: SessionUser) {
    return this.school.balancePay(user, input);
  }
}

/** The platform operator's side of schools (extra actions). */
@Controller('api/index')
export class OperatorSchoolsController {
  constructor(private readonly schools: OperatorSchoolsService) {}

  @Action('GET', 'schoolList')
  list(@Input() q: SchoolListQuery) {
    return this.schools.list(q);
  }

  @Action('POST', 'setSchoolPrice')
  setPrice(@Input() input: SetSchoolPriceInput) {
    return this.schools.setPrice(input);
  }

  @Action('POST', 'adjustSchoolBalance')
  adjust(@Input() input: AdjustBalanceInput, @CurrentUser() user: SessionUser) {
    return this.schools.adjust(user, input);
  }

  @Action('GET', 'schoolLedger')
  ledger(@Input() q: SchoolLedgerQuery) {
    return this.schools.ledger(q);
  }

  @Action('GET', 'schoolPayments')
  payments(@Input() q: SchoolPaymentsQuery) {
    return this.schools.payments(q);
  }

  @Action('POST', 'refundSchoolPayment')
  refund(@Input() input: RefundSchoolPaymentInput, @CurrentUser() user: SessionUser) {
    return this.schools.refund(user, input);
  }
}

/**
 * Who receives the school's money (design.md §5b2): its WeChat Pay sub-merchant, recorded by the operator and read by
 * the admin and the guardians' pay pages; and the daily reconciliation of every merchant's trade bill (extra actions).
 */
@Controller('api/index')
export class SchoolMerchantController {
  constructor(
    private readonly merchants: SubMerchantsService,
    private readonly reconciliation: ReconciliationService,
  ) {}

  @Action('GET', 'schoolSubMerchant')
  subMerchant(@Input() q: SchoolSubMerchantQuery, @CurrentUser() user: SessionUser) {
    return this.merchants.state(user, q);
  }

  @Action('POST', 'setSchoolSubMerchant')
  setSubMerchant(@Input() input: SetSchoolSubMerchantInput, @CurrentUser() user: SessionUser) {
    return this.merchants.set(user, input);
  }

  @Action('GET', 'parentPayOptions')
  payOptions(@Input() _: unknown, @CurrentUser() user: SessionUser) {
    return this.merchants.payOptions(user);
  }

  @Action('GET', 'billChecks')
  billChecks(@Input() q: BillChecksQuery) {
    return this.reconciliation.checks(q);
  }

  @Action('GET', 'billDifferences')
  billDifferences(@Input() q: BillDifferencesQuery) {
    return this.reconciliation.differences(q);
  }

  @Action('POST', 'resolveBillDifference')
  resolve(@Input() input: ResolveBillDifferenceInput, @CurrentUser() user: SessionUser) {
    return this.reconciliation.resolve(user, input);
  }

  @Action('POST', 'checkBill')
  checkBill(@Input() input: CheckBillInput) {
    return this.reconciliation.checkNow(input);
  }
}
