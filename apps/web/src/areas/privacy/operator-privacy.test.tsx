import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Code, Identity, Role, type PolicyVersion } from '@wantuo/shared';
import { act } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, feedbackSpies, policies, type Reply, signedIn } from '../../phone/privacy/fake-server';
import { mount } from '../../test-utils';

const { default: OperatorPrivacy } = await import('./operator-privacy');

/** antd's first table, tabs and form in a fresh worker take a few seconds to render */
const waitFor = <T,>(check: () => T) => vi.waitFor(check, { timeout: 10_000 });
const $ = <E extends HTMLElement = HTMLElement>(sel: string) => document.querySelector<E>(sel);
const text = () => document.body.textContent ?? '';
const rowsOf = (testId: string) => [...document.querySelectorAll<HTMLElement>(`[data-testid="${testId}"] tbody tr.ant-table-row`)];
const click = (el: HTMLElement) => act(async () => el.click());
const okButton = () => $<HTMLButtonElement>('.ant-modal .ant-modal-footer .ant-btn-primary')!;
async function type(el: HTMLInputElement | HTMLTextAreaElement, value: string) {
  const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  await act(async () => {
    Object.getOwnPropertyDescriptor(proto, 'value')!.set!.call(el, value);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
}
const field = <E extends HTMLElement>(id: string) => $<E>(`[data-testid="policy-editor"] #${id}`)!;

const version = (n: number, over: Partial<PolicyVersion> = {}): PolicyVersion => ({
  id: n,
  kind: 'privacy',
  version: n,
  title: '隐私政策',
  body_zh: `# 隐私政策\n\n{{platform}}与{{school}}共同保护孩子的个人信息（第${n}版）。`,
  body_en: '',
  summary: `第${n}版修改`,
  published_at: '2026-01-05T02:00:00.000Z',
  published_by_name: '运营甲',
  ...over,
});
const page = <T,>(list: T[], total = list.length, p = 1, limit = 10) => ({ data: { list, total, page: p, limit } });

let fb: ReturnType<typeof feedbackSpies>;
beforeEach(() => {
  fb = signedIn({ id: 2, role: Role.Operator, nickname: '运营甲', avatar_text: '运', school_id: null }, Identity.None);
});

/** The history the server holds, newest first: its reads answer pages of it, a publish on top of the newest adds one. */
function history(kinds: Record<'privacy' | 'children', PolicyVersion[]>) {
  return {
    privacyPolicies: (): Reply => ({ data: policies(kinds.privacy[0]?.version ?? 0, kinds.children[0]?.version ?? 0) }),
    privacyPolicyHistory: (q: Record<string, unknown>): Reply => {
      const all = kinds[q.kind as 'privacy' | 'children'];
      const p = Number(q.page);
      const limit = Number(q.limit);
      return page(all.slice((p - 1) * limit, p * limit), all.length, p, limit);
    },
  };
}

async function open(answers: Record<string, (input: Record<string, unknown>) => Reply>) {
  const server = fakeServer(answers);
  await mount(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <OperatorPrivacy />
    </QueryClientProvider>,
  );
  return server;
}

describe('/operator_privacy 隐私政策管理', { timeout: 30_000 }, () => {
  it('the current version, the history from the server, the editor with its filled-in preview; the other document', async () => {
    const privacy = [version(3), version(2), version(1)];
    const children = [version(1, { kind: 'children', title: '儿童个人信息保护规则', summary: '首次发布' })];
    const server = await open(history({ privacy, children }));
    await waitFor(() => expect(rowsOf('policy-history')).toHaveLength(3));
    expect($('[data-testid="policy-current"]')!.textContent).toContain('第 3 版 · 2026-01-05 10:00 · 运营甲');
    expect(server.of('privacyPolicyHistory')).toContainEqual({ kind: 'privacy', page: 1, limit: 10 });
    expect(rowsOf('policy-history')[0].textContent).toContain('第3版修改');
    // the editor starts from the current text; the preview fills in the platform and an example school
    expect(field<HTMLInputElement>('title').value).toBe('隐私政策');
    expect(field<HTMLInputElement>('summary').value).toBe('');
    await waitFor(() =>
      expect($('[data-testid="policy-editor"] .policy-text')?.textContent).toContain('晚托管理平台与示例学校共同保护孩子的个人信息（第3版）'),
    );
    expect($('[data-testid="policy-editor"] .policy-text h2')?.textContent).toBe('隐私政策');

    await click(
      [...document.querySelectorAll<HTMLElement>('[data-testid="policy-kind"] .ant-segmented-item')].find(
        (x) => x.textContent === '儿童个人信息保护规则',
      )!,
    );
    await waitFor(() => expect(server.of('privacyPolicyHistory')).toContainEqual({ kind: 'children', page: 1, limit: 10 }));
    await waitFor(() => expect(rowsOf('policy-history')).toHaveLength(1));
    expect(rowsOf('policy-history')[0].textContent).toContain('首次发布');
  });

  it('the empty state: nothing published yet, the editor starts empty at version 0', async () => {
    const server = await open({
      ...history({ privacy: [], children: [] }),
      privacyPolicies: () => ({ code: Code.Error, msg: 'no documents' }),
      publishPrivacyPolicy: (input) => ({ data: version(1, input as Partial<PolicyVersion>) }),
    });
    await waitFor(() => expect(text()).toContain('尚未发布任何版本'));
    await waitFor(() => expect(text()).toContain('暂无历史版本'));
    expect(text()).toContain('{{platform}} 显示为平台名称，{{school}} 显示为家长所在学校');
    expect(field<HTMLInputElement>('title').value).toBe('');
    await type(field<HTMLInputElement>('title'), '隐私政策');
    await type(field<HTMLInputElement>('summary'), '首次发布');
    await type(field<HTMLTextAreaElement>('body_zh'), '# 隐私政策\n\n本政策说明我们如何收集、使用和保护孩子的个人信息。');
    await click($('[data-testid="policy-publish"]')!);
    await waitFor(() => expect($('.ant-modal')).not.toBeNull());
    await click(okButton());
    await waitFor(() => expect(server.of('publishPrivacyPolicy')).toHaveLength(1));
    expect(server.of('publishPrivacyPolicy')[0]).toMatchObject({ kind: 'privacy', expected_version: 0 });
  });

  it('the error state, with a retry', async () => {
    let fail = true;
    await open({
      ...history({ privacy: [version(1)], children: [] }),
      privacyPolicyHistory: (q) => (fail ? { code: Code.Error, msg: '服务暂不可用' } : page([version(1)], 1, Number(q.page), Number(q.limit))),
    });
    await waitFor(() => expect(text()).toContain('加载失败'));
    fail = false;
    await click([...document.querySelectorAll<HTMLButtonElement>('button')].find((b) => b.textContent?.replace(/\s/g, '') === '重试')!);
    await waitFor(() => expect(rowsOf('policy-history')).toHaveLength(1));
  });

  it('publishing: required fields first, then a confirmation that every guardian must accept again, with expected_version', async () => {
    const privacy = [version(3), version(2)];
    const server = await open({
      ...history({ privacy, children: [] }),
      publishPrivacyPolicy: (input) => {
        const v = version(4, input as Partial<PolicyVersion>);
        privacy.unshift(v);
        return { data: v };
      },
    });
    await waitFor(() => expect(rowsOf('policy-history')).toHaveLength(2));
    // the summary is the new version's own: required
    await click($('[data-testid="policy-publish"]')!);
    await waitFor(() => expect($('[data-testid="policy-editor"]')!.textContent).toContain('必填'));
    expect($('.ant-modal')).toBeNull();
    await type(field<HTMLInputElement>('summary'), '补充照片的保存期限');
    await type(field<HTMLTextAreaElement>('body_zh'), `${version(3).body_zh}\n\n## 照片\n- 照片保存至孩子离园后一学年`);
    await click($('[data-testid="policy-publish"]')!);
    await waitFor(() => expect($('.ant-modal')).not.toBeNull());
    expect($('.ant-modal')!.textContent).toContain('发布《隐私政策》第 4 版？');
    expect($('.ant-modal')!.textContent).toContain('发布后所有家长需重新同意');
    expect(server.of('publishPrivacyPolicy')).toEqual([]);
    await click(okButton());
    await waitFor(() => expect(server.of('publishPrivacyPolicy')).toHaveLength(1));
    expect(server.of('publishPrivacyPolicy')[0]).toEqual({
      kind: 'privacy',
      title: '隐私政策',
      summary: '补充照片的保存期限',
      body_zh: `${version(3).body_zh}\n\n## 照片\n- 照片保存至孩子离园后一学年`,
      body_en: '',
      expected_version: 3,
    });
    await waitFor(() => expect(fb.message.success).toHaveBeenCalledWith('已发布第 4 版'));
    // the new version is now the current one and the base of the next edit
    await waitFor(() => expect($('[data-testid="policy-current"]')!.textContent).toContain('第 4 版'));
    expect($('[data-testid="policy-editor"]')!.textContent).toContain('基于第 4 版编辑');
    await waitFor(() => expect(rowsOf('policy-history')).toHaveLength(3));
  });

  it('a version published meanwhile: the refusal shown, the current version read again, the newer one offered', async () => {
    const privacy = [version(3)];
    const server = await open({
      ...history({ privacy, children: [] }),
      publishPrivacyPolicy: (input) =>
        input.expected_version === privacy[0].version
          ? { data: version(privacy[0].version + 1, input as Partial<PolicyVersion>) }
          : { code: Code.Error, msg: '该文档已被他人发布了新版本，请刷新后再编辑' },
    });
    await waitFor(() => expect(rowsOf('policy-history')).toHaveLength(1));
    // someone else publishes version 4 while this operator edits version 3
    privacy.unshift(version(4, { summary: '他人的修改' }));
    await type(field<HTMLInputElement>('summary'), '我的修改');
    await click($('[data-testid="policy-publish"]')!);
    await waitFor(() => expect($('.ant-modal')).not.toBeNull());
    await click(okButton());
    await waitFor(() => expect(fb.message.error).toHaveBeenCalled());
    expect(JSON.stringify(fb.message.error.mock.calls[0][0])).toContain('该文档已被他人发布了新版本');
    expect(server.of('publishPrivacyPolicy')[0]).toMatchObject({ expected_version: 3, summary: '我的修改' });
    await waitFor(() => expect($('[data-testid="policy-stale"]')).not.toBeNull());
    expect($('[data-testid="policy-stale"]')!.textContent).toContain('第 4 版已由他人发布');
    // the edits are kept until the newer version is loaded
    expect(field<HTMLInputElement>('summary').value).toBe('我的修改');
    await click($('[data-testid="policy-load-latest"]')!);
    await waitFor(() => expect($('[data-testid="policy-stale"]')).toBeNull());
    expect(field<HTMLInputElement>('summary').value).toBe('');
    await type(field<HTMLInputElement>('summary'), '我的修改');
    await click($('[data-testid="policy-publish"]')!);
    await waitFor(() => expect($('.ant-modal-wrap:not([style*="display: none"]) .ant-modal')).not.toBeNull());
    await waitFor(() => expect(okButton()).toBeTruthy());
    await click(okButton());
    await waitFor(() => expect(server.of('publishPrivacyPolicy')).toHaveLength(2));
    expect(server.of('publishPrivacyPolicy')[1]).toMatchObject({ expected_version: 4 });
  });
});
