import { Controller, Get, Post, Res } from '@nestjs/common';
import type { Response } from 'express';
import {
  AddContractInput,
  AddContractPackageInput,
  CancelContractInput,
  ContractExportQuery,
  ContractIdQuery,
  ContractListQuery,
  ContractPackageQuery,
  EditContractInput,
  EditContractPackageInput,
  PayContractOfflineInput,
  RenewContractInput,
  SetContractPackageActiveInput,
  StudentContractListQuery,
  WechatPayContractInput,
} from '@wantuo/shared';
import { CurrentUser } from '../../core/auth/current-user.decorator';
import { Input } from '../../core/http/input.decorator';
import { sendFile } from '../../core/http/send-file';
import type { SessionUser } from '../../core/http/request-context';
import { ContractLifecycleService } from './contract-lifecycle.service';
import { ContractPayments } from './contract-payments';
import { ContractsService } from './contracts.service';
import { PackagesService } from './packages.service';

/** After-school-care contracts and their packages (module `contracts`, issue 11). */
@Controller('api/index')
export class ContractsController {
  constructor(
    private readonly packages: PackagesService,
    private readonly contracts: ContractsService,
    private readonly lifecycle: ContractLifecycleService,
    private readonly payments: ContractPayments,
  ) {}

  @Get('contractPackage')
  packageList(@Input(ContractPackageQuery) q: ContractPackageQuery, @CurrentUser() user: SessionUser) {
    return this.packages.list(user, q);
  }

  @Post('addContractPackage')
  addPackage(@Input(AddContractPackageInput) input: AddContractPackageInput, @CurrentUser() user: SessionUser) {
    return this.packages.add(user, input);
  }

  @Post('editContractPackage')
  editPackage(@Input(EditContractPackageInput) input: EditContractPackageInput, @CurrentUser() user: SessionUser) {
    return this.packages.edit(user, input);
  }

  @Post('setContractPackageActive')
  setPackageActive(@Input(SetContractPackageActiveInput) input: SetContractPackageActiveInput, @CurrentUser() user: SessionUser) {
    return this.packages.setActive(user, input);
  }

  @Post('addContract')
  add(@Input(AddContractInput) input: AddContractInput, @CurrentUser() user: SessionUser) {
    return this.contracts.add(user, input);
  }

  @Post('payContractOffline')
  payOffline(@Input(PayContractOfflineInput) input: PayContractOfflineInput, @CurrentUser() user: SessionUser) {
    return this.contracts.payOffline(user, input);
  }

  @Post('editContract')
  edit(@Input(EditContractInput) input: EditContractInput, @CurrentUser() user: SessionUser) {
    return this.contracts.edit(user, input);
  }

  @Get('contractInfo')
  info(@Input(ContractIdQuery) q: ContractIdQuery, @CurrentUser() user: SessionUser) {
    return this.contracts.info(user.schoolId!, q.id);
  }

  @Get('contractList')
  list(@Input(ContractListQuery) q: ContractListQuery, @CurrentUser() user: SessionUser) {
    return this.contracts.list(user, q);
  }

  @Get('contractExport')
  async export(@Input(ContractExportQuery) q: ContractExportQuery, @CurrentUser() user: SessionUser, @Res() res: Response) {
    sendFile(res, await this.contracts.export(user, q));
  }

  @Get('studentContractList')
  studentList(@Input(StudentContractListQuery) q: StudentContractListQuery, @CurrentUser() user: SessionUser) {
    return this.contracts.studentList(user, q);
  }

  @Post('renewContract')
  renew(@Input(RenewContractInput) input: RenewContractInput, @CurrentUser() user: SessionUser) {
    return this.lifecycle.renew(user, input);
  }

  @Get('contractRefundPreview')
  refundPreview(@Input(ContractIdQuery) q: ContractIdQuery, @CurrentUser() user: SessionUser) {
    return this.lifecycle.refundPreview(user, q.id);
  }

  @Post('cancellationContract')
  cancel(@Input(CancelContractInput) input: CancelContractInput, @CurrentUser() user: SessionUser) {
    return this.lifecycle.cancel(user, input);
  }

  @Post('wechatPayContract')
  wechatPay(@Input(WechatPayContractInput) input: WechatPayContractInput, @CurrentUser() user: SessionUser) {
    return this.payments.wechatPay(user, input);
  }
}
