import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Code, Identity, Role, type FlowBoardStudent } from '@wantuo/shared';
import { act } from 'react';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mount, unmountAll } from '../../test-utils';
import { fakeServer, feedbackSpies, type Reply, signedIn } from '../privacy/fake-server';

const tel = vi.hoisted(() => ({ openTel: vi.fn(), telHref: (m: string) => `tel:${m.replace(/[^\d+]/g, '')}` }));
vi.mock('../../lib/tel', () => tel);

const { default: TeacherToday } = await import('./today');

const $ = <E extends HTMLElement = HTMLElement>(sel: string) => document.querySelector<E>(sel);
const $$ = (sel: string) => [...document.querySelectorAll<HTMLElement>(sel)];
const text = () => document.body.textContent ?? '';
const click = (el: HTMLElement) => act(async () => el.click());
const waitFor = <T,>(check: () => T) => vi.waitFor(check, { timeout: 10_000 });

const student = (id: number, name: string, over: Partial<FlowBoardStudent> = {}): FlowBoardStudent => ({
  id,
  name,
  gender: 1,
  grade: '三年级',
  class_name: '2班',
  day_school: '实验小学',
  photo_url: null,
  allergies: null,
  needs_shuttle: false,
  needs_dinner: true,
  tutoring_type: null,
  class_id: 3,
  care_class_name: '晚托一班',
  state: 'in_centre',
  on_leave: false,
  version: 2,
  picked_up_at: null,
  entered_at: '2026-01-06T08:30:00.000Z',
  dinner_at: null,
  tutor_started_at: null,
  tutor_ended_at: null,
  left_at: null,
  left_with: null,
  pickup_verified: null,
  pickup_override: null,
  pickup_people: [
    { id: 21, name: '王妈妈', relation: '母亲', mobile: '138****0001' },
    { id: 22, name: '王爸爸', relation: '父亲', mobile: '13900000002' },
  ],
  contract_units_left: null,
  ...over,
});
const board = (students: FlowBoardStudent[]) => ({ data: { day: '2026-01-06', position: 1, students } });

let fb: ReturnType<typeof feedbackSpies>;
beforeEach(() => {
  tel.openTel.mockClear();
  fb = signedIn({ id: 5, role: Role.Teacher, nickname: '李老师', avatar_text: '李', school_id: 1 }, Identity.Teacher);
});

async function open(answers: Record<string, (input: Record<string, unknown>) => Reply>) {
  const server = fakeServer(answers);
  await mount(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={['/m/teacher_today']}>
        <TeacherToday />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return server;
}

/** the 离园 sheet of the first row: the row selected, then the step tapped */
async function openLeaveSheet() {
  await waitFor(() => expect($$('[data-testid="flow-row"]').length).toBeGreaterThan(0));
  await click($$('[data-testid="flow-row"]')[0]);
  await waitFor(() => expect($<HTMLButtonElement>('button[data-step="leave"]')?.disabled).toBe(false));
  await click($('button[data-step="leave"]')!);
  await waitFor(() => expect($('[data-testid="leave-sheet"]')).not.toBeNull());
}

describe('今日 on the teacher’s phone: 拨打 a pick-up person (issue 37)', { timeout: 30_000 }, () => {
  it('the board’s rows from the server', async () => {
    const server = await open({ flowBoard: () => board([student(7, '王小明'), student(8, '李小红')]) });
    await waitFor(() => expect($$('[data-testid="flow-row"]')).toHaveLength(2));
    expect(text()).toContain('王小明');
    expect(text()).toContain('李小红');
    expect(server.of('flowBoard')).toHaveLength(1);
  });

  it('the empty state, and the error state', async () => {
    await open({ flowBoard: () => board([]) });
    await waitFor(() => expect(text()).toContain('没有符合条件的学生'));
    await unmountAll();
    document.body.innerHTML = '';
    await open({ flowBoard: () => ({ code: Code.Error, msg: '服务暂不可用' }) });
    await waitFor(() => expect($$('button').some((b) => b.textContent?.includes('重试'))).toBe(true));
  });

  it('a masked mobile: 拨打 asks callGuardian for the number (logged), then opens the dialler with it', async () => {
    const server = await open({
      flowBoard: () => board([student(7, '王小明')]),
      callGuardian: () => ({ data: { mobile: '13800000001', name: '王妈妈' } }),
    });
    await openLeaveSheet();
    const sheet = $('[data-testid="leave-sheet"]')!;
    expect(sheet.textContent).toContain('138****0001');
    const call = sheet.querySelector<HTMLButtonElement>('button[data-testid="call-button"]')!;
    expect(call.getAttribute('aria-label')).toBe('拨打 王妈妈');
    await click(call);
    await waitFor(() => expect(tel.openTel).toHaveBeenCalledWith('tel:13800000001'));
    expect(server.of('callGuardian')).toEqual([{ student_id: 7, pickup_person_id: 21 }]);
    // the tap did not change who collects the child
    expect(sheet.querySelector('.adm-check-list-item-active')?.textContent ?? '').toContain('王妈妈');
  });

  it('a whole mobile: a plain tel: link, nothing asked', async () => {
    const server = await open({ flowBoard: () => board([student(7, '王小明')]) });
    await openLeaveSheet();
    const link = $$('[data-testid="leave-sheet"] a[data-testid="call-link"]');
    expect(link).toHaveLength(1);
    expect(link[0].getAttribute('href')).toBe('tel:13900000002');
    expect(link[0].getAttribute('aria-label')).toBe('拨打 王爸爸');
    expect(server.of('callGuardian')).toEqual([]);
  });

  it('a refused call is shown by the request wrapper; the dialler stays closed', async () => {
    // another child than the tests above (the same write within 2 s is sent once)
    await open({
      flowBoard: () => board([student(9, '赵小天')]),
      callGuardian: () => ({ code: Code.Error, msg: '未找到该联系人' }),
    });
    await openLeaveSheet();
    await click($('[data-testid="leave-sheet"] button[data-testid="call-button"]')!);
    await waitFor(() => expect(fb.message.error).toHaveBeenCalled());
    expect(tel.openTel).not.toHaveBeenCalled();
  });
});
