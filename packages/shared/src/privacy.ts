import type { BilingualLabel } from './labels';

/**
 * Children's personal information (issue 37, design.md §5b3, docs/modules/privacy.md): the pure rules the API and the
 * web share: the kinds of consent and of child data, masking, the policies' placeholders, the consent gate's free
 * actions, and the retention arithmetic.
 */

/** The two documents a guardian accepts before any child's data is shown. */
export const POLICY_KINDS = ['privacy', 'children'] as const;
export type PolicyKind = (typeof POLICY_KINDS)[number];

/** A guardian's decisions for a child: the documents (both at once), photos of the child, health notes. */
export const CONSENT_KINDS = ['policies', 'photos', 'health'] as const;
export type ConsentKind = (typeof CONSENT_KINDS)[number];

/** What a logged read or export touched (child_access_log.what). */
export const CHILD_DATA_KINDS = ['profile', 'guardians', 'pickup', 'health', 'photos', 'export', 'call', 'messages'] as const;
export type ChildDataKind = (typeof CHILD_DATA_KINDS)[number];

/** Defaults of the configurable periods (the API's config may override them). */
export const PRIVACY_DEFAULTS = {
  /** how long the access log is kept */
  accessLogDays: 3 * 365,
  /** an archived student's personal data is anonymised this long after leaving (one school year) */
  retentionDays: 365,
  /** a deletion or correction request is to be completed within this many days */
  requestDueDays: 15,
} as const;

/** 138****0001: the first three and the last four digits; anything shorter than 7 characters wholly hidden. */
export function maskMobile(mobile: string): string {
  return mobile.length >= 7 ? `${mobile.slice(0, 3)}****${mobile.slice(-4)}` : '****';
}

/** Whether a value is a masked mobile (what a client gets back where it may not see the whole number). */
export const isMaskedMobile = (v: string): boolean => v.includes('****');

/** The names a policy's text is filled with: `{{platform}}` and `{{school}}`. */
export function fillPolicy(body: string, names: { platform: string; school: string | null }): string {
  const school = names.school ?? names.platform;
  return body.replaceAll('{{platform}}', names.platform).replaceAll('{{school}}', school);
}

/**
 * Actions a guardian who has not accepted the current documents for every child may still call: their own account,
 * the documents and the consent itself, the WeChat binding that brings them in. Everything else a parent calls
 * answers `privacy.consent_required` until they accept.
 */
export const CONSENT_FREE_ACTIONS: ReadonlySet<string> = new Set([
  'userInfo',
  'logout',
  'changepwd',
  'profile',
  'loginLog',
  'privacyPolicies',
  'myConsents',
  'acceptPolicies',
  'setConsent',
  'wechatBind',
  'wechatUnbind',
  'wechatJsConfig',
  'messagePrefs',
  'saveMessagePrefs',
]);

/** The day (as an instant) before which an archived student's data is anonymised: `now - retentionDays`. */
export function retentionCutoff(now: Date, retentionDays: number): Date {
  return new Date(now.getTime() - retentionDays * 86_400_000);
}

/** What an anonymised child is called everywhere its name was: 已注销学生 #id (the id keeps the records apart). */
export const anonymisedName = (studentId: number): string => `已注销学生${studentId}`;

/**
 * What the access log's `action` reads as (the logged reads of child-reads.ts, the calls, the exports); another action
 * shows its code.
 */
export const LOGGED_ACTION_LABELS: Readonly<Record<string, BilingualLabel>> = {
  studentList: { zh: '学生列表', en: 'Student list' },
  studentInfo: { zh: '查看学生档案', en: 'Student record' },
  addStudent: { zh: '新增学生', en: 'New student' },
  studentSetting: { zh: '编辑学生', en: 'Student edited' },
  saveStudentGuardians: { zh: '编辑监护人', en: 'Guardians edited' },
  studentSettingInfo: { zh: '学生设置', en: 'Student settings' },
  studentGuardianLog: { zh: '监护人变更记录', en: 'Guardian changes' },
  teacherStudentList: { zh: '老师的学生列表', en: "Teacher's student list" },
  teacherStudentInfo: { zh: '老师查看学生档案', en: "Teacher's student record" },
  flowBoard: { zh: '实时看板', en: 'Live board' },
  pointsStudents: { zh: '积分学生列表', en: 'Points students' },
  tutorTaskInfo: { zh: '辅导任务', en: 'Tutoring task' },
  teachingTaskWorkInfo: { zh: '教学任务作业', en: 'Teaching task homework' },
  wantuoStudentHomeWork: { zh: '学生作业', en: 'Student homework' },
  wantuoStudentWorkInfo: { zh: '作业详情', en: 'Homework detail' },
  homeWorkInfo: { zh: '作业详情', en: 'Homework detail' },
  dailyReport: { zh: '每日反馈', en: 'Daily report' },
  saveDailyComment: { zh: '写每日评语', en: 'Daily comment written' },
  pickupVerifyKey: { zh: '核验接送码', en: 'Pick-up code verified' },
  parentChildren: { zh: '家长查看孩子', en: "Parent's children" },
  schoolWechatStats: { zh: '公众号统计', en: 'WeChat statistics' },
  myConsents: { zh: '授权状态', en: 'Consents' },
  acceptPolicies: { zh: '同意隐私政策', en: 'Policies accepted' },
  setConsent: { zh: '修改授权', en: 'Consent changed' },
  callGuardian: { zh: '拨打电话', en: 'Call' },
  conversationInfo: { zh: '查看家校消息', en: 'Family messages read' },
  childDataExport: { zh: '下载孩子全部信息', en: 'Download of all data' },
  studentExport: { zh: '导出学生', en: 'Student export' },
  examScoreExport: { zh: '导出成绩', en: 'Score export' },
  contractExport: { zh: '导出合同', en: 'Contract export' },
  job: { zh: '后台任务', en: 'Background job' },
};

/** The label of a logged action in a language, or its code when it has none. */
export const loggedActionLabel = (action: string, lang: 'zh' | 'en' = 'zh'): string => LOGGED_ACTION_LABELS[action]?.[lang] ?? action;
