import { Code, Role, type AccessLogRow, type ChildConsent, type MyConsents, type PrivacyPolicies, type PrivacyRequestRow } from '@wantuo/shared';
import { vi } from 'vitest';
import { setFeedback } from '../../api/feedback';
import { useTransport as installTransport, type HttpRequest, type Transport } from '../../api/http';
import { usePreferences } from '../../stores/preferences';
import { useSession } from '../../stores/session';

/**
 * The privacy screens' tests: the request wrapper's transport answered by a table of actions (the real wrapper runs:
 * its consent handler, its refusals), every request kept with its action and input. Installed as the transport.
 */
export interface Sent {
  action: string;
  input: Record<string, unknown>;
}

export type Reply = { data: unknown } | { code: number; msg: string; data?: unknown };

export function fakeServer(answers: Record<string, (input: Record<string, unknown>) => Reply>) {
  const sent: Sent[] = [];
  const transport: Transport = async (req: HttpRequest) => {
    const action = req.url.replace(/^\/index\//, '');
    const input = (req.method === 'GET' ? (req.params ?? {}) : JSON.parse((req.body as string) || '{}')) as Record<string, unknown>;
    sent.push({ action, input });
    const reply = answers[action]?.(input) ?? { code: Code.Error, msg: `no answer for ${action}` };
    if ('code' in reply) return { status: 200, data: { code: reply.code, msg: reply.msg, data: reply.data ?? null } };
    return { status: 200, data: { code: Code.Ok, msg: 'ok', data: reply.data } };
  };
  installTransport(transport);
  return { transport, sent, of: (action: string) => sent.filter((s) => s.action === action).map((s) => s.input) };
}

export const doc = (kind: 'privacy' | 'children', version: number, body: string) => ({
  kind,
  version,
  title: kind === 'privacy' ? '隐私政策' : '儿童个人信息保护规则',
  body,
  summary: '首次发布',
  published_at: '2026-01-05T02:00:00.000Z',
});

export const policies = (privacy: number, children: number): PrivacyPolicies => ({
  platform_name: '晚托管理平台',
  school_name: '阳光晚托中心',
  privacy: doc('privacy', privacy, `# 隐私政策\n\n第${privacy}版正文。\n\n## 我们收集哪些信息\n- 监护人：姓名、手机号\n- 孩子：姓名`),
  children: doc('children', children, `# 儿童个人信息保护规则\n\n1. **监护人同意**：第${children}版\n2. **单独同意**：照片与健康备注`),
});

export const child = (student_id: number, name: string, over: Partial<ChildConsent> = {}): ChildConsent => ({
  student_id,
  name,
  policies_accepted: false,
  accepted_at: null,
  photos: null,
  health: null,
  ...over,
});

export const consents = (children: ChildConsent[], privacy = 1, childrenVersion = 1): MyConsents => ({
  privacy_version: privacy,
  children_version: childrenVersion,
  needs_consent: children.some((c) => !c.policies_accepted),
  children,
});

/** spies standing in for the feedback API (toasts, notifications, confirm dialogs): a test reads what was shown */
export const feedbackSpies = () => ({
  message: { error: vi.fn(), success: vi.fn(), info: vi.fn() },
  notification: { error: vi.fn(), success: vi.fn(), info: vi.fn() },
  modal: { confirm: vi.fn() },
});

type SessionState = ReturnType<typeof useSession.getState>;

/**
 * A test's start: Chinese, feedback spies installed (answered, for the test to read what was shown), and signed in as
 * `user` in `identity` when given.
 */
export function signedIn(user?: SessionState['user'], identity?: SessionState['identity']): ReturnType<typeof feedbackSpies> {
  const fb = feedbackSpies();
  setFeedback(fb as never);
  usePreferences.setState({ lang: 'zh-CN' });
  if (user) useSession.setState({ token: 't', user, identity });
  return fb;
}

/** A row of the access log as the API answers it. */
export const logRow = (id: number, over: Partial<AccessLogRow> = {}): AccessLogRow => ({
  id,
  created_at: '2026-01-06T07:30:05.000Z',
  actor_name: '张班主任',
  actor_role: Role.HeadTeacher,
  what: ['profile', 'guardians'],
  action: 'teacherStudentInfo',
  ip: '10.0.0.8',
  students: [{ id: 7, name: '王小明' }],
  student_count: 1,
  ...over,
});

/** A correction or deletion request as the API answers it. */
export const requestRow = (over: Partial<PrivacyRequestRow> = {}): PrivacyRequestRow => ({
  id: 1,
  student_id: 7,
  student_name: '王小明',
  guardian_name: '王妈妈',
  kind: 'correction',
  body: '出生日期应为 2018-03-02',
  status: 'open',
  due_at: '2026-01-21T02:00:00.000Z',
  overdue: false,
  handled_by_name: null,
  handled_at: null,
  result_note: '',
  version: 3,
  created_at: '2026-01-06T02:00:00.000Z',
  ...over,
});

/** A server page of `list` as a reply. */
export const pageReply = <T>(list: T[], total = list.length, page = 1, limit = 20) => ({ data: { list, total, page, limit } });
