import { Controller, Get, Post } from '@nestjs/common';
import { BalancePaySchoolInput, ConsumeLogQuery, EditSchoolInfoInput, EmptyInput, SetDealPwdInput } from '@wantuo/shared';
import { CurrentUser } from '../../core/auth/current-user.decorator';
import { Input } from '../../core/http/input.decorator';
import type { SessionUser } from '../../core/http/request-context';
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

  @Post('setDealPwd')
  setDealPwd(@Input(SetDealPwdInput) input: SetDealPwdInput, @CurrentUser() user: SessionUser) {
    return this.school.setDealPwd(user, input);
  }

  @Post('balancePaySchool')
  balancePay(@Input(BalancePaySchoolInput) input: BalancePaySchoolInput, @CurrentUser() user: SessionUser) {
    return this.school.balancePay(user, input);
  }
}
