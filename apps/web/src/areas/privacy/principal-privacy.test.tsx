import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Code, Identity, Role } from '@wantuo/shared';
import { act } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, feedbackSpies, type Reply, signedIn, logRow, pageReply as page, requestRow as request } from '../../phone/privacy/fake-server';
import { mount } from '../../test-utils';

const { default: PrincipalPrivacy } = await import('./principal-privacy');

/** antd's first table, tabs and form in a fresh worker take a few seconds to render */
const waitFor = <T,>(check: () => T) => vi.waitFor(check, { timeout: 10_000 });
const $ = <E extends HTMLElement = HTMLElement>(sel: string) => document.querySelector<E>(sel);
const text = () => document.body.textContent ?? '';
const rowsOf = (testId: string) => [...document.querySelectorAll<HTMLElement>(`[data-testid="${testId}"] tbody tr.ant-table-row`)];
const click = (el: HTMLElement) => act(async () => el.click());
const buttonNamed = (label: string, root: ParentNode = document) =>
  [...root.querySelectorAll<HTMLButtonElement>('button')].find((b) => b.textContent?.replace(/\s/g, '') === label);
const okButton = () => $<HTMLButtonElement>('.ant-modal .ant-modal-footer .ant-btn-primary')!;
async function type(el: HTMLInputElement | HTMLTextAreaElement, value: string) {
  const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  await act(async () => {
    Object.getOwnPropertyDescriptor(proto, 'value')!.set!.call(el, value);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
}
/** picks `label` in the antd Select that has `ariaLabel` */
async function pick(ariaLabel: string, label: string) {
  const input = $<HTMLInputElement>(`input[aria-label="${ariaLabel}"]`)!;
  await act(async () => input.closest('.ant-select')!.dispatchEvent(new MouseEvent('mousedown', { bubbles: true })));
  await waitFor(() => expect([...document.querySelectorAll('.ant-select-item-option')].some((o) => o.textContent === label)).toBe(true));
  await click([...document.querySelectorAll<HTMLElement>('.ant-select-item-option')].find((o) => o.textContent === label)!);
}

let fb: ReturnType<typeof feedbackSpies>;
beforeEach(() => {
  fb = signedIn({ id: 1, role: Role.Admin, nickname: '校长', avatar_text: '校', school_id: 1 }, Identity.Principal);
});

async function open(answers: Record<string, (input: Record<string, unknown>) => Reply>) {
  const server = fakeServer({ privacyRequests: () => page([]), ...answers });
  await mount(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <PrincipalPrivacy />
    </QueryClientProvider>,
  );
  return server;
}
const openRequestsTab = async () => {
  await click([...document.querySelectorAll<HTMLElement>('.ant-tabs-tab')].find((t) => t.textContent?.startsWith('权利请求'))!);
  await waitFor(() => expect($('[data-testid="privacy-requests"]')).not.toBeNull());
};

describe('/principal_privacy 访问记录', { timeout: 30_000 }, () => {
  it('rows from the server: school time, who with their role, what in words, action, ip, the children with +N; paged by the server', async () => {
    const server = await open({
      childAccessLog: (q) =>
        q.what === 'photos'
          ? page([logRow(9, { what: ['photos'], actor_name: '李老师', actor_role: Role.Teacher })], 1)
          : page(
              [
                logRow(31),
                logRow(30, {
                  actor_name: '校长',
                  actor_role: Role.Admin,
                  what: ['export', 'guardians'],
                  action: 'studentExport',
                  students: [
                    { id: 7, name: '王小明' },
                    { id: 8, name: '李小红' },
                  ],
                  student_count: 45,
                }),
              ],
              45,
            ),
    });
    await waitFor(() => expect(rowsOf('access-log')).toHaveLength(2));
    expect(server.of('childAccessLog')[0]).toEqual({ page: 1, limit: 20 });
    const [read, exported] = rowsOf('access-log').map((r) => r.textContent ?? '');
    expect(read).toContain('2026-01-06 15:30:05');
    expect(read).toContain('张班主任');
    expect(read).toContain('班主任');
    expect(read).toContain('档案');
    expect(read).toContain('监护人');
    expect(read).toContain('老师查看学生档案');
    expect(read).toContain('10.0.0.8');
    expect(read).toContain('王小明');
    expect(exported).toContain('机构管理员');
    expect(exported).toContain('导出');
    expect(exported).toContain('王小明、李小红');
    expect(exported).toContain('+43');
    // 45 rows at 20 a page: three pages, as the server counts them
    expect($('.ant-pagination-item-3')).not.toBeNull();
    expect($('.ant-pagination-item-4')).toBeNull();

    await pick('信息类别', '照片');
    await waitFor(() => expect(rowsOf('access-log')).toHaveLength(1));
    expect(server.of('childAccessLog').at(-1)).toEqual({ what: 'photos', page: 1, limit: 20 });
    // a child's name narrows the log to them
    await click(buttonNamed('王小明', rowsOf('access-log')[0])!);
    await waitFor(() => expect(server.of('childAccessLog').at(-1)).toEqual({ student_id: 7, what: 'photos', page: 1, limit: 20 }));
  });

  it('the empty state', async () => {
    await open({ childAccessLog: () => page([]) });
    await waitFor(() => expect(text()).toContain('暂无访问记录'));
  });

  it('the error state, with a retry that asks again', async () => {
    let fail = true;
    const server = await open({ childAccessLog: () => (fail ? { code: Code.Error, msg: '服务暂不可用' } : page([logRow(1)])) });
    await waitFor(() => expect(text()).toContain('加载失败'));
    fail = false;
    await click(buttonNamed('重试')!);
    await waitFor(() => expect(rowsOf('access-log')).toHaveLength(1));
    expect(server.of('childAccessLog')).toHaveLength(2);
  });
});

describe('/principal_privacy 权利请求', { timeout: 30_000 }, () => {
  it('the open requests with their due day (overdue in red), the open count on the tab; filtered by state', async () => {
    const server = await open({
      childAccessLog: () => page([]),
      privacyRequests: (q) =>
        q.status === 'done'
          ? page([request({ id: 5, status: 'done', handled_by_name: '校长', handled_at: '2026-01-08T02:00:00.000Z', result_note: '已更正' })])
          : page([request(), request({ id: 2, kind: 'deletion', body: '', overdue: true, due_at: '2026-01-05T02:00:00.000Z' })], 2),
    });
    await waitFor(() => expect(text()).toContain('权利请求（2 条待处理）'));
    await openRequestsTab();
    await waitFor(() => expect(rowsOf('privacy-requests')).toHaveLength(2));
    expect(server.of('privacyRequests').at(-1)).toEqual({ status: 'open', page: 1, limit: 20 });
    const [correction, deletion] = rowsOf('privacy-requests');
    expect(correction.textContent).toContain('更正');
    expect(correction.textContent).toContain('出生日期应为 2018-03-02');
    expect(correction.textContent).toContain('2026-01-21');
    expect(correction.querySelector('[data-testid="request-overdue"]')).toBeNull();
    const overdue = deletion.querySelector<HTMLElement>('[data-testid="request-overdue"]')!;
    expect(overdue.textContent).toBe('2026-01-05（已超期）');
    expect(overdue.className).toContain('danger');

    await pick('状态', '已完成');
    await waitFor(() => expect(rowsOf('privacy-requests')).toHaveLength(1));
    expect(server.of('privacyRequests').at(-1)).toEqual({ status: 'done', page: 1, limit: 20 });
    expect(rowsOf('privacy-requests')[0].textContent).toContain('已更正');
    expect($('[data-testid="request-complete-5"]')).toBeNull();
  });

  it('the empty state: none open, then none at all', async () => {
    await open({ childAccessLog: () => page([]) });
    await openRequestsTab();
    await waitFor(() => expect(text()).toContain('没有待处理的申请'));
    await pick('状态', '全部状态');
    await waitFor(() => expect(text()).toContain('暂无家长的更正或删除申请'));
  });

  it('the error state', async () => {
    await open({ childAccessLog: () => page([]), privacyRequests: () => ({ code: Code.Error, msg: '服务暂不可用' }) });
    await click([...document.querySelectorAll<HTMLElement>('.ant-tabs-tab')].find((t) => t.textContent?.startsWith('权利请求'))!);
    await waitFor(() => expect(text()).toContain('加载失败'));
  });

  it('completing a deletion: what erasure does, OK disabled until the exact name is typed, then handlePrivacyRequest', async () => {
    const rows = [request({ id: 2, kind: 'deletion', body: '', version: 4 })];
    const server = await open({
      childAccessLog: () => page([]),
      privacyRequests: () => page(rows),
      handlePrivacyRequest: () => ({ data: { ...rows[0], status: 'done' } }),
    });
    await openRequestsTab();
    await waitFor(() => expect($('[data-testid="request-complete-2"]')).not.toBeNull());
    await click($('[data-testid="request-complete-2"]')!);
    await waitFor(() => expect($('.ant-modal')).not.toBeNull());
    const dialog = $('.ant-modal')!;
    expect(dialog.textContent).toContain('删除王小明的个人信息');
    expect(dialog.textContent).toContain('匿名化');
    expect(dialog.textContent).toContain('照片、健康备注');
    expect(dialog.textContent).toContain('财务记录依法保留');
    expect(dialog.textContent).toContain('此操作无法撤销');
    expect(okButton().disabled).toBe(true);
    const name = $<HTMLInputElement>('[data-testid="erase-name"]')!;
    await type(name, '王小');
    expect(okButton().disabled).toBe(true);
    await type(name, '王小明明');
    expect(okButton().disabled).toBe(true);
    // nothing is sent while it is disabled
    await click(okButton());
    expect(server.of('handlePrivacyRequest')).toEqual([]);
    await type(name, '王小明');
    await waitFor(() => expect(okButton().disabled).toBe(false));
    await click(okButton());
    await waitFor(() => expect(server.of('handlePrivacyRequest')).toHaveLength(1));
    expect(server.of('handlePrivacyRequest')[0]).toEqual({ id: 2, version: 4, outcome: 'done', note: '' });
    await waitFor(() => expect(fb.message.success).toHaveBeenCalledWith('申请已处理'));
  });

  it("the API's refusal (another admin changed the request) is shown by the request wrapper; the dialog stays", async () => {
    const server = await open({
      childAccessLog: () => page([]),
      privacyRequests: () => page([request({ id: 2, kind: 'deletion', body: '' })]),
      handlePrivacyRequest: () => ({ code: Code.Error, msg: '该申请刚被他人处理或修改，请刷新后再试' }),
    });
    await openRequestsTab();
    await waitFor(() => expect($('[data-testid="request-complete-2"]')).not.toBeNull());
    await click($('[data-testid="request-complete-2"]')!);
    await waitFor(() => expect($('[data-testid="erase-name"]')).not.toBeNull());
    await type($<HTMLInputElement>('[data-testid="erase-name"]')!, '王小明');
    await click(okButton());
    await waitFor(() => expect(fb.message.error).toHaveBeenCalled());
    expect(JSON.stringify(fb.message.error.mock.calls[0][0])).toContain('该申请刚被他人处理或修改');
    expect(server.of('handlePrivacyRequest')).toHaveLength(1);
    expect($('.ant-modal')).not.toBeNull();
  });

  it('refusing needs a reason, sent as the note', async () => {
    const server = await open({
      childAccessLog: () => page([]),
      privacyRequests: () => page([request()]),
      handlePrivacyRequest: () => ({ data: request({ status: 'refused' }) }),
    });
    await openRequestsTab();
    await waitFor(() => expect($('[data-testid="request-refuse-1"]')).not.toBeNull());
    await click($('[data-testid="request-refuse-1"]')!);
    await waitFor(() => expect($('.ant-modal textarea')).not.toBeNull());
    await click(okButton());
    await waitFor(() => expect($('.ant-modal')!.textContent).toContain('请填写拒绝理由'));
    expect(server.of('handlePrivacyRequest')).toEqual([]);
    await type($<HTMLTextAreaElement>('.ant-modal textarea')!, '出生日期与户口本一致，无需更正');
    await click(okButton());
    await waitFor(() => expect(server.of('handlePrivacyRequest')).toHaveLength(1));
    expect(server.of('handlePrivacyRequest')[0]).toEqual({ id: 1, version: 3, outcome: 'refused', note: '出生日期与户口本一致，无需更正' });
  });
});
