import { EmptyAnswer, GET, POST, extraOf } from './define';
import {
  LoginLogAnswer,
  LoginResult,
  QrPollResult,
  QrScanResult,
  QrTicket,
  ResetLookup,
  UserInfo,
  WechatAuthorizeAnswer,
  WechatBindAnswer,
  WechatOauthAnswer,
} from '../answers/auth';
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
  WechatAuthorizeInput,
  WechatBindInput,
  WechatOauthInput,
} from '../schemas/auth';

/** The access and meaning of this module's actions that actions.tsv does not list. */
const extra = extraOf('auth');

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
  GET('loginLog', LoginLogQuery, LoginLogAnswer, extra(['any'], 'recent sign-ins and actions of the signed-in user, paged')),
  POST(
    'qrLoginTicket',
    QrTicketCreateInput,
    QrTicket,
    extra(
      ['pub'],
      'QR sign-in, desktop: a new ticket (random id for the QR, a secret only this desktop knows for polling), valid 2 minutes, usable once; rate-limited per IP',
    ),
  ),
  POST(
    'qrLoginPoll',
    QrPollInput,
    QrPollResult,
    extra(
      ['pub'],
      "QR sign-in, desktop: the ticket's state (waiting, scanned, confirmed, cancelled, expired) by id and secret; the first poll after the phone confirmed gets the session (as login answers, logged as login.qr), never again; rate-limited per IP",
    ),
  ),
  POST(
    'qrLoginScan',
    QrTicketInput,
    QrScanResult,
    extra(
      ['any'],
      "QR sign-in, phone: the signed-in account scans a waiting ticket (it is theirs from then on) and learns the desktop's browser, system and address",
    ),
  ),
  POST(
    'qrLoginConfirm',
    QrTicketInput,
    EmptyAnswer,
    extra(['any'], 'QR sign-in, phone: the account that scanned the ticket signs the desktop in as itself (before the ticket expires; once)'),
  ),
  POST(
    'qrLoginCancel',
    QrTicketInput,
    EmptyAnswer,
    extra(['any'], 'QR sign-in, phone: the account that scanned the ticket refuses it; the desktop shows it cancelled'),
  ),
  GET(
    'wechatAuthorize',
    WechatAuthorizeInput,
    WechatAuthorizeAnswer,
    extraOf('wechat')(
      ['pub'],
      "official-account web sign-in (snsapi_base), inside WeChat: a one-use state (10 minutes, where to go after) and the authorisation page's URL with this site's /wechat/callback; rate-limited per IP",
    ),
  ),
  POST(
    'wechatOauth',
    WechatOauthInput,
    WechatOauthAnswer,
    extraOf('wechat')(
      ['pub'],
      "the callback's code and state: the state is spent, the code exchanged for the openid (sns/oauth2/access_token); a guardian bound to it is signed in (logged as login.wechat), otherwise a one-use bind ticket (15 minutes) for one SMS-code sign-in; staff are never signed in by openid; rate-limited per IP",
    ),
  ),
  POST(
    'wechatBind',
    WechatBindInput,
    WechatBindAnswer,
    extraOf('wechat')(
      ['P'],
      "binds a bind ticket's openid to the signed-in guardian (once): one live openid per guardian per app id and one guardian per openid; a binding it replaces is ended as rebound, never deleted, and both are in the account's log (wechat.bind)",
    ),
  ),
] as const;
