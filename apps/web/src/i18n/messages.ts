/** A text in both languages (route titles, menu entries, every strings table). */
export type Bilingual = { zh: string; en: string };

/**
 * The sign-in page's and the shell's strings, both languages side by side; this file is in the first load, so it
 * holds only those: each area keeps its own screens' strings in areas/<area>/strings.ts (defineStrings).
 * zh-CN is the default and the fallback.
 */
export const MESSAGES = {
  'app.name': { zh: '晚托管理平台', en: 'After-school care platform' },
  'common.loading': { zh: '加载中…', en: 'Loading…' },
  'common.retry': { zh: '重试', en: 'Retry' },
  'common.empty': { zh: '暂无数据', en: 'No data' },
  'common.save': { zh: '保存', en: 'Save' },
  'common.cancel': { zh: '取消', en: 'Cancel' },
  'common.ok': { zh: '确定', en: 'OK' },
  'common.back': { zh: '返回', en: 'Back' },
  'common.back_home': { zh: '返回首页', en: 'Back home' },
  'common.load_failed': { zh: '加载失败', en: 'Failed to load' },
  'common.saved': { zh: '已保存', en: 'Saved' },
  'http.default': { zh: '请求失败', en: 'Request failed' },
  'http.system_prompt': { zh: '系统提示', en: 'System prompt' },
  'http.session_expired': {
    zh: '登录状态已过期，您可以继续留在该页面，或者重新登录',
    en: 'Your session has expired: you may stay on this page or sign in again',
  },
  'http.relogin': { zh: '重新登录', en: 'Sign in again' },
  'http.invalid_session': { zh: '无效的会话，或者会话已过期，请重新登录。', en: 'Invalid or expired session, please sign in again.' },
  'error.route': { zh: '路由错误', en: 'Route error' },
  'error.unknown': { zh: '未知错误', en: 'Unknown error' },
  'error.not_found_title': { zh: '页面不存在', en: 'Page not found' },
  'error.not_found': { zh: '您访问的页面不存在或已被移除。', en: 'The page you are looking for does not exist or has been removed.' },
  'error.forbidden': { zh: '当前账号没有权限访问该页面', en: 'Your account may not open this page' },
  'nav.settings': { zh: '用户设置', en: 'Settings' },
  'nav.logout': { zh: '退出登录', en: 'Sign out' },
  'nav.login': { zh: '登录', en: 'Sign in' },
  'nav.menu': { zh: '菜单', en: 'Menu' },
  'nav.tools': { zh: '工具', en: 'Tools' },
  'nav.console': { zh: '进入管理后台', en: 'Open console' },
  'login.title': { zh: '欢迎登录', en: 'Welcome' },
  'login.subtitle': { zh: '学校与晚托机构管理平台', en: 'School and after-school-care management' },
  'login.tab_account': { zh: '账号登录', en: 'Account' },
  'login.tab_sms': { zh: '短信登录', en: 'SMS' },
  'login.account': { zh: '用户名 / 手机号 / 邮箱', en: 'User name / mobile / e-mail' },
  'login.password': { zh: '密码', en: 'Password' },
  'login.mobile': { zh: '手机号', en: 'Mobile' },
  'login.code': { zh: '短信验证码', en: 'SMS code' },
  'login.send_code': { zh: '获取验证码', en: 'Send code' },
  'login.resend': { zh: '{s} 秒后重新获取', en: 'Resend in {s} s' },
  'login.code_sent': { zh: '验证码已发送', en: 'Code sent' },
  'login.remember': { zh: '记住我（24 小时内免登录）', en: 'Remember me (24 hours)' },
  'login.forgot': { zh: '忘记密码', en: 'Forgot password' },
  'login.submit': { zh: '登录', en: 'Sign in' },
  'login.other': { zh: '其他登录方式', en: 'Other sign-in methods' },
  'login.qr': { zh: '扫码登录', en: 'QR code' },
  'login.apply': { zh: '机构入驻申请', en: 'Apply for an institution account' },
  'login.account_required': { zh: '请输入用户名', en: 'Please input a user name' },
  'login.password_required': { zh: '请输入密码', en: 'Please input a password' },
  'login.mobile_required': { zh: '请输入手机号', en: 'Please input mobile' },
  'login.mobile_invalid': { zh: '手机号格式不正确', en: 'Not a valid mobile number' },
  'login.code_required': { zh: '请输入短信验证码', en: 'Please input sms code' },
  'login.welcome': { zh: '欢迎回来，{name}', en: 'Welcome back, {name}' },
  'reset.title': { zh: '找回密码', en: 'Reset password' },
  'reset.step1': { zh: '验证账号', en: 'Account' },
  'reset.step2': { zh: '重置密码', en: 'New password' },
  'reset.account': { zh: '用户名或手机号', en: 'User name or mobile' },
  'reset.next': { zh: '下一步', en: 'Next' },
  'reset.code_to': { zh: '验证码将发送至 {mobile}', en: 'The code goes to {mobile}' },
  'reset.mobile_confirm': { zh: '请输入完整手机号以确认', en: 'Type the full mobile number to confirm' },
  'reset.new_password': { zh: '新密码（8-64 位，含字母和数字）', en: 'New password (8-64 characters, letters and digits)' },
  'reset.done': { zh: '密码已重置，请使用新密码登录', en: 'Password reset: sign in with the new password' },
  'apply.title': { zh: '机构入驻申请', en: 'Apply for an institution account' },
  'apply.institution': { zh: '机构名称', en: 'Institution' },
  'apply.contact': { zh: '联系人', en: 'Contact person' },
  'apply.mobile': { zh: '联系电话', en: 'Mobile' },
  'apply.city': { zh: '所在城市', en: 'City' },
  'apply.students': { zh: '在读学生数（约）', en: 'Students (approx.)' },
  'apply.message': { zh: '留言', en: 'Message' },
  'apply.submit': { zh: '提交申请', en: 'Submit' },
  'apply.done': { zh: '申请已提交，平台运营人员会尽快与您联系', en: 'Application sent: our team will contact you soon' },
  'settings.title': { zh: '用户设置', en: 'Settings' },
  'settings.activity': { zh: '最近活动', en: 'Recent activity' },
  'settings.profile': { zh: '个人信息', en: 'Personal info' },
  'settings.security': { zh: '修改密码', en: 'Change password' },
  'settings.preferences': { zh: '偏好设置', en: 'Preferences' },
  'settings.nickname': { zh: '昵称', en: 'Nickname' },
  'settings.avatar': { zh: '头像', en: 'Avatar' },
  'settings.upload_avatar': { zh: '上传头像', en: 'Upload avatar' },
  'settings.avatar_hint': { zh: 'JPG、PNG、GIF 或 WebP，最大 2 MB', en: 'JPG, PNG, GIF or WebP, at most 2 MB' },
  'settings.old_password': { zh: '原密码', en: 'Current password' },
  'settings.new_password': { zh: '新密码', en: 'New password' },
  'settings.confirm_password': { zh: '确认新密码', en: 'Confirm new password' },
  'settings.password_mismatch': { zh: '两次输入的密码不一致', en: 'The two passwords differ' },
  'settings.password_changed': { zh: '密码已修改，请重新登录', en: 'Password changed: please sign in again' },
  'settings.night_mode': { zh: '夜间模式', en: 'Night mode' },
  'settings.beta': { zh: '测试版', en: 'beta' },
  'settings.language': { zh: '语言', en: 'Language' },
  'settings.when': { zh: '时间', en: 'Time' },
  'settings.action': { zh: '操作', en: 'Action' },
  'settings.ip': { zh: 'IP 地址', en: 'IP address' },
  'settings.device': { zh: '设备', en: 'Device' },
  'home.hero': { zh: '让每一个孩子的课后时光安全、有序、看得见', en: "Every child's after-school hours: safe, orderly and visible" },
  'home.lead': {
    zh: '班级与课表、接送与考勤、晚餐与辅导、合同与收费、家校沟通，一个平台全部完成。',
    en: 'Classes and timetables, pick-up and attendance, dinner and tutoring, contracts and fees, home-school messages: one platform.',
  },
  'home.f1': {
    zh: '老师手机上一键完成接送、入园、晚餐、辅导、离园',
    en: 'Teachers record pick-up, arrival, dinner, tutoring and leaving with one tap',
  },
  'home.f2': { zh: '班主任实时看板，异常自动提醒', en: 'Live boards for head teachers, with automatic alerts' },
  'home.f3': { zh: '家长随时查看孩子的今日动态', en: "Parents see their child's day as it happens" },
} as const satisfies Record<string, Bilingual>;

export type MessageKey = keyof typeof MESSAGES;

export type Lang = 'zh-CN' | 'en';
export const LANGS: { value: Lang; label: string }[] = [
  { value: 'zh-CN', label: '简体中文' },
  { value: 'en', label: 'English' },
];

export const pick = (lang: Lang, b: Bilingual) => (lang === 'en' ? b.en : b.zh);

export function translate(lang: Lang, key: MessageKey, params: Record<string, string | number> = {}): string {
  const entry: Bilingual | undefined = MESSAGES[key];
  const text = entry ? pick(lang, entry) : key;
  return text.replace(/\{(\w+)\}/g, (_, n: string) => String(params[n] ?? ''));
}
