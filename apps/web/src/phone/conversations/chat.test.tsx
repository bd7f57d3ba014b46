import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  addDays,
  Code,
  DEFAULT_TIME_ZONE,
  Identity,
  instantOf,
  localDay,
  QUICK_REPLIES,
  Role,
  weekdayOf,
  type ConversationInfo,
  type ConversationMessage,
  type ConversationRow,
  type OfficeHoursInfo,
} from '@wantuo/shared';
import { act } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useTransport } from '../../api/http';
import { answersAtLabel } from '../../areas/conversations/model';
import { useChosenChildStore } from '../../areas/parent/chosen-child';
import { mount, unmountAll } from '../../test-utils';
import { fakeServer, feedbackSpies, pageReply, type Reply, signedIn } from '../privacy/fake-server';

/** socket.io-client stood in for: the handlers the page registered, and the handshake it sent */
const live = vi.hoisted(() => {
  const handlers = new Map<string, (payload: unknown) => void>();
  const state = { auth: null as unknown, closed: 0 };
  const io = vi.fn((opts: { auth: (cb: (a: unknown) => void) => void }) => {
    opts.auth((a) => (state.auth = a));
    return {
      on: (event: string, fn: (payload: unknown) => void) => handlers.set(event, fn),
      close: () => void state.closed++,
    };
  });
  return { io, handlers, state };
});
vi.mock('socket.io-client', () => ({ io: live.io }));

const { default: ParentChatPhone } = await import('./parent-chat');
const { default: TeacherChatPhone } = await import('./teacher-chat');
const { default: TeacherChatsPhone } = await import('./teacher-chats');
const { OfficeHoursSection } = await import('./office-hours');

const $ = <E extends HTMLElement = HTMLElement>(sel: string) => document.querySelector<E>(sel);
const $$ = (sel: string) => [...document.querySelectorAll<HTMLElement>(sel)];
const text = () => document.body.textContent ?? '';
const click = (el: HTMLElement) => act(async () => el.click());
const waitFor = <T,>(check: () => T) => vi.waitFor(check, { timeout: 10_000 });
const buttonNamed = (label: string) =>
  [...document.querySelectorAll<HTMLElement>('button, .adm-action-sheet-button-item')].find((b) => b.textContent?.includes(label));
async function type(el: HTMLTextAreaElement | HTMLInputElement, value: string) {
  const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  await act(async () => {
    Object.getOwnPropertyDescriptor(proto, 'value')!.set!.call(el, value);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const message = (id: number, over: Partial<ConversationMessage> = {}): ConversationMessage => ({
  id,
  side: 'school',
  sender_id: 21,
  sender_name: '张老师',
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
  my_side: 'family',
  school: [{ id: 21, name: '张老师', role: 'head_teacher', open_now: false }],
  family: [{ id: 11, name: '妈妈' }],
  office: { open_now: true, answers_at: null },
  read: { family: null, school: null },
  messages: [],
  has_more: false,
  ...over,
});
const kid = (id: number, name: string) => ({ id, name, class_name: '晚托一班' });

let fb: ReturnType<typeof feedbackSpies>;
const parent = { id: 11, role: Role.Parent, nickname: '王妈妈', avatar_text: '王', school_id: 1 };
const teacher = { id: 21, role: Role.HeadTeacher, nickname: '张老师', avatar_text: '张', school_id: 1 };

beforeEach(() => {
  live.handlers.clear();
  live.io.mockClear();
  useChosenChildStore.setState({ id: null });
});
afterEach(() => unmountAll());

async function open(node: React.ReactNode, answers: Record<string, (input: Record<string, unknown>) => Reply>, path = '/m/parent_chat') {
  const server = fakeServer({
    conversationRead: () => ({ data: null }),
    conversationList: () => pageReply([]),
    conversationUnread: () => ({ data: { unread: 0, conversations: 0 } }),
    ...answers,
  });
  await mount(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={[path]}>{node}</MemoryRouter>
    </QueryClientProvider>,
  );
  return server;
}

describe('/m/parent_chat: the guardian’s conversation (issue 40)', { timeout: 30_000 }, () => {
  beforeEach(() => {
    fb = signedIn(parent, Identity.Teacher);
  });

  it('bubbles: mine right with 已读/未读 from the school’s read mark, theirs left; a retraction as a mark; read on opening', async () => {
    const server = await open(<ParentChatPhone />, {
      parentChildren: () => ({ data: { list: [kid(7, '王小明')] } }),
      conversationInfo: () => ({
        data: info({
          read: { family: 1, school: 2 },
          messages: [
            message(1),
            message(2, { side: 'family', sender_id: 11, sender_name: '妈妈', mine: true }),
            message(3, { side: 'family', sender_id: 11, sender_name: '妈妈', mine: true }),
            message(4, { text: null, retracted_at: ago(1000) }),
            message(5, { side: 'family', sender_id: 12, sender_name: '爸爸', text: null, photo_url: '/uploads/2026-01/a.jpg' }),
          ],
        }),
      }),
    });
    await waitFor(() => expect($$('[data-testid="chat-message"]')).toHaveLength(4));
    const [first, mine2, mine3, dad] = $$('[data-testid="chat-message"]');
    expect(first.className).toContain('cv-theirs');
    expect(first.textContent).toContain('张老师');
    expect(first.textContent).toContain('消息1');
    expect(mine2.className).toContain('cv-mine');
    expect(mine2.querySelector('[data-testid="chat-read"]')?.textContent).toBe('已读');
    expect(mine3.querySelector('[data-testid="chat-read"]')?.textContent).toBe('未读');
    expect(first.querySelector('[data-testid="chat-read"]')).toBeNull();
    // another guardian's photo: theirs, a photo to open
    expect(dad.className).toContain('cv-theirs');
    expect(dad.querySelector('img')?.getAttribute('src')).toBe('/uploads/2026-01/a.jpg');
    expect($('[data-testid="chat-retracted"]')?.textContent).toBe('张老师 撤回了一条消息');
    // the school is open: no notice; read up to the newest message on opening
    expect($('[data-testid="office-hours-notice"]')).toBeNull();
    await waitFor(() => expect(server.of('conversationRead')).toEqual([{ student_id: 7, upto_id: 5 }]));
    expect(server.of('conversationInfo')[0]).toMatchObject({ student_id: 7 });
    // the socket: the user's own room only
    expect(live.state.auth).toMatchObject({ batch: true, flow: false });
  });

  it('outside office hours: the notice says when the school answers (明天 08:00)', async () => {
    const now = new Date();
    const tomorrow = addDays(localDay(now, DEFAULT_TIME_ZONE), 1);
    const at = instantOf(tomorrow, '08:00', DEFAULT_TIME_ZONE).toISOString();
    await open(<ParentChatPhone />, {
      parentChildren: () => ({ data: { list: [kid(7, '王小明')] } }),
      conversationInfo: () => ({ data: info({ office: { open_now: false, answers_at: at } }) }),
    });
    await waitFor(() => expect($('[data-testid="office-hours-notice"]')).not.toBeNull());
    expect($('[data-testid="office-hours-notice"]')!.textContent).toBe(
      '老师不在办公时间，学校将于 明天 08:00 回复；紧急情况请勾选“紧急”或直接致电学校',
    );
    expect(text()).toContain('还没有消息');
  });

  it('sends a text with a request_id (urgent when ticked), a quick reply by its index; a refusal shows the API’s message', async () => {
    let n = 0;
    const server = await open(<ParentChatPhone />, {
      parentChildren: () => ({ data: { list: [kid(7, '王小明')] } }),
      conversationInfo: () => ({ data: info({ messages: [message(1)] }) }),
      conversationSend: (input) => {
        n++;
        if (n === 3) return { code: Code.Error, msg: '发送太频繁，请 1 分钟后再试（每分钟最多 6 条）' };
        const quick = typeof input.quick_reply === 'number' ? QUICK_REPLIES.family[input.quick_reply].zh : null;
        return {
          data: {
            message: message(100 + n, {
              side: 'family',
              sender_id: 11,
              sender_name: '妈妈',
              text: quick ?? (input.text as string),
              quick: !!quick,
              urgent: !!input.urgent,
              sent_at: new Date().toISOString(),
              mine: true,
            }),
            office: { open_now: true, answers_at: null },
          },
        };
      },
    });
    await waitFor(() => expect($('[data-testid="chat-text"] textarea, textarea[data-testid="chat-text"]')).not.toBeNull());
    const box = $<HTMLTextAreaElement>('textarea')!;
    await type(box, '今天奶奶来接');
    await click($('[data-testid="chat-urgent"]')!);
    await click($('[data-testid="chat-send"]')!);
    await waitFor(() => expect($$('[data-testid="chat-message"]')).toHaveLength(2));
    const [sent] = server.of('conversationSend');
    expect(sent).toMatchObject({ student_id: 7, text: '今天奶奶来接', urgent: true });
    expect(sent.request_id).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    const mine = $$('[data-testid="chat-message"]')[1];
    expect(mine.className).toContain('cv-mine');
    expect(mine.textContent).toContain('紧急');
    // just sent (after the page's clock last ticked): it may be taken back at once
    expect(mine.dataset.retractable).toBe('1');
    expect(box.value).toBe('');
    // a quick reply: its index only
    await click($('[data-testid="chat-quick"]')!);
    await waitFor(() => expect(buttonNamed(QUICK_REPLIES.family[0].zh)).toBeTruthy());
    await click(buttonNamed(QUICK_REPLIES.family[0].zh)!);
    await waitFor(() => expect(server.of('conversationSend')).toHaveLength(2));
    expect(server.of('conversationSend')[1]).toMatchObject({ student_id: 7, quick_reply: 0 });
    expect(server.of('conversationSend')[1].text).toBeUndefined();
    expect(server.of('conversationSend')[1].request_id).not.toBe(sent.request_id);
    await waitFor(() => expect($$('[data-testid="chat-message"]')).toHaveLength(3));
    // the third is refused: the API's words, the text kept
    await type(box, '再发一条');
    await click($('[data-testid="chat-send"]')!);
    await waitFor(() => expect(fb.message.error).toHaveBeenCalled());
    expect(fb.message.error.mock.calls[0][0]).toMatchObject({ content: '发送太频繁，请 1 分钟后再试（每分钟最多 6 条）' });
    expect(box.value).toBe('再发一条');
  });

  it('撤回 only on my own messages within 2 minutes; the retraction replaces the bubble with its mark', async () => {
    const server = await open(<ParentChatPhone />, {
      parentChildren: () => ({ data: { list: [kid(7, '王小明')] } }),
      conversationInfo: () => ({
        data: info({
          read: { family: 3, school: null },
          messages: [
            message(1, { side: 'family', sender_id: 11, sender_name: '妈妈', mine: true, sent_at: ago(5 * 60_000) }),
            message(2, { sent_at: ago(20_000) }),
            message(3, { side: 'family', sender_id: 11, sender_name: '妈妈', mine: true, sent_at: ago(40_000) }),
            message(4, { side: 'family', sender_id: 11, sender_name: '妈妈', mine: true, sent_at: ago(30_000) }),
          ],
        }),
      }),
      conversationRetract: (input) => ({
        data: message(input.id as number, {
          side: 'family',
          sender_id: 11,
          sender_name: '妈妈',
          text: null,
          retracted_at: new Date().toISOString(),
          mine: true,
        }),
      }),
    });
    await waitFor(() => expect($$('[data-testid="chat-message"]')).toHaveLength(4));
    const retractable = $$('[data-testid="chat-message"]').filter((m) => m.dataset.retractable === '1');
    expect(retractable.map((m) => m.dataset.id)).toEqual(['3', '4']);
    // an old one of mine and the teacher's: a tap offers nothing
    await click($$('[data-testid="chat-message"]')[0].querySelector<HTMLElement>('.cv-text')!);
    await click($$('[data-testid="chat-message"]')[1].querySelector<HTMLElement>('.cv-text')!);
    expect(buttonNamed('撤回')).toBeUndefined();
    await click(retractable[0].querySelector<HTMLElement>('.cv-text')!);
    await waitFor(() => expect(buttonNamed('撤回')).toBeTruthy());
    await click(buttonNamed('撤回')!);
    await waitFor(() => expect(server.of('conversationRetract')).toEqual([{ id: 3 }]));
    await waitFor(() => expect($('[data-testid="chat-retracted"]')?.textContent).toBe('你撤回了一条消息'));
    expect($$('[data-testid="chat-message"]')).toHaveLength(3);
    // the other one: the sheet takes back the message tapped, not the one before
    await click(
      $$('[data-testid="chat-message"]')
        .find((m) => m.dataset.id === '4')!
        .querySelector<HTMLElement>('.cv-text')!,
    );
    await waitFor(() => expect(buttonNamed('撤回')).toBeTruthy());
    await click(buttonNamed('撤回')!);
    await waitFor(() => expect(server.of('conversationRetract')).toEqual([{ id: 3 }, { id: 4 }]));
  });

  it('a live message of the open conversation is shown and read; paging back asks before the oldest id', async () => {
    const server = await open(<ParentChatPhone />, {
      parentChildren: () => ({ data: { list: [kid(7, '王小明')] } }),
      conversationInfo: (q) =>
        q.before
          ? { data: info({ messages: [message(8), message(9)], has_more: false }) }
          : { data: info({ read: { family: 11, school: null }, messages: [message(10), message(11)], has_more: true }) },
    });
    await waitFor(() => expect($$('[data-testid="chat-message"]')).toHaveLength(2));
    // read on opening although the family's mark is there already (another guardian's reading; the unread count is mine)
    await waitFor(() => expect(server.of('conversationRead')).toEqual([{ student_id: 7, upto_id: 11 }]));
    await act(async () =>
      live.handlers.get('conversation.message')!({ student_id: 7, message: { ...message(12, { text: '孩子已吃完晚饭' }), mine: undefined } }),
    );
    await waitFor(() => expect($$('[data-testid="chat-message"]')).toHaveLength(3));
    expect(text()).toContain('孩子已吃完晚饭');
    await waitFor(() =>
      expect(server.of('conversationRead')).toEqual([
        { student_id: 7, upto_id: 11 },
        { student_id: 7, upto_id: 12 },
      ]),
    );
    await click($('[data-testid="chat-older"]')!);
    await waitFor(() => expect($$('[data-testid="chat-message"]')).toHaveLength(5));
    expect(server.of('conversationInfo').at(-1)).toMatchObject({ student_id: 7, before: 10 });
    expect($$('[data-testid="chat-message"]').map((m) => m.dataset.id)).toEqual(['8', '9', '10', '11', '12']);
    expect($('[data-testid="chat-older"]')).toBeNull();
  });

  it('a reply of the school’s live: the school’s read mark asked again, my message then 已读', async () => {
    let read: number | null = null;
    const server = await open(<ParentChatPhone />, {
      parentChildren: () => ({ data: { list: [kid(7, '王小明')] } }),
      conversationInfo: (q) => ({
        data: info({
          read: { family: 20, school: read },
          messages:
            q.limit === 1 || q.limit === '1' ? [message(21)] : [message(20, { side: 'family', sender_id: 11, sender_name: '妈妈', mine: true })],
        }),
      }),
    });
    await waitFor(() => expect($('[data-testid="chat-read"]')?.textContent).toBe('未读'));
    const asked = server.of('conversationInfo').length;
    read = 20;
    await act(async () =>
      live.handlers.get('conversation.message')!({ student_id: 7, message: { ...message(21, { text: '好的' }), mine: undefined } }),
    );
    await waitFor(() => expect($('[data-testid="chat-read"]')?.textContent).toBe('已读'));
    expect(server.of('conversationInfo').slice(asked)).toEqual([{ student_id: 7, limit: 1 }]);
  });

  it('a photo: uploaded, then sent with its url; a refusal (no photo consent) shows the API’s message', async () => {
    const server = await open(<ParentChatPhone />, {
      parentChildren: () => ({ data: { list: [kid(7, '王小明')] } }),
      conversationInfo: () => ({ data: info() }),
      conversationSend: () => ({ code: Code.Error, msg: '该学生的监护人未同意使用照片，不能发送照片' }),
    });
    // the upload is multipart (not the fake server's JSON): answered here, then the rest as before
    const uploads: FormData[] = [];
    useTransport(async (req) => {
      if (req.body instanceof FormData) {
        uploads.push(req.body);
        return { status: 200, data: { code: Code.Ok, msg: 'ok', data: { url: '/uploads/2026-01/0b7c1b0e-3f5e-4d53-9a8f-2f0c6f1d2e3a.jpg' } } };
      }
      return server.transport(req);
    });
    await waitFor(() => expect($('[data-testid="chat-photo-file"]')).not.toBeNull());
    const input = $<HTMLInputElement>('[data-testid="chat-photo-file"]')!;
    const file = new File([new Uint8Array([0xff, 0xd8, 0xff])], 'a.jpg', { type: 'image/jpeg' });
    Object.defineProperty(input, 'files', { value: [file], configurable: true });
    await act(async () => input.dispatchEvent(new Event('change', { bubbles: true })));
    await waitFor(() => expect(server.of('conversationSend')).toHaveLength(1));
    expect(uploads[0].get('file')).toBeInstanceOf(File);
    expect(server.of('conversationSend')[0]).toMatchObject({ student_id: 7, photo_url: '/uploads/2026-01/0b7c1b0e-3f5e-4d53-9a8f-2f0c6f1d2e3a.jpg' });
    await waitFor(() => expect(fb.message.error).toHaveBeenCalled());
    expect(fb.message.error.mock.calls[0][0]).toMatchObject({ content: '该学生的监护人未同意使用照片，不能发送照片' });
    expect($$('[data-testid="chat-message"]')).toHaveLength(0);
  });

  it('several children: the switcher opens the other child’s conversation', async () => {
    const server = await open(<ParentChatPhone />, {
      parentChildren: () => ({ data: { list: [kid(7, '王小明'), kid(8, '王小红')] } }),
      conversationInfo: (q) => ({
        data: info({
          student: { id: q.student_id as number, name: 'x', class_name: null, photo_consent: true },
          messages: [message(q.student_id === '8' || q.student_id === 8 ? 80 : 70)],
        }),
      }),
    });
    await waitFor(() => expect($$('[data-testid="chat-message"]')).toHaveLength(1));
    await click([...document.querySelectorAll<HTMLElement>('.adm-capsule-tabs-tab')].find((t) => t.textContent === '王小红')!);
    await waitFor(() => expect($('[data-testid="chat-message"]')?.dataset.id).toBe('80'));
    expect(server.of('conversationInfo').map((q) => Number(q.student_id))).toEqual([7, 8]);
  });
});

describe('the staff’s phone pages (issue 40)', { timeout: 30_000 }, () => {
  beforeEach(() => {
    fb = signedIn(teacher, Identity.Teacher);
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

  it('/m/teacher_chats: the server’s order, the unread badge and the urgent tag; 只看未读 asks the server', async () => {
    const server = await open(
      <TeacherChatsPhone />,
      {
        conversationList: (q) =>
          q.unread ? pageReply([row(7, { unread: 2, urgent: true })]) : pageReply([row(7, { unread: 2, urgent: true }), row(8, { last: null })]),
      },
      '/m/teacher_chats',
    );
    await waitFor(() => expect($$('[data-testid="chat-row"]')).toHaveLength(2));
    const [a, b] = $$('[data-testid="chat-row"]');
    expect(a.textContent).toContain('学生7');
    expect(a.textContent).toContain('妈妈：今天奶奶来接');
    expect(a.querySelector('[data-testid="chat-row-urgent"]')?.textContent).toBe('紧急');
    expect(a.querySelector('[data-testid="chat-row-unread"]')?.textContent).toBe('2');
    expect(b.textContent).toContain('暂无消息');
    expect(b.querySelector('[data-testid="chat-row-unread"]')).toBeNull();
    await click([...document.querySelectorAll<HTMLElement>('.adm-capsule-tabs-tab')].find((t) => t.textContent === '只看未读')!);
    await waitFor(() => expect($$('[data-testid="chat-row"]')).toHaveLength(1));
    expect(server.of('conversationList').at(-1)).toMatchObject({ page: 1, unread: 1 });
  });

  it('/m/teacher_chats?student= (a console link opened on a phone): that child’s chat', async () => {
    await open(
      <Routes>
        <Route path="/m/teacher_chats" element={<TeacherChatsPhone />} />
        <Route path="/m/teacher_chat" element={<TeacherChatPhone />} />
      </Routes>,
      // not the next test's message: the same write within 2 s goes once (http.ts), whichever server is installed
      { conversationInfo: () => ({ data: info({ my_side: 'school', messages: [message(90, { side: 'family' })] }) }) },
      '/m/teacher_chats?student=7',
    );
    await waitFor(() => expect($$('[data-testid="chat-message"]')).toHaveLength(1));
    expect(text()).toContain('王小明的家长');
  });

  it('/m/teacher_chat: the school’s side: the school’s quick replies, no 紧急, no office notice; mine read by the family', async () => {
    const server = await open(
      <TeacherChatPhone />,
      {
        conversationInfo: () => ({
          data: info({
            my_side: 'school',
            office: { open_now: false, answers_at: null },
            read: { family: 2, school: null },
            messages: [message(1, { side: 'family', sender_id: 11, sender_name: '妈妈' }), message(2, { mine: true })],
          }),
        }),
        conversationSend: (input) => ({
          data: {
            message: message(3, { mine: true, quick: true, text: QUICK_REPLIES.school[input.quick_reply as number].zh }),
            office: { open_now: true, answers_at: null },
          },
        }),
      },
      '/m/teacher_chat?student=7',
    );
    await waitFor(() => expect($$('[data-testid="chat-message"]')).toHaveLength(2));
    expect(text()).toContain('王小明的家长');
    expect($('[data-testid="chat-urgent"]')).toBeNull();
    expect($('[data-testid="office-hours-notice"]')).toBeNull();
    expect($$('[data-testid="chat-message"]')[1].className).toContain('cv-mine');
    expect($$('[data-testid="chat-message"]')[1].querySelector('[data-testid="chat-read"]')?.textContent).toBe('已读');
    await click($('[data-testid="chat-quick"]')!);
    await waitFor(() => expect(buttonNamed(QUICK_REPLIES.school[1].zh)).toBeTruthy());
    expect(buttonNamed(QUICK_REPLIES.family[0].zh)).toBeUndefined();
    await click(buttonNamed(QUICK_REPLIES.school[1].zh)!);
    await waitFor(() => expect(server.of('conversationSend')).toHaveLength(1));
    expect(server.of('conversationSend')[0]).toMatchObject({ student_id: 7, quick_reply: 1 });
    expect(server.of('conversationSend')[0].urgent).toBeUndefined();
    // read up to the family's message (my own need no reading, before or after sending)
    await waitFor(() => expect(server.of('conversationRead')).toEqual([{ student_id: 7, upto_id: 1 }]));
  });

  it('设置 → 办公时间: the hours held, 现在在办公时间外, days and times saved together', async () => {
    let held: OfficeHoursInfo = { days: [1, 2, 3, 4, 5], start: '08:00', end: '18:00', is_default: true, open_now: false };
    const server = await open(
      <OfficeHoursSection />,
      {
        officeHoursInfo: () => ({ data: held }),
        officeHoursSave: (v) => {
          held = { ...(v as Pick<OfficeHoursInfo, 'days' | 'start' | 'end'>), is_default: false, open_now: true };
          return { data: held };
        },
      },
      '/m/settings',
    );
    await waitFor(() => expect($('[data-testid="office-now"]')?.textContent).toBe('现在在办公时间外'));
    expect(text()).toContain('默认时间');
    const save = $<HTMLButtonElement>('[data-testid="office-save"]')!;
    expect(save.disabled).toBe(true);
    // Saturday on, Friday off; 09:00–17:30
    await click([...document.querySelectorAll<HTMLElement>('[data-testid="office-days"] .adm-selector-item')].find((o) => o.textContent === '六')!);
    await click([...document.querySelectorAll<HTMLElement>('[data-testid="office-days"] .adm-selector-item')].find((o) => o.textContent === '五')!);
    await type($<HTMLInputElement>('[data-testid="office-start"]')!, '09:00');
    await type($<HTMLInputElement>('[data-testid="office-end"]')!, '17:30');
    await click($('[data-testid="office-save"]')!);
    await waitFor(() => expect(server.of('officeHoursSave')).toEqual([{ days: [1, 2, 3, 4, 6], start: '09:00', end: '17:30' }]));
    await waitFor(() => expect($('[data-testid="office-now"]')?.textContent).toBe('现在在办公时间内'));
    expect(fb.message.success).toHaveBeenCalled();
    // an end before the start cannot be saved
    await type($<HTMLInputElement>('[data-testid="office-end"]')!, '07:00');
    expect(text()).toContain('开始时间须早于结束时间');
    expect($<HTMLButtonElement>('[data-testid="office-save"]')!.disabled).toBe(true);
  });
});

describe('when the school answers, in words', () => {
  it.each([
    [0, '10:00', '今天 10:00'],
    [1, '08:00', '明天 08:00'],
  ])('in %i days at %s: %s', (days, clock, label) => {
    const now = instantOf(localDay(new Date(), DEFAULT_TIME_ZONE), '07:00', DEFAULT_TIME_ZONE);
    const at = instantOf(addDays(localDay(now, DEFAULT_TIME_ZONE), days), clock, DEFAULT_TIME_ZONE);
    expect(answersAtLabel(at.toISOString(), now, DEFAULT_TIME_ZONE, 'zh-CN')).toBe(label);
  });

  it('later in the week by the weekday (周一 08:00), further by the date', () => {
    const friday = '2026-01-09';
    expect(weekdayOf(friday)).toBe(5);
    const now = instantOf(friday, '22:00', DEFAULT_TIME_ZONE);
    expect(answersAtLabel(instantOf('2026-01-12', '08:00', DEFAULT_TIME_ZONE).toISOString(), now, DEFAULT_TIME_ZONE, 'zh-CN')).toBe('周一 08:00');
    expect(answersAtLabel(instantOf('2026-01-20', '08:00', DEFAULT_TIME_ZONE).toISOString(), now, DEFAULT_TIME_ZONE, 'zh-CN')).toBe('01/20 08:00');
  });
});
