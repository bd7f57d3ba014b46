import { GET, POST, Pending } from './define';
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
  GET('contractList', ContractListQuery, Pending),
  GET('contractInfo', ContractIdQuery, Pending),
  GET('studentContractList', StudentContractListQuery, Pending),
  GET('contractPackage', ContractPackageQuery, Pending),
  POST('addContract', AddContractInput, Pending),
  POST('editContract', EditContractInput, Pending),
  POST('renewContract', RenewContractInput, Pending),
  POST('cancellationContract', CancelContractInput, Pending),
  POST('addContractPackage', AddContractPackageInput, Pending),
  POST('editContractPackage', EditContractPackageInput, Pending),
  POST('setContractPackageActive', SetContractPackageActiveInput, Pending),
  POST('payContractOffline', PayContractOfflineInput, Pending),
  GET('contractRefundPreview', ContractIdQuery, Pending),
  GET('contractExport', ContractExportQuery, Pending),
  POST('wechatPayContract', WechatPayContractInput, Pending),
] as const;
