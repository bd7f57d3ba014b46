import { EmptyAnswer, GET, POST } from './define';
import { LoginLogAnswer, LoginResult, QrPollResult, QrScanResult, QrTicket, ResetLookup, UserInfo } from '../answers/auth';
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
  GET('userInfo', EmptyInput, UserInfo),
  POST('login', LoginInput, LoginResult),
  POST('mobilelogin', MobileLoginInput, LoginResult),
  POST('logout', EmptyInput, EmptyAnswer),
  POST('changepwd', ChangePwdInput, EmptyAnswer),
  GET('resetpwd', ResetPwdQuery, ResetLookup),
  POST('resetpwd', ResetPwdInput, EmptyAnswer),
  POST('profile', ProfileInput, UserInfo),
  POST('sms/send', SmsSendInput, EmptyAnswer),
  GET('loginLog', LoginLogQuery, LoginLogAnswer),
  POST('qrLoginTicket', QrTicketCreateInput, QrTicket),
  POST('qrLoginPoll', QrPollInput, QrPollResult),
  POST('qrLoginScan', QrTicketInput, QrScanResult),
  POST('qrLoginConfirm', QrTicketInput, EmptyAnswer),
  POST('qrLoginCancel', QrTicketInput, EmptyAnswer),
] as const;
