import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Identity, QUICK_REPLIES, Role, type ConversationInfo, type ConversationMessage, type ConversationRow } from '@wantuo/shared';
import { act } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, pageReply, type Reply, signedIn } from '../../phone/privacy/fake-server';
import { ROUTES } from '../../router/route-table';
import { mayEnter } from '../../router/guard';
import { mount, unmountAll } from '../../test-utils';

const live = vi.hoisted(() => ({ io: vi.fn(() => ({ on: vi.fn(), close: vi.fn() })) }));
vi.mock('socket.io-client', () => ({ io: live.io }));

const { default: ConversationsConsole } = await import('./console');

/** antd's first table in a fresh worker takes a few seconds to render */
const waitFor = <T,>(check: () => T) => vi.waitFor(check, { timeout: 10_000 });
const $ = <E extends HTMLElement = HTMLElement>(sel: string) => document.querySelector<E>(sel);
const $$ = (sel: string) => [...document.querySelectorAll<HTMLElement>(sel)];
const text = () => document.body.textContent ?? '';
const click = (el: HTMLElement) => act(async () => el.click());

const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const message = (id: number, over: Partial<ConversationMessage> = {}): ConversationMessage => ({
  id,
  side: 'family',
  sender_id: 11,
  sender_name: '妈妈',
  text: `消息${id}`,
  photo_url: null,
  quick: false,
  urgent: false,
  retracted_at: null,
  sent_at: ago(60 * 60_000),
  mine: false,
  ...over,
});
const info = (over: Partial<ConversationInfo> = {}): ConversationInfo => ({
  student: { id: 7, name: '王小明', class_name: '晚托一班', photo_consent: true },
  my_side: 'school',
  school: [{ id: 21, name: '张老师', role: 'head_teacher', open_now: true }],
  family: [{ id: 11, name: '妈妈' }],
  office: { open_now: true, answers_at: null },
  read: { family: null, school: null },
  messages: [],
  has_more: false,
  ...over,
});
const row = (id: number, over: Partial<ConversationRow> = {}): ConversationRow => ({
  student_id: id,
  student_name: `学生${id}`,
  class_name: '晚托一班',
  last: { id: 100 + id, side: 'family', sender_name: '妈妈', preview: '今天奶奶来接', sent_at: ago(60_000) },
  unread: 0,
  urgent: false,
  ...over,
});
const hours = { days: [1, 2, 3, 4, 5], start: '08:00', end: '18:00', is_default: false, open_now: true };

afterEach(() => unmountAll());

async function open(answers: Record<string, (input: Record<string, unknown>) => Reply>, path = '/principal_chats') {
  const server = fakeServer({
    conversationRead: () => ({ data: null }),
    conversationUnread: () => ({ data: { unread: 0, conversations: 0 } }),
    officeHoursInfo: () => ({ data: hours }),
    ...answers,
  });
  const router = createMemoryRouter([{ path: '*', element: <ConversationsConsole /> }], { initialEntries: [path] });
  await mount(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return server;
}

describe('家长消息 in the consoles (issue 40)', { timeout: 30_000 }, () => {
  it('the routes: the admin’s, the head teacher’s and the teacher’s, each in its menu', async () => {
    for (const [path, role] of [
      ['/principal_chats', Role.Admin],
      ['/A_chats', Role.HeadTeacher],
      ['/teacher_chats', Role.Teacher],
      ['/teacher_chats', Role.HeadTeacher],
    ] as const) {
      const def = ROUTES.find((r) => r.path === path);
      expect(def).toMatchObject({ menu: expect.anything() });
      expect((await def!.page()).default).toBe(ConversationsConsole);
      expect(mayEnter(def!.area, role)).toBe(true);
    }
    expect(mayEnter(ROUTES.find((r) => r.path === '/principal_chats')!.area, Role.Teacher)).toBe(false);
  });

  it('the admin: a server-paged list (search, 只看未读), the chosen conversation with the logged-read note and retracted text marked', async () => {
    signedIn({ id: 1, role: Role.Admin, nickname: '校长', avatar_text: '校', school_id: 1 }, Identity.Principal);
    const server = await open({
      conversationList: (q) =>
        q.keyword === '学生8'
          ? pageReply([row(8)], 1, 1, 20)
          : pageReply([row(7, { unread: 3, urgent: true }), row(8, { last: null })], 41, Number(q.page), 20),
      conversationInfo: () => ({
        data: info({
          messages: [
            message(1, { urgent: true }),
            message(2, { side: 'school', sender_id: 21, sender_name: '张老师', text: '写错了', retracted_at: ago(60_000) }),
            message(3, { side: 'school', sender_id: 21, sender_name: '张老师', text: '好的' }),
          ],
        }),
      }),
    });
    await waitFor(() => expect($$('[data-testid="cc-list"] tbody tr.ant-table-row')).toHaveLength(2));
    expect(server.of('conversationList')[0]).toMatchObject({ page: 1, limit: 20 });
    const [first, second] = $$('[data-testid="cc-list"] tbody tr.ant-table-row');
    expect(first.textContent).toContain('学生7');
    expect(first.textContent).toContain('紧急');
    expect(first.querySelector('.ant-badge')?.textContent).toContain('3');
    expect(second.textContent).toContain('暂无消息');
    expect(text()).toContain('选择左侧的会话');
    // the next page is the server's
    await click($('.ant-pagination-item-2')!);
    await waitFor(() => expect(server.of('conversationList').at(-1)).toMatchObject({ page: 2 }));
    // one conversation
    await click(first);
    await waitFor(() => expect($$('[data-testid="chat-message"]')).toHaveLength(3));
    expect($('[data-testid="cc-admin-note"]')?.textContent).toContain('管理员查看会话会被记录（安全保护需要）');
    const retracted = $$('[data-testid="chat-message"]')[1];
    expect(retracted.textContent).toContain('写错了');
    expect(retracted.querySelector('[data-testid="chat-retracted-admin"]')?.textContent).toBe('已撤回');
    // an admin's look is not the school's reading
    expect(server.of('conversationRead')).toEqual([]);
    // 只看未读
    await click($('[data-testid="cc-unread"] input, input[type="checkbox"]')!);
    await waitFor(() => expect(server.of('conversationList').at(-1)).toMatchObject({ page: 1, unread: 1 }));
    // a child's name searched (the server's)
    const search = $<HTMLInputElement>('[data-testid="cc-search"] input, input[data-testid="cc-search"]')!;
    await act(async () => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(search, '学生8');
      search.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await click($('[data-testid="cc-search"] .ant-input-search-btn')!);
    await waitFor(() => expect(server.of('conversationList').at(-1)).toMatchObject({ page: 1, keyword: '学生8', unread: 1 }));
    // office hours of the admin's own
    expect($('[data-testid="office-now"]')?.textContent).toBe('现在在办公时间内');
  });

  it('a head teacher in the conversation: no note, read on opening, quick replies of the school, mine 已读/未读, 撤回 within 2 minutes', async () => {
    signedIn({ id: 21, role: Role.HeadTeacher, nickname: '张老师', avatar_text: '张', school_id: 1 }, Identity.Teacher);
    const server = await open(
      {
        conversationList: () => pageReply([row(7)]),
        conversationInfo: () => ({
          data: info({
            // a colleague read the family's message already: my own unread count still wants my read
            read: { family: 2, school: 1 },
            messages: [
              message(1),
              message(2, { side: 'school', sender_id: 21, sender_name: '张老师', mine: true, sent_at: ago(10 * 60_000) }),
              message(3, { side: 'school', sender_id: 21, sender_name: '张老师', mine: true, sent_at: ago(20_000) }),
            ],
          }),
        }),
        conversationSend: (input) => ({
          data: {
            message: message(4, {
              side: 'school',
              sender_id: 21,
              sender_name: '张老师',
              mine: true,
              quick: true,
              text: QUICK_REPLIES.school[input.quick_reply as number].zh,
              sent_at: new Date().toISOString(),
            }),
            office: hours,
          },
        }),
      },
      '/A_chats?student=7',
    );
    await waitFor(() => expect($$('[data-testid="chat-message"]')).toHaveLength(3));
    expect($('[data-testid="cc-admin-note"]')).toBeNull();
    await waitFor(() => expect(server.of('conversationRead')).toEqual([{ student_id: 7, upto_id: 1 }]));
    const [, old, fresh] = $$('[data-testid="chat-message"]');
    expect(old.querySelector('[data-testid="chat-read"]')?.textContent).toBe('已读');
    expect(fresh.querySelector('[data-testid="chat-read"]')?.textContent).toBe('未读');
    expect(old.querySelector('[data-testid="chat-retract"]')).toBeNull();
    expect(fresh.querySelector('[data-testid="chat-retract"]')).not.toBeNull();
    expect($$('[data-testid="chat-message"]')[0].querySelector('[data-testid="chat-retract"]')).toBeNull();
    // a quick reply of the school's
    await act(async () => $('[data-testid="chat-quick"]')!.click());
    await waitFor(() => expect($$('.ant-dropdown-menu-item').length).toBe(QUICK_REPLIES.school.length));
    await click($$('.ant-dropdown-menu-item')[2]);
    await waitFor(() => expect(server.of('conversationSend')).toHaveLength(1));
    expect(server.of('conversationSend')[0]).toMatchObject({ student_id: 7, quick_reply: 2 });
    await waitFor(() => expect($$('[data-testid="chat-message"]')).toHaveLength(4));
    expect(text()).toContain(QUICK_REPLIES.school[2].zh);
  });
});
