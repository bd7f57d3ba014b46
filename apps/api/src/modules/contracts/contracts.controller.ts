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
import { Caller, SchoolUser, type CallerInfo, type SchoolCaller } from '../../core/auth/current-user.decorator';
import { Action } from '../../core/http/action.decorator';
import { Input } from '../../core/http/input.decorator';
import { sendFile } from '../../core/http/send-file';
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
  packageList(@Input() q: ContractPackageQuery, @SchoolUser() user: SchoolCaller) {
    return this.packages.list(user, q);
  }

  @Action('POST', 'addContractPackage')
  addPackage(@Input() input: AddContractPackageInput, @SchoolUser() user: SchoolCaller) {
    return this.packages.add(user, input);
  }

  @Action('POST', 'editContractPackage')
  editPackage(@Input() input: EditContractPackageInput, @SchoolUser() user: SchoolCaller) {
    return this.packages.edit(user, input);
  }

  @Action('POST', 'setContractPackageActive')
  setPackageActive(@Input() input: SetContractPackageActiveInput, @SchoolUser() user: SchoolCaller) {
    return this.packages.setActive(user, input);
  }

  @Action('POST', 'addContract')
  add(@Input() input: AddContractInput, @SchoolUser() user: SchoolCaller) {
    return this.contracts.add(user, input);
  }

  @Action('POST', 'payContractOffline')
  payOffline(@Input() input: PayContractOfflineInput, @SchoolUser() user: SchoolCaller) {
    return this.contracts.payOffline(user, input);
  }

  @Action('POST', 'editContract')
  edit(@Input() input: EditContractInput, @SchoolUser() user: SchoolCaller) {
    return this.contracts.edit(user, input);
  }

  @Action('GET', 'contractInfo')
  info(@Input() q: ContractIdQuery, @SchoolUser() user: SchoolCaller) {
    return this.contracts.info(user.schoolId, q.id);
  }

  @Action('GET', 'contractList')
  list(@Input() q: ContractListQuery, @SchoolUser() user: SchoolCaller) {
    return this.contracts.list(user, q);
  }

  @Action('GET', 'contractExport')
  async export(@Input() q: ContractExportQuery, @SchoolUser() user: SchoolCaller, @Res() res: Response) {
    sendFile(res, await this.contracts.export(user, q));
  }

  @Action('GET', 'studentContractList')
  studentList(@Input() q: StudentContractListQuery, @SchoolUser() user: SchoolCaller) {
    return this.contracts.studentList(user, q);
  }

  @Action('POST', 'renewContract')
  renew(@Input() input: RenewContractInput, @SchoolUser() user: SchoolCaller) {
    return this.lifecycle.renew(user, input);
  }

  @Action('GET', 'contractRefundPreview')
  refundPreview(@Input() q: ContractIdQuery, @SchoolUser() user: SchoolCaller) {
    return this.lifecycle.refundPreview(user, q.id);
  }

  @Action('POST', 'cancellationContract')
  cancel(@Input() input: CancelContractInput, @SchoolUser() user: SchoolCaller) {
    return this.lifecycle.cancel(user, input);
  }

  @Action('POST', 'wechatPayContract')
  wechatPay(@Input() input: WechatPayContractInput, @SchoolUser() user: SchoolCaller, @Caller() caller: CallerInfo) {
    return this.payments.wechatPay(user, input, caller.ip);
  }
}
