import { FileAnswer, GET, POST } from './define';
import { PendingPayment } from '../answers/school';
import {
  ContractDetail,
  ContractListAnswer,
  ContractPackage,
  ContractPackageListAnswer,
  RefundPreview,
  StudentContractListAnswer,
} from '../answers/contracts';
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
} from '../schemas/contracts';

/** The actions of module `contracts` (docs/modules/contracts.md). */
export const contractsActions = [
  GET('contractList', ContractListQuery, ContractListAnswer),
  GET('contractInfo', ContractIdQuery, ContractDetail),
  GET('studentContractList', StudentContractListQuery, StudentContractListAnswer),
  GET('contractPackage', ContractPackageQuery, ContractPackageListAnswer),
  POST('addContract', AddContractInput, ContractDetail),
  POST('editContract', EditContractInput, ContractDetail),
  POST('renewContract', RenewContractInput, ContractDetail),
  POST('cancellationContract', CancelContractInput, ContractDetail),
  POST('addContractPackage', AddContractPackageInput, ContractPackage),
  POST('editContractPackage', EditContractPackageInput, ContractPackage),
  POST('setContractPackageActive', SetContractPackageActiveInput, ContractPackage),
  POST('payContractOffline', PayContractOfflineInput, ContractDetail),
  GET('contractRefundPreview', ContractIdQuery, RefundPreview),
  GET('contractExport', ContractExportQuery, FileAnswer),
  POST('wechatPayContract', WechatPayContractInput, PendingPayment),
] as const;
