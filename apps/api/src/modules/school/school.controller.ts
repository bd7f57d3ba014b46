import { Controller, Res } from '@nestjs/common';
import type { Response } from 'express';
import {
  AdjustBalanceInput,
  BalancePaySchoolInput,
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
  SchoolPaymentsQuery,
  WechatPaySchoolInput,
} from '@wantuo/shared';
import { CurrentUser } from '../../core/auth/current-user.decorator';
import { Action } from '../../core/http/action.decorator';
import { Input } from '../../core/http/input.decorator';
import { sendFile } from '../../core/http/send-file';
import type { SessionUser } from '../../core/http/request-context';
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
