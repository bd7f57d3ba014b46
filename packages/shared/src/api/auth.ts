import { GET, POST, Pending } from './define';
import {
  ChangePwdInput,
  EmptyInput,
  LoginInput,
  LoginLogQuery,
  MobileLoginInput,
  ProfileInput,
  QrPollInput,
  QrTicketCreateInput,
  QrTicketInput,
  ResetPwdInput,
  ResetPwdQuery,
  SmsSendInput,
} from '../schemas/auth';

/** The actions of module `auth` (docs/modules/auth.md). */
export const authActions = [
  GET('userInfo', EmptyInput, Pending),
  POST('login', LoginInput, Pending),
  POST('mobilelogin', MobileLoginInput, Pending),
  POST('logout', EmptyInput, Pending),
  POST('changepwd', ChangePwdInput, Pending),
  GET('resetpwd', ResetPwdQuery, Pending),
  POST('resetpwd', ResetPwdInput, Pending),
  POST('profile', ProfileInput, Pending),
  POST('sms/send', SmsSendInput, Pending),
  GET('loginLog', LoginLogQuery, Pending),
  POST('qrLoginTicket', QrTicketCreateInput, Pending),
  POST('qrLoginPoll', QrPollInput, Pending),
  POST('qrLoginScan', QrTicketInput, Pending),
  POST('qrLoginConfirm', QrTicketInput, Pending),
  POST('qrLoginCancel', QrTicketInput, Pending),
] as const;
