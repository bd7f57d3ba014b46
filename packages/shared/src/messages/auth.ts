import type { Bilingual } from './bilingual';

/** Sign-in, accounts and SMS codes (auth.*, sms.*) and institution applications (application.*). */
export const authMessages = {
  'auth.untoken': { zh: '登录状态已过期，请重新登录', en: 'Your session has expired, please sign in again' },
  'auth.forbidden': { zh: '当前账号没有权限执行此操作', en: 'Your account may not do this' },
  'auth.bad_credentials': { zh: '账号或密码错误', en: 'Wrong account or password' },
  'auth.locked': {
    zh: '密码错误次数过多，账号已锁定，请 {minutes} 分钟后再试',
    en: 'Too many wrong passwords: the account is locked, try again in {minutes} minutes',
  },
  'auth.disabled': { zh: '该账号已停用，请联系机构管理员', en: 'This account is disabled, please contact your institution admin' },
  'auth.left_job': { zh: '该账号已离职，无法登录', en: 'This staff member has left: the account cannot sign in' },
  'auth.school_expired': {
    zh: '所在机构的服务已到期，请联系机构管理员续费',
    en: "Your institution's service has expired, please ask its admin to renew",
  },
  'auth.school_read_only': {
    zh: '机构服务已到期超过 {days} 天，当前只能查看、不能修改数据；续费后立即恢复',
    en: "The institution's service expired more than {days} days ago: data can be read but not changed until it is renewed",
  },
  'auth.bad_sms_code': { zh: '短信验证码错误或已过期', en: 'Wrong or expired SMS code' },
  'auth.wechat_state_invalid': {
    zh: '微信授权已过期或已使用，请重新进入',
    en: 'The WeChat authorisation has expired or was used: open the page again',
  },
  'auth.wechat_code_used': { zh: '微信授权码已被使用，请重新进入', en: 'This WeChat code was already used: open the page again' },
  'auth.wechat_code_invalid': { zh: '微信授权码无效或已过期，请重新进入', en: 'Invalid or expired WeChat code: open the page again' },
  'auth.wechat_unavailable': {
    zh: '微信暂时无法完成授权，请使用手机号登录',
    en: 'WeChat could not authorise you right now: sign in with your mobile',
  },
  'auth.wechat_off': { zh: '未开通微信公众号登录', en: 'WeChat sign-in is not set up' },
  'auth.wechat_callback_invalid': { zh: '授权回调地址不属于本站', en: 'The authorisation callback is not on this site' },
  'auth.wechat_ticket_invalid': {
    zh: '微信绑定已过期，请从公众号重新进入',
    en: 'The WeChat binding has expired: open the page from the official account again',
  },
  'auth.no_account_for_mobile': { zh: '该手机号未绑定账号', en: 'No account uses this mobile number' },
  'auth.no_account': { zh: '未找到该账号', en: 'No such account' },
  'auth.no_mobile': {
    zh: '该账号未绑定手机号，请联系机构管理员重置密码',
    en: 'This account has no mobile number; ask your institution admin to reset the password',
  },
  'auth.old_password_wrong': { zh: '原密码错误', en: 'The old password is wrong' },
  'auth.same_password': { zh: '新密码不能与原密码相同', en: 'The new password must differ from the old one' },
  'auth.qr_invalid': { zh: '二维码无效或已使用，请在电脑上刷新二维码', en: 'This QR code is invalid or already used: refresh it on the computer' },
  'auth.qr_expired': { zh: '二维码已过期，请在电脑上刷新二维码', en: 'This QR code has expired: refresh it on the computer' },
  'auth.qr_taken': { zh: '该二维码已被其他账号扫描', en: 'This QR code was scanned by another account' },
  'auth.qr_not_scanned': { zh: '请先扫描电脑上的二维码', en: 'Scan the QR code on the computer first' },
  'auth.qr_cancelled': { zh: '本次扫码登录已取消，请在电脑上刷新二维码', en: 'This QR sign-in was cancelled: refresh the code on the computer' },
  'auth.v.qr_ticket_invalid': {
    zh: '这不是登录二维码，请扫描电脑登录页上的二维码',
    en: "This is not a sign-in QR code: scan the one on the computer's sign-in page",
  },
  'auth.v.qr_secret_invalid': { zh: '二维码凭据无效，请刷新二维码', en: 'Invalid QR code credentials: refresh the code' },
  'sms.too_soon': { zh: '验证码发送过于频繁，请 {seconds} 秒后再试', en: 'Codes are sent at most once a minute: try again in {seconds} s' },
  'sms.daily_limit': { zh: '该手机号今日获取验证码次数已达上限', en: 'This mobile number has had its codes for today' },
  'sms.ip_limit': { zh: '当前网络请求验证码过于频繁，请稍后再试', en: 'Too many code requests from this network, please try later' },
  'application.mobile_limit': {
    zh: '该手机号 24 小时内已提交 {max} 次申请，请耐心等待平台联系',
    en: 'This mobile number has sent {max} applications in 24 hours: the platform will contact you',
  },
  'application.ip_limit': { zh: '当前网络提交申请过于频繁，请稍后再试', en: 'Too many applications from this network, please try later' },
  'application.not_found': { zh: '该申请不存在', en: 'No such application' },
  'application.already_handled': { zh: '该申请已处理，不能重复处理', en: 'This application has already been handled' },
} satisfies Record<string, Bilingual>;
