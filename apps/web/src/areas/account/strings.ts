import { defineStrings, type KeyOf } from '../../i18n/strings';

/** The account area's own strings: a teacher's or head teacher's profile (我的资料). */
export const accountStrings = defineStrings({
  'tab.teacher': { zh: '我的资料', en: 'My profile' },
  'teacher.name': { zh: '姓名', en: 'Name' },
  'teacher.nickname': { zh: '昵称', en: 'Nickname' },
  'teacher.gender': { zh: '性别', en: 'Gender' },
  'teacher.gender_none': { zh: '不填', en: 'Not given' },
  'teacher.male': { zh: '男', en: 'Male' },
  'teacher.female': { zh: '女', en: 'Female' },
  'teacher.email': { zh: '电子邮箱', en: 'E-mail' },
  'teacher.remark': { zh: '个人简介', en: 'About me' },
  'teacher.remark_hint': { zh: '家长和同事能看到的简短介绍（最多 500 字）', en: 'A short introduction (at most 500 characters)' },
  'teacher.mobile': { zh: '手机号', en: 'Mobile' },
  'teacher.username': { zh: '用户名', en: 'User name' },
  'teacher.role': { zh: '角色', en: 'Role' },
  'teacher.role_2': { zh: '老师', en: 'Teacher' },
  'teacher.role_5': { zh: '班主任', en: 'Head teacher' },
  'teacher.duties': { zh: '负责', en: 'Duties' },
  'teacher.duty_shuttle': { zh: '接送', en: 'Shuttle' },
  'teacher.duty_tutor': { zh: '辅导', en: 'Tutoring' },
  'teacher.duty_head': { zh: '班主任', en: 'Head teacher' },
  'teacher.no_duty': { zh: '暂无', en: 'None' },
  'teacher.readonly_hint': { zh: '手机号、角色和负责的任务由机构管理员修改', en: 'The school admin changes the mobile, the role and the duties' },
  'teacher.saved': { zh: '资料已保存', en: 'Profile saved' },
  'teacher.save': { zh: '保存资料', en: 'Save profile' },
  // the account's recent activity (settings)
  'activity.login': { zh: '账号密码登录', en: 'Signed in with password' },
  'activity.login.sms': { zh: '短信验证码登录', en: 'Signed in with SMS code' },
  'activity.login.qr': { zh: '扫码登录', en: 'Signed in with a QR code' },
  'activity.login.wechat': { zh: '微信登录', en: 'Signed in from WeChat' },
  'activity.wechat.bind': { zh: '绑定微信', en: 'Bound WeChat' },
  'activity.wechat.unbind': { zh: '解除微信绑定', en: 'Unbound WeChat' },
  'activity.login.failed': { zh: '登录失败（密码错误）', en: 'Failed sign-in (wrong password)' },
  'activity.login.locked': { zh: '登录失败，账号被锁定', en: 'Failed sign-in, account locked' },
  'activity.logout': { zh: '退出登录', en: 'Signed out' },
  'activity.changepwd': { zh: '修改密码', en: 'Changed password' },
  'activity.resetpwd': { zh: '找回密码', en: 'Reset password' },
  'activity.profile': { zh: '修改个人信息', en: 'Edited personal info' },
});

export type AccountKey = KeyOf<typeof accountStrings>;
