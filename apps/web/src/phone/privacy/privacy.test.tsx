import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Code, Identity, Role, type AccessLogRow, type PrivacyRequestRow } from '@wantuo/shared';
import { act } from 'react';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useChosenChildStore } from '../../areas/parent/chosen-child';
import { mount, unmountAll } from '../../test-utils';
import { child, consents, fakeServer, feedbackSpies, type Reply, signedIn, logRow as baseLogRow, requestRow } from './fake-server';

const dialog = vi.hoisted(() => ({ confirm: vi.fn(async (_: { content?: unknown }) => true) }));
vi.mock('antd-mobile/es/components/dialog', () => ({ default: dialog }));
const files = vi.hoisted(() => ({ download: vi.fn(async () => undefined) }));
vi.mock('../../api/download', () => files);

const { default: PhonePrivacy } = await import('./privacy');

const flush = () => act(async () => new Promise((r) => setTimeout(r, 0)));
const until = async (what: () => unknown) => {
  for (let i = 0; i < 100 && !what(); i++) await flush();
  expect(what()).toBeTruthy();
};
const $ = (sel: string) => document.querySelector<HTMLElement>(sel);
const $$ = (sel: string) => [...document.querySelectorAll<HTMLElement>(sel)];
const text = () => document.body.textContent ?? '';

/** the guardian's view: no addresses */
const logRow = (id: number, over: Partial<AccessLogRow> = {}) => baseLogRow(id, { created_at: '2026-01-06T07:30:00.000Z', ip: null, ...over });
const request = (over: Partial<PrivacyRequestRow> = {}) => requestRow({ version: 1, ...over });

let fb: ReturnType<typeof feedbackSpies>;
beforeEach(() => {
  dialog.confirm.mockClear();
  files.download.mockClear();
  useChosenChildStore.setState({ id: null });
  fb = signedIn({ id: 11, role: Role.Parent, nickname: '王妈妈', avatar_text: '王', school_id: 1 }, Identity.Teacher);
});

const accepted = { policies_accepted: true, accepted_at: '2026-01-05T03:00:00.000Z' };

async function open(answers: Record<string, (input: Record<string, unknown>) => Reply>) {
  const server = fakeServer(answers);
  await mount(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={['/m/parent_privacy']}>
        <PhonePrivacy />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return server;
}

describe('我的 → 隐私与数据 (issue 37)', () => {
  it('per child: the consents, the documents, the access log from the server, the requests with their state and due day', async () => {
    const server = await open({
      myConsents: () => ({ data: consents([child(7, '王小明', { ...accepted, photos: true, health: null }), child(8, '王小红', accepted)]) }),
      childAccessLog: (q) => ({
        data: {
          list: q.student_id === 7 ? [logRow(31), logRow(30, { actor_name: '李老师', actor_role: Role.Teacher, what: ['photos'] })] : [],
          total: 2,
          page: 1,
          limit: 20,
        },
      }),
      myPrivacyRequests: () => ({ data: { list: [request()], total: 1, page: 1, limit: 10 } }),
    });
    await until(() => $$('[data-testid="privacy-log-row"]').length === 2);
    // the log is the chosen child's, asked of the server a page at a time
    expect(server.of('childAccessLog')[0]).toMatchObject({ student_id: 7, page: 1, limit: 20 });
    const [first, second] = $$('[data-testid="privacy-log-row"]');
    expect(first.textContent).toContain('张班主任');
    expect(first.textContent).toContain('班主任');
    expect(first.textContent).toContain('档案');
    expect(first.textContent).toContain('监护人');
    expect(first.textContent).toContain('2026-01-06 15:30');
    expect(second.textContent).toContain('李老师');
    expect(second.textContent).toContain('照片');
    // photos granted, health not chosen yet
    expect($('[data-testid="privacy-photos"]')?.getAttribute('aria-checked')).toBe('true');
    expect($('[data-testid="privacy-health"]')?.getAttribute('aria-checked')).toBe('false');
    expect($('[data-testid="privacy-consents"]')?.textContent).toContain('尚未选择');
    expect($('[data-testid="privacy-documents"]')?.textContent).toContain('已于 2026-01-05 11:00 同意当前版本');
    // the requests: kind, child, state, due day (the school's)
    const req = $('[data-testid="privacy-request-correction"]')!;
    expect(req.textContent).toContain('更正 · 王小明');
    expect(req.textContent).toContain('处理中');
    expect(req.textContent).toContain('2026-01-21 前处理');
    // the other child: its own (empty) log
    await act(async () => [...document.querySelectorAll<HTMLElement>('.adm-capsule-tabs-tab')].find((t) => t.textContent === '王小红')!.click());
    await until(() => text().includes('还没有人查看过孩子的信息'));
    expect(server.of('childAccessLog').at(-1)).toMatchObject({ student_id: 8 });
  });

  it('withdrawing the health consent says the stored note is erased, then takes effect at once', async () => {
    let health: boolean | null = true;
    const server = await open({
      myConsents: () => ({ data: consents([child(7, '王小明', { ...accepted, photos: true, health })]) }),
      setConsent: (input) => {
        health = input.granted as boolean;
        return { data: consents([child(7, '王小明', { ...accepted, photos: true, health })]) };
      },
      childAccessLog: () => ({ data: { list: [], total: 0, page: 1, limit: 20 } }),
      myPrivacyRequests: () => ({ data: { list: [], total: 0, page: 1, limit: 10 } }),
    });
    await until(() => $('[data-testid="privacy-health"]')?.getAttribute('aria-checked') === 'true');
    await act(async () => $('[data-testid="privacy-health"]')!.click());
    await until(() => server.of('setConsent').length);
    expect(String(dialog.confirm.mock.calls[0][0].content)).toContain('已保存的王小明的健康备注（如过敏）将被删除');
    expect(server.of('setConsent')).toEqual([{ student_id: 7, kind: 'health', granted: false }]);
    await until(() => $('[data-testid="privacy-health"]')?.getAttribute('aria-checked') === 'false');
    // a dialog cancelled sends nothing
    dialog.confirm.mockResolvedValueOnce(false);
    await act(async () => $('[data-testid="privacy-photos"]')!.click());
    await flush();
    expect(server.of('setConsent')).toHaveLength(1);
  });

  it('asks for a correction with what is wrong; a deletion only after a dialog saying it cannot be undone; downloads the zip', async () => {
    const sent: PrivacyRequestRow[] = [];
    const server = await open({
      myConsents: () => ({ data: consents([child(7, '王小明', accepted)]) }),
      childAccessLog: () => ({ data: { list: [], total: 0, page: 1, limit: 20 } }),
      myPrivacyRequests: () => ({ data: { list: sent, total: sent.length, page: 1, limit: 10 } }),
      privacyRequest: (input) => {
        if (sent.some((r) => r.kind === input.kind)) return { code: Code.Error, msg: '已有一条同类申请正在处理中' };
        const row = request({ id: sent.length + 1, kind: input.kind as 'correction', body: input.body as string });
        sent.unshift(row);
        return { data: row };
      },
    });
    await until(() => text().includes('还没有提交过申请'));
    await act(async () => $('[data-testid="privacy-correction"]')!.click());
    await until(() => $('[data-testid="correction-sheet"]'));
    // nothing to correct: not sent
    await act(async () => $('[data-testid="correction-submit"]')!.click());
    expect(server.of('privacyRequest')).toEqual([]);
    expect(fb.message.error).toHaveBeenCalledWith('请填写需要更正的内容');
    const area = document.querySelector<HTMLTextAreaElement>('[data-testid="correction-sheet"] textarea')!;
    await act(async () => {
      const set = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!;
      set.call(area, '出生日期应为 2018-03-02');
      area.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await act(async () => $('[data-testid="correction-submit"]')!.click());
    await until(() => server.of('privacyRequest').length);
    await until(() => $('[data-testid="privacy-request-correction"]'));
    expect(server.of('privacyRequest')).toEqual([{ student_id: 7, kind: 'correction', body: '出生日期应为 2018-03-02' }]);
    expect(fb.message.success).toHaveBeenCalledWith('申请已提交，学校将在 2026-01-21 前处理');
    // deletion: the dialog says it cannot be undone and the days the school has
    dialog.confirm.mockResolvedValueOnce(false);
    await act(async () => $('[data-testid="privacy-deletion"]')!.click());
    await flush();
    expect(String(dialog.confirm.mock.calls.at(-1)![0].content)).toMatch(/删除后无法恢复.*学校将在 15 天内完成/);
    expect(server.of('privacyRequest')).toHaveLength(1);
    await act(async () => $('[data-testid="privacy-deletion"]')!.click());
    await until(() => $('[data-testid="privacy-request-deletion"]'));
    expect(server.of('privacyRequest').at(-1)).toEqual({ student_id: 7, kind: 'deletion', body: '' });
    // everything held about the child, as a zip
    await act(async () => $('[data-testid="privacy-export"]')!.click());
    expect(files.download).toHaveBeenCalledWith('childDataExport', { student_id: 7 }, '王小明-个人信息.zip');
  });

  it('no child: says so; a failed read: an error with a retry', async () => {
    await open({ myConsents: () => ({ data: consents([]) }) });
    await until(() => text().includes('您的账号下没有在读的孩子'));
    await unmountAll();
    document.body.innerHTML = '';
    await open({ myConsents: () => ({ code: Code.Error, msg: '服务暂不可用' }) });
    await until(() => text().includes('加载失败'));
    expect(text()).toContain('重试');
  });
});
