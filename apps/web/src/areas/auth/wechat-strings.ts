import { defineStrings } from '../../i18n/strings';

/** Sign-in from the official account (issue 24): the authorisation's round trip and the one-time binding. */
export const wechatSignInStrings = defineStrings({
  'wx.authorizing': { zh: '正在通过微信登录…', en: 'Signing in with WeChat…' },
  'wx.use_mobile': { zh: '使用手机号登录', en: 'Sign in with your mobile instead' },
  'wx.retry': { zh: '重新授权', en: 'Authorise again' },
  'wx.failed': { zh: '微信登录未完成', en: 'WeChat sign-in did not complete' },
  'wx.bind_title': { zh: '首次从公众号进入', en: 'First visit from the official account' },
  'wx.bind_hint': {
    zh: '请用手机验证码登录一次，登录后即绑定本微信，以后在微信内打开无需再登录',
    en: 'Sign in once with an SMS code: this WeChat is then bound to your account and you will not need to sign in inside WeChat again',
  },
  'wx.bound': { zh: '已绑定微信，下次在微信内打开将自动登录', en: 'WeChat bound: next time inside WeChat you are signed in at once' },
  'wx.bind_failed': { zh: '微信未能绑定，本次已正常登录', en: 'WeChat could not be bound; you are signed in all the same' },
  'wx.staff_not_bound': {
    zh: '教职工账号不支持微信免登录，请使用账号密码或验证码登录',
    en: 'Staff accounts are never signed in by WeChat: use your password or an SMS code',
  },
});
