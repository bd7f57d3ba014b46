import { Controller, Res } from '@nestjs/common';
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
import { Caller, CurrentUser, type CallerInfo } from '../../core/auth/current-user.decorator';
import { Action } from '../../core/http/action.decorator';
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

  @Action('GET', 'contractPackage')
  packageList(@Input() q: ContractPackageQuery, @CurrentUser() user: SessionUser) {
    return this.packages.list(user, q);
  }

  @Action('POST', 'addContractPackage')
  addPackage(@Input() input: AddContractPackageInput, @CurrentUser() user: SessionUser) {
    return this.packages.add(user, input);
  }

  @Action('POST', 'editContractPackage')
  editPackage(@Input() input: EditContractPackageInput, @CurrentUser() user: SessionUser) {
    return this.packages.edit(user, input);
  }

  @Action('POST', 'setContractPackageActive')
  setPackageActive(@Input() input: SetContractPackageActiveInput, @CurrentUser() user: SessionUser) {
    return this.packages.setActive(user, input);
  }

  @Action('POST', 'addContract')
  add(@Input() input: AddContractInput, @CurrentUser() user: SessionUser) {
    return this.contracts.add(user, input);
  }

  @Action('POST', 'payContractOffline')
  payOffline(@Input() input: PayContractOfflineInput, @CurrentUser() user: SessionUser) {
    return this.contracts.payOffline(user, input);
  }

  @Action('POST', 'editContract')
  edit(@Input() input: EditContractInput, @CurrentUser() user: SessionUser) {
    return this.contracts.edit(user, input);
  }

  @Action('GET', 'contractInfo')
  info(@Input() q: ContractIdQuery, @CurrentUser() user: SessionUser) {
    return this.contracts.info(user.schoolId!, q.id);
  }

  @Action('GET', 'contractList')
  list(@Input() q: ContractListQuery, @CurrentUser() user: SessionUser) {
    return this.contracts.list(user, q);
  }

  @Action('GET', 'contractExport')
  async export(@Input() q: ContractExportQuery, @CurrentUser() user: SessionUser, @Res() res: Response) {
    sendFile(res, await this.contracts.export(user, q));
  }

  @Action('GET', 'studentContractList')
  studentList(@Input() q: StudentContractListQuery, @CurrentUser() user: SessionUser) {
    return this.contracts.studentList(user, q);
  }

  @Action('POST', 'renewContract')
  renew(@Input() input: RenewContractInput, @CurrentUser() user: SessionUser) {
    return this.lifecycle.renew(user, input);
  }

  @Action('GET', 'contractRefundPreview')
  refundPreview(@Input() q: ContractIdQuery, @CurrentUser() user: SessionUser) {
    return this.lifecycle.refundPreview(user, q.id);
  }

  @Action('POST', 'cancellationContract')
  cancel(@Input() input: CancelContractInput, @CurrentUser() user: SessionUser) {
    return this.lifecycle.cancel(user, input);
  }

  @Action('POST', 'wechatPayContract')
  wechatPay(@Input() input: WechatPayContractInput, @CurrentUser() user: SessionUser, @Caller() caller: CallerInfo) {
    return this.payments.wechatPay(user, input, caller.ip);
  }
}
