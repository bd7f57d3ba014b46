/**
 * Messages the API sends in `msg`, in both languages (zh-CN default, en on request).
 * Keys are stable; `{name}` marks are filled from params.
 */
export type Lang = 'zh-CN' | 'en';
export const DEFAULT_LANG: Lang = 'zh-CN';

export function normalizeLang(value: unknown): Lang {
  return typeof value === 'string' && /^en\b/i.test(value.trim()) ? 'en' : 'zh-CN';
}

const zh = {
  ok: '成功',
  'error.default': '请求失败',
  'error.unexpected': '服务器内部错误，请稍后重试（错误编号 {errorId}）',
  'error.not_found': '请求的接口不存在',
  'error.validation': '参数错误',
  'error.field': '{field}：{message}',
  'error.body_too_large': '请求内容过大',
  'error.bad_json': '请求内容不是有效的 JSON',
  'error.timeout': '请求超时，请稍后重试',
  'error.conflict': '数据已被他人修改，请刷新后重试',
  'auth.untoken': '登录状态已过期，请重新登录',
  'auth.forbidden': '当前账号没有权限执行此操作',
  'auth.bad_credentials': '账号或密码错误',
  'auth.locked': '密码错误次数过多，账号已锁定，请 {minutes} 分钟后再试',
  'auth.disabled': '该账号已停用，请联系机构管理员',
  'auth.left_job': '该账号已离职，无法登录',
  'auth.school_expired': '所在机构的服务已到期，请联系机构管理员续费',
  'auth.bad_sms_code': '短信验证码错误或已过期',
  'auth.no_account_for_mobile': '该手机号未绑定账号',
  'auth.no_account': '未找到该账号',
  'auth.no_mobile': '该账号未绑定手机号，请联系机构管理员重置密码',
  'auth.old_password_wrong': '原密码错误',
  'auth.same_password': '新密码不能与原密码相同',
  'sms.too_soon': '验证码发送过于频繁，请 {seconds} 秒后再试',
  'sms.daily_limit': '该手机号今日获取验证码次数已达上限',
  'sms.ip_limit': '当前网络请求验证码过于频繁，请稍后再试',
  'application.mobile_limit': '该手机号 24 小时内已提交 {max} 次申请，请耐心等待平台联系',
  'application.ip_limit': '当前网络提交申请过于频繁，请稍后再试',
  'application.not_found': '该申请不存在',
  'application.already_handled': '该申请已处理，不能重复处理',
  'upload.missing_file': '请选择要上传的文件',
  'upload.bad_type': '不支持的文件类型：{type}',
  'upload.not_image': '头像只能是 JPG、PNG、GIF 或 WebP 图片',
  'upload.too_large': '文件过大，最大 {max}',
  'v.account_required': '请输入用户名',
  'v.password_required': '请输入密码',
  'v.mobile_required': '请输入手机号',
  'v.mobile_invalid': '手机号格式不正确',
  'v.code_required': '请输入短信验证码',
  'v.code_invalid': '短信验证码为 6 位数字',
  'v.password_weak': '密码需 8-64 位，且同时包含字母和数字',
  'v.too_long': '内容过长（最多 {max} 个字符）',
  'v.event_invalid': '短信类型只能是 login 或 resetpwd',
  'v.nickname_invalid': '昵称需 1-32 个字符',
  'v.institution_name_invalid': '机构名称需 2-100 个字符，只能包含文字、数字、空格和常用标点',
  'v.contact_name_invalid': '联系人姓名需 1-64 个字符，只能包含文字、数字、空格和常用标点',
  'v.city_invalid': '城市只能包含文字、数字、空格和常用标点',
  'v.students_estimate_invalid': '预计学生人数需为 1-100000 的整数',
  'v.plain_text': '内容不能包含 HTML 标签或控制字符',
  'v.application_status_invalid': '状态只能是 0（待处理）、1（已通过）或 2（已拒绝）',
  'v.handle_status_invalid': '处理结果只能是 1（通过）或 2（拒绝）',
  'v.unknown_field': '不支持的参数：{keys}',
  // staff module messages (zh)
  // students module messages (zh)
  // care and timetable module messages (zh)
} as const;

export type MessageKey = keyof typeof zh;

const en: Record<MessageKey, string> = {
  ok: 'OK',
  'error.default': 'Request failed',
  'error.unexpected': 'Internal server error, please try again later (error id {errorId})',
  'error.not_found': 'No such API action',
  'error.validation': 'Invalid parameters',
  'error.field': '{field}: {message}',
  'error.body_too_large': 'Request body too large',
  'error.bad_json': 'Request body is not valid JSON',
  'error.timeout': 'The request timed out, please try again',
  'error.conflict': 'Someone else changed this meanwhile: refresh and try again',
  'auth.untoken': 'Your session has expired, please sign in again',
  'auth.forbidden': 'Your account may not do this',
  'auth.bad_credentials': 'Wrong account or password',
  'auth.locked': 'Too many wrong passwords: the account is locked, try again in {minutes} minutes',
  'auth.disabled': 'This account is disabled, please contact your institution admin',
  'auth.left_job': 'This staff member has left: the account cannot sign in',
  'auth.school_expired': "Your institution's service has expired, please ask its admin to renew",
  'auth.bad_sms_code': 'Wrong or expired SMS code',
  'auth.no_account_for_mobile': 'No account uses this mobile number',
  'auth.no_account': 'No such account',
  'auth.no_mobile': 'This account has no mobile number; ask your institution admin to reset the password',
  'auth.old_password_wrong': 'The old password is wrong',
  'auth.same_password': 'The new password must differ from the old one',
  'sms.too_soon': 'Codes are sent at most once a minute: try again in {seconds} s',
  'sms.daily_limit': 'This mobile number has had its codes for today',
  'sms.ip_limit': 'Too many code requests from this network, please try later',
  'application.mobile_limit': 'This mobile number has sent {max} applications in 24 hours: the platform will contact you',
  'application.ip_limit': 'Too many applications from this network, please try later',
  'application.not_found': 'No such application',
  'application.already_handled': 'This application has already been handled',
  'upload.missing_file': 'Please choose a file to upload',
  'upload.bad_type': 'Unsupported file type: {type}',
  'upload.not_image': 'An avatar must be a JPG, PNG, GIF or WebP image',
  'upload.too_large': 'File too large, at most {max}',
  'v.account_required': 'Please input a user name',
  'v.password_required': 'Please input a password',
  'v.mobile_required': 'Please input mobile',
  'v.mobile_invalid': 'Not a valid mobile number',
  'v.code_required': 'Please input sms code',
  'v.code_invalid': 'The SMS code has 6 digits',
  'v.password_weak': 'A password has 8-64 characters with letters and digits',
  'v.too_long': 'Too long (at most {max} characters)',
  'v.event_invalid': 'The SMS event must be login or resetpwd',
  'v.nickname_invalid': 'A nickname has 1-32 characters',
  'v.institution_name_invalid': 'An institution name has 2-100 characters: letters, digits, spaces and common punctuation',
  'v.contact_name_invalid': 'A contact name has 1-64 characters: letters, digits, spaces and common punctuation',
  'v.city_invalid': 'A city has letters, digits, spaces and common punctuation only',
  'v.students_estimate_invalid': 'The expected number of students is a whole number from 1 to 100000',
  'v.plain_text': 'Plain text only: no HTML tags or control characters',
  'v.application_status_invalid': 'The status is 0 (pending), 1 (approved) or 2 (rejected)',
  'v.handle_status_invalid': 'The result is 1 (approve) or 2 (reject)',
  'v.unknown_field': 'Unsupported parameters: {keys}',
  // staff module messages (en)
  // students module messages (en)
  // care and timetable module messages (en)
};

const catalogues: Record<Lang, Record<MessageKey, string>> = { 'zh-CN': zh, en };

export function isMessageKey(value: string): value is MessageKey {
  return Object.prototype.hasOwnProperty.call(zh, value);
}

export function t(lang: Lang, key: MessageKey, params: Record<string, string | number> = {}): string {
  return catalogues[lang][key].replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? `{${name}}`));
}
