import { FileAnswer, GET, POST, extraOf } from './define';
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

/** The access and meaning of this module's actions that actions.tsv does not list. */
const extra = extraOf('contracts');

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
  POST(
    'addContractPackage',
    AddContractPackageInput,
    ContractPackage,
    extra(
      ['A'],
      'add a contract package: name, kind (term, month, days, sessions), length, valid months for days/sessions, price (fen), includes (care, dinner, tutoring)',
    ),
  ),
  POST(
    'editContractPackage',
    EditContractPackageInput,
    ContractPackage,
    extra(['A'], 'edit a contract package (optimistic concurrency on version); contracts already signed keep their own terms'),
  ),
  POST(
    'setContractPackageActive',
    SetContractPackageActiveInput,
    ContractPackage,
    extra(['A'], 'disable or enable a contract package (a package is never deleted: contracts point at it)'),
  ),
  POST(
    'payContractOffline',
    PayContractOfflineInput,
    ContractDetail,
    extra(['A'], 'record the payment of an unpaid contract received at the desk (cash, bank transfer, external WeChat/Alipay with a receipt number)'),
  ),
  GET(
    'contractRefundPreview',
    ContractIdQuery,
    RefundPreview,
    extra(
      ['A'],
      'the refund a cancellation of this contract would give today (unused days or sessions x unit price, less the discount agreed), shown before confirming',
    ),
  ),
  GET('contractExport', ContractExportQuery, FileAnswer, extra(['A'], 'download the filtered contract list (filters of contractList) as .xlsx')),
  POST(
    'wechatPayContract',
    WechatPayContractInput,
    PendingPayment,
    extra(['P'], "a guardian pays an own child's unpaid contract by WeChat Pay (Native QR); the paid notify activates it"),
  ),
] as const;
