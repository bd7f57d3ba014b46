import { Controller, Get, Post, Res } from '@nestjs/common';
import type { Response } from 'express';
import {
  AdjustBalanceInput,
  BalancePaySchoolInput,
  ConsumeLogExportQuery,
  ConsumeLogQuery,
  EditSchoolInfoInput,
  EmptyInput,
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
import { Input } from '../../core/http/input.decorator';
import { sendFile } from '../../core/http/send-file';
import type { SessionUser } from '../../core/http/request-context';
import { OperatorSchoolsService } from './operator-schools.service';
import { SchoolService } from './school.service';

/** The institution admin's school account (module `school` of actions.tsv). */
@Controller('api/index')
export class SchoolController {
  constructor(private readonly school: SchoolService) {}

  @Get('schoolInfo')
  info(@Input(EmptyInput) _: unknown, @CurrentUser() user: SessionUser) {
    return this.school.info(user);
  }

  @Post('editSchoolInfo')
  edit(@Input(EditSchoolInfoInput) input: EditSchoolInfoInput, @CurrentUser() user: SessionUser) {
    return this.school.edit(user, input);
  }

  @Get('getSchoolPrice')
  price(@Input(EmptyInput) _: unknown, @CurrentUser() user: SessionUser) {
    return this.school.price(user);
  }

  @Get('consumeLog')
  consumeLog(@Input(ConsumeLogQuery) q: ConsumeLogQuery, @CurrentUser() user: SessionUser) {
    return this.school.consumeLog(user, q);
  }

  @Get('consumeLogExport')
  async consumeLogExport(@Input(ConsumeLogExportQuery) q: ConsumeLogExportQuery, @CurrentUser() user: SessionUser, @Res() res: Response) {
    sendFile(res, await this.school.consumeLogExport(user, q));
  }

  @Post('setDealPwd')
  setDealPwd(@Input(SetDealPwdInput) input: SetDealPwdInput, @CurrentUser() user: SessionUser) {
    return this.school.setDealPwd(user, input);
  }

  @Post('recharge')
  recharge(@Input(RechargeInput) input: RechargeInput, @CurrentUser() user: SessionUser) {
    return this.school.recharge(user, input);
  }

  @Post('wechatPaySchool')
  wechatPay(@Input(WechatPaySchoolInput) input: WechatPaySchoolInput, @CurrentUser() user: SessionUser) {
    return this.school.wechatPay(user, input);
  }

  @Get('paymentState')
  paymentState(@Input(PaymentStateQuery) q: PaymentStateQuery, @CurrentUser() user: SessionUser) {
    return this.school.paymentState(user, q);
  }

  @Post('balancePaySchool')
  balancePay(@Input(BalancePaySchoolInput) input: BalancePaySchoolInput, @CurrentUser() user: SessionUser) {
    return this.school.balancePay(user, input);
  }
}

/** The platform operator's side of schools (extra actions). */
@Controller('api/index')
export class OperatorSchoolsController {
  constructor(private readonly schools: OperatorSchoolsService) {}

  @Get('schoolList')
  list(@Input(SchoolListQuery) q: SchoolListQuery) {
    return this.schools.list(q);
  }

  @Post('setSchoolPrice')
  setPrice(@Input(SetSchoolPriceInput) input: SetSchoolPriceInput) {
    return this.schools.setPrice(input);
  }

  @Post('adjustSchoolBalance')
  adjust(@Input(AdjustBalanceInput) input: AdjustBalanceInput, @CurrentUser() user: SessionUser) {
    return this.schools.adjust(user, input);
  }

  @Get('schoolLedger')
  ledger(@Input(SchoolLedgerQuery) q: SchoolLedgerQuery) {
    return this.schools.ledger(q);
  }

  @Get('schoolPayments')
  payments(@Input(SchoolPaymentsQuery) q: SchoolPaymentsQuery) {
    return this.schools.payments(q);
  }

  @Post('refundSchoolPayment')
  refund(@Input(RefundSchoolPaymentInput) input: RefundSchoolPaymentInput, @CurrentUser() user: SessionUser) {
    return this.schools.refund(user, input);
  }
}
