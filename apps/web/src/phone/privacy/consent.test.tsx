import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { Code, Identity, Role } from '@wantuo/shared';
import { act } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { get } from '../../api/http';
import { useSession } from '../../stores/session';
import { mount, unmountAll } from '../../test-utils';
import { child, consents, fakeServer, feedbackSpies, policies, type Reply, signedIn } from './fake-server';

vi.mock('../sw-register', () => ({ forgetOfflineData: async () => undefined }));

const { default: PhoneConsent } = await import('./consent');
const { PhoneConsentWatch } = await import('./consent-watch');

const flush = () => act(async () => new Promise((r) => setTimeout(r, 0)));
const until = async (what: () => unknown) => {
  for (let i = 0; i < 100 && !what(); i++) await flush();
  expect(what()).toBeTruthy();
};
const $ = (sel: string) => document.querySelector<HTMLElement>(sel);
const text = () => document.body.textContent ?? '';

/** Where the router is (the page a test lands on shows it). */
function Where() {
  const l = useLocation();
  return <div data-testid="where">{l.pathname + l.search}</div>;
}
const where = () => $('[data-testid="where"]')?.textContent ?? null;

let fb: ReturnType<typeof feedbackSpies>;
beforeEach(() => {
  fb = signedIn({ id: 11, role: Role.Parent, nickname: '王妈妈', avatar_text: '王', school_id: 1 }, Identity.Teacher);
});

const client = () => new QueryClient({ defaultOptions: { queries: { retry: false } } });

async function openConsent(answers: Record<string, (input: Record<string, unknown>) => Reply>, at: string) {
  const server = fakeServer(answers);
  await mount(
    <QueryClientProvider client={client()}>
      <MemoryRouter initialEntries={[at]}>
        <Routes>
          <Route path="/m/parent_consent" element={<PhoneConsent />} />
          <Route path="*" element={<Where />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return server;
}

describe('the phone consent screen (issue 37)', () => {
  const kids = [child(7, '王小明'), child(8, '王小红')];

  it('shows both documents and the children, accepts the versions it showed, sends the switches chosen, then goes on', async () => {
    const accepted = consents(
      kids.map((k) => ({ ...k, policies_accepted: true, accepted_at: '2026-01-06T02:00:00.000Z' })),
      3,
      5,
    );
    const server = await openConsent(
      {
        privacyPolicies: () => ({ data: policies(3, 5) }),
        myConsents: () => ({ data: consents(kids, 3, 5) }),
        acceptPolicies: () => ({ data: accepted }),
        setConsent: () => ({ data: accepted }),
      },
      '/m/parent_consent?redirect=%2Fm%2Fparent_report%3Fstudent%3D7',
    );
    await until(() => $('[data-testid="consent-accept"]'));
    // both documents, rendered from their text (headings and lists), each with its version
    expect($('[data-testid="consent-doc-privacy"] h3')?.textContent).toBe('我们收集哪些信息');
    expect($('[data-testid="consent-doc-privacy"] li')?.textContent).toBe('监护人：姓名、手机号');
    expect($('[data-testid="consent-doc-children"] ol strong')?.textContent).toBe('监护人同意');
    expect(text()).toContain('第 3 版');
    expect(text()).toContain('第 5 版');
    // the children it applies to, two separate switches each, explained
    expect($('[data-testid="consent-child-7"]')?.textContent).toContain('王小明');
    expect($('[data-testid="consent-child-8"]')?.textContent).toContain('王小红');
    expect(text()).toContain('允许老师在日报、作业和评语中使用孩子的照片');
    expect(text()).toContain('允许学校保存孩子的过敏等健康备注');
    // photos on for the first child only
    await act(async () => $('[data-testid="consent-photos-7"]')!.click());
    await act(async () => $('[data-testid="consent-accept"]')!.click());
    await until(() => where());
    expect(server.of('acceptPolicies')).toEqual([{ privacy_version: 3, children_version: 5 }]);
    expect(server.of('setConsent')).toEqual([{ student_id: 7, kind: 'photos', granted: true }]);
    // the accept went before the switch
    expect(server.sent.map((s) => s.action).filter((a) => a === 'acceptPolicies' || a === 'setConsent')).toEqual(['acceptPolicies', 'setConsent']);
    expect(where()).toBe('/m/parent_report?student=7');
  });

  it('a newer version published meanwhile: the documents are read again and the screen says so; nothing else is sent', async () => {
    let version = 1;
    const server = await openConsent(
      {
        privacyPolicies: () => ({ data: policies(version, 1) }),
        myConsents: () => ({ data: consents(kids, version, 1) }),
        acceptPolicies: () => {
          version = 2;
          return { code: Code.Error, msg: '隐私政策或儿童个人信息保护规则刚刚更新，请阅读新版本后再同意' };
        },
      },
      '/m/parent_consent',
    );
    await until(() => $('[data-testid="consent-accept"]'));
    await act(async () => $('[data-testid="consent-photos-8"]')!.click());
    await act(async () => $('[data-testid="consent-accept"]')!.click());
    await until(() => $('[data-testid="consent-changed"]'));
    expect(text()).toContain('文件刚刚更新');
    // the new text is shown, the choices are kept, and accepting again sends the new version
    await until(() => text().includes('第2版正文'));
    expect(server.of('setConsent')).toEqual([]);
    expect(where()).toBeNull();
    expect($('[data-testid="consent-photos-8"]')?.getAttribute('aria-checked')).toBe('true');
  });

  it('不同意: says the app cannot show the child without it and offers to sign out', async () => {
    await openConsent({ privacyPolicies: () => ({ data: policies(1, 1) }), myConsents: () => ({ data: consents(kids) }) }, '/m/parent_consent');
    await until(() => $('[data-testid="consent-decline"]'));
    expect($('[data-testid="consent-decline"]')?.textContent).toBe('不同意');
  });

  it('a failed read: an error with a retry', async () => {
    await openConsent(
      { privacyPolicies: () => ({ code: Code.Error, msg: '服务暂不可用' }), myConsents: () => ({ data: consents(kids) }) },
      '/m/parent_consent',
    );
    await until(() => text().includes('加载失败'));
    expect(text()).toContain('服务暂不可用');
  });
});

/** A parent page that reads parentChildren, as the phone's pages do. */
function ChildrenPage() {
  const q = useQuery({ queryKey: ['parentChildren'], queryFn: () => get('parentChildren') });
  return <div data-testid="children-page">{q.isError ? 'failed' : 'page'}</div>;
}

async function openGated(answers: Record<string, (input: Record<string, unknown>) => Reply>, at: string) {
  const server = fakeServer(answers);
  await mount(
    <QueryClientProvider client={client()}>
      <MemoryRouter initialEntries={[at]}>
        <PhoneConsentWatch />
        <Routes>
          <Route path="/m/parent_report" element={<ChildrenPage />} />
          <Route path="/m/privacy" element={<ChildrenPage />} />
          <Route path="/m/parent_consent" element={<Where />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return server;
}

describe('the phone consent gate: a guardian without the current documents accepted goes to the consent screen', () => {
  const refused: Reply = { code: Code.Error, msg: '请先阅读并同意《隐私政策》和《儿童个人信息保护规则》', data: { consent_required: true } };

  it('any call answering consent_required sends there, with the page to come back to, and no toast', async () => {
    await openGated(
      { myConsents: () => ({ data: consents([child(7, '王小明', { policies_accepted: true })]) }), parentChildren: () => refused },
      '/m/parent_report?student=7',
    );
    await until(() => where());
    expect(where()).toBe('/m/parent_consent?redirect=%2Fm%2Fparent_report%3Fstudent%3D7');
    expect(fb.message.error).not.toHaveBeenCalled();
    expect(fb.notification.error).not.toHaveBeenCalled();
  });

  it('myConsents saying needs_consent sends there before any refusal', async () => {
    const server = await openGated(
      { myConsents: () => ({ data: consents([child(7, '王小明')]) }), parentChildren: () => ({ data: { list: [] } }) },
      '/m/parent_report',
    );
    await until(() => where());
    expect(where()).toBe('/m/parent_consent?redirect=%2Fm%2Fparent_report');
    expect(server.of('myConsents')).toHaveLength(1);
  });

  it('the public pages (the documents) are never gated, and another role is never sent', async () => {
    const server = await openGated(
      { myConsents: () => ({ data: consents([child(7, '王小明')]) }), parentChildren: () => ({ data: { list: [] } }) },
      '/m/privacy',
    );
    await until(() => $('[data-testid="children-page"]'));
    await flush();
    expect(where()).toBeNull();
    expect(server.of('myConsents')).toHaveLength(0);
    await unmountAll();
    document.body.innerHTML = '';
    useSession.setState({ user: { id: 2, role: Role.Teacher, nickname: '李老师', avatar_text: '李', school_id: 1 } });
    const staff = await openGated({ parentChildren: () => refused }, '/m/parent_report');
    await until(() => $('[data-testid="children-page"]')?.textContent === 'failed');
    expect(where()).toBeNull();
    expect(staff.of('myConsents')).toHaveLength(0);
  });
});
