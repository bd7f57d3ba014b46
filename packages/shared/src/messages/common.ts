import type { Bilingual } from './bilingual';

/** Common messages: ok, request errors (error.*), shared validation (v.*) and uploads (upload.*). */
export const commonMessages = {
  ok: { zh: '成功', en: 'OK' },
  'error.default': { zh: '请求失败', en: 'Request failed' },
  'error.unexpected': {
    zh: '服务器内部错误，请稍后重试（错误编号 {errorId}）',
    en: 'Internal server error, please try again later (error id {errorId})',
  },
  'error.not_found': { zh: '请求的接口不存在', en: 'No such API action' },
  'error.validation': { zh: '参数错误', en: 'Invalid parameters' },
  'error.field': { zh: '{field}：{message}', en: '{field}: {message}' },
  'error.body_too_large': { zh: '请求内容过大', en: 'Request body too large' },
  'error.rate_limited': {
    zh: '操作过于频繁，请 {seconds} 秒后再试',
    en: 'Too many attempts from your network: please try again in {seconds} seconds',
  },
  'error.bad_json': { zh: '请求内容不是有效的 JSON', en: 'Request body is not valid JSON' },
  'error.bad_multipart': { zh: '上传的表单格式不正确', en: 'The uploaded form is malformed' },
  'error.bad_encoding': {
    zh: '请求内容的字符集或压缩方式不受支持（请使用 UTF-8）',
    en: 'The request body uses a charset or content encoding that is not supported (use UTF-8)',
  },
  'error.timeout': { zh: '请求超时，请稍后重试', en: 'The request timed out, please try again' },
  'error.conflict': { zh: '数据已被他人修改，请刷新后重试', en: 'Someone else changed this meanwhile: refresh and try again' },
  'upload.missing_file': { zh: '请选择要上传的文件', en: 'Please choose a file to upload' },
  'upload.bad_type': { zh: '不支持的文件类型：{type}', en: 'Unsupported file type: {type}' },
  'upload.not_image': { zh: '头像只能是 JPG、PNG、GIF 或 WebP 图片', en: 'An avatar must be a JPG, PNG, GIF or WebP image' },
  'upload.too_large': { zh: '文件过大，最大 {max}', en: 'File too large, at most {max}' },
  'v.account_required': { zh: '请输入用户名', en: 'Please input a user name' },
  'v.password_required': { zh: '请输入密码', en: 'Please input a password' },
  'v.mobile_required': { zh: '请输入手机号', en: 'Please input mobile' },
  'v.mobile_invalid': { zh: '手机号格式不正确', en: 'Not a valid mobile number' },
  'v.code_required': { zh: '请输入短信验证码', en: 'Please input sms code' },
  'v.code_invalid': { zh: '短信验证码为 6 位数字', en: 'The SMS code has 6 digits' },
  'v.password_weak': { zh: '密码需 8-64 位，且同时包含字母和数字', en: 'A password has 8-64 characters with letters and digits' },
  'v.too_long': { zh: '内容过长（最多 {max} 个字符）', en: 'Too long (at most {max} characters)' },
  'v.event_invalid': { zh: '短信类型只能是 login 或 resetpwd', en: 'The SMS event must be login or resetpwd' },
  'v.nickname_invalid': { zh: '昵称需 1-32 个字符', en: 'A nickname has 1-32 characters' },
  'v.institution_name_invalid': {
    zh: '机构名称需 2-100 个字符，只能包含文字、数字、空格和常用标点',
    en: 'An institution name has 2-100 characters: letters, digits, spaces and common punctuation',
  },
  'v.contact_name_invalid': {
    zh: '联系人姓名需 1-64 个字符，只能包含文字、数字、空格和常用标点',
    en: 'A contact name has 1-64 characters: letters, digits, spaces and common punctuation',
  },
  'v.city_invalid': { zh: '城市只能包含文字、数字、空格和常用标点', en: 'A city has letters, digits, spaces and common punctuation only' },
  'v.students_estimate_invalid': { zh: '预计学生人数需为 1-100000 的整数', en: 'The expected number of students is a whole number from 1 to 100000' },
  'v.plain_text': { zh: '内容不能包含 HTML 标签或控制字符', en: 'Plain text only: no HTML tags or control characters' },
  'v.link_invalid': {
    zh: '链接需以 / 开头（本站页面）或为 http(s):// 地址',
    en: 'A link starts with / (a page of this site) or is an http(s):// address',
  },
  'v.unsafe_text': {
    zh: '{field} 含有不允许的字符（控制字符或无效的 Unicode 字符）',
    en: '{field} holds a character that is not allowed (a control character or invalid Unicode)',
  },
  'v.too_deep': { zh: '请求内容嵌套过深', en: 'The request is nested too deeply' },
  'v.application_status_invalid': {
    zh: '状态只能是 0（待处理）、1（已通过）或 2（已拒绝）',
    en: 'The status is 0 (pending), 1 (approved) or 2 (rejected)',
  },
  'v.handle_status_invalid': { zh: '处理结果只能是 1（通过）或 2（拒绝）', en: 'The result is 1 (approve) or 2 (reject)' },
  'v.unknown_field': { zh: '不支持的参数：{keys}', en: 'Unsupported parameters: {keys}' },
} satisfies Record<string, Bilingual>;
