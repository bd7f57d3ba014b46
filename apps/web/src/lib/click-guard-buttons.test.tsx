import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Role, type FlowBoardStudent, type LeaveRequestRow, type TeacherTodayTask } from '@wantuo/shared';
import { act, type ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { useTransport, type Transport } from '../api/http';
import { useSession } from '../stores/session';
import { mount } from '../test-utils';
import { installClickGuard } from './click-guard';

// the boards' socket is not part of this (the flow screens connect it on mount)
vi.mock('../areas/flow/use-flow-live', () => ({ useFlowLive: () => ({ live: false }) }));

const { StepBar, stepsOf, useStepRunner } = await import('../areas/flow/step-runner');
const { default: LeaveReview } = await import('../areas/flow/leave-review');
const { default: AdviserHome } = await import('../areas/flow/adviser-home');

/** The API as the page sees it: GET answers by action, every POST counted and answered `posted`. */
let answers: Record<string, unknown> = {};
let posts: string[] = [];
const transport: Transport = async (req) => {
  const action = req.url.replace('/index/', '');
  if (req.method === 'POST') posts.push(action);
  const data = req.method === 'POST' ? answers[`POST ${action}`] : answers[action];
  return { status: 200, data: { code: 200, msg: 'ok', data } };
};

let removeGuard: () => void;
beforeAll(() => {
  useTransport(transport);
  removeGuard = installClickGuard();
});
afterAll(() => removeGuard());
beforeEach(() => {
  vi.useFakeTimers();
  answers = {};
  posts = [];
});
afterEach(() => {
  vi.useRealTimers();
  useSession.setState({ token: null, user: null });
  document.body.innerHTML = '';
});

const withQuery = (node: ReactNode) => (
  <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
    <MemoryRouter>{node}</MemoryRouter>
  </QueryClientProvider>
);
const settle = () => act(async () => void (await vi.advanceTimersByTimeAsync(0)));
/** The element `selector` whose text is `text`, once the page has rendered it (its queries answered). */
async function shown<E extends HTMLElement>(selector: string, text: string): Promise<E> {
  for (let i = 0; i < 100; i++) {
    const found = [...document.querySelectorAll<E>(selector)].find((b) => b.textContent?.replace(/\s/g, '') === text);
    if (found) return found;
    await settle();
  }
  throw new Error(`no ${selector} ${text} in: ${document.body.textContent?.slice(0, 300)}`);
}

/**
 * Spec §5: the button is disabled from the click for 2000 ms (a second click in between sends nothing), then the
 * page's own state again.
 */
async function expectGuarded(text: string, action: string) {
  const button = await shown<HTMLButtonElement>('button', text);
  expect(button.disabled).toBe(false);
  await act(async () => button.click());
  await settle();
  expect(posts).toEqual([action]);
  expect(button.disabled, `${text} right after its click`).toBe(true);
  await act(async () => void (await vi.advanceTimersByTimeAsync(1_000)));
  expect(button.disabled, `${text} 1000 ms after its click`).toBe(true);
  await act(async () => button.click());
  await act(async () => void (await vi.advanceTimersByTimeAsync(998)));
  expect(button.disabled, `${text} 1998 ms after its click`).toBe(true);
  expect(posts).toEqual([action]);
  await act(async () => void (await vi.advanceTimersByTimeAsync(10)));
  expect(button.disabled, `${text} 2008 ms after its click`).toBe(false);
  await act(async () => button.click());
  await settle();
  expect(posts).toEqual([action, action]);
}

const student: FlowBoardStudent = {
  id: 7,
  name: '小明',
  gender: 1,
  grade: null,
  class_name: null,
  day_school: null,
  photo_url: null,
  allergies: null,
  needs_shuttle: false,
  needs_dinner: true,
  tutoring_type: null,
  class_id: 1,
  care_class_name: '一班',
  state: 'expected',
  on_leave: false,
  version: 1,
  picked_up_at: null,
  entered_at: null,
  dinner_at: null,
  tutor_started_at: null,
  tutor_ended_at: null,
  left_at: null,
  left_with: null,
  pickup_verified: null,
  pickup_override: null,
  pickup_people: [],
  contract_units_left: null,
};

describe('every button that writes is locked for 2000 ms after its click (spec §5, one document guard)', { timeout: 30_000 }, () => {
  it('a step button of the teacher’s step bar (step-runner)', async () => {
    answers['POST studentEnter'] = { results: [{ student_id: 7, ok: true }] };
    function Bar() {
      const runner = useStepRunner([student], async () => undefined);
      return <StepBar steps={stepsOf('enter')} runner={runner} chosen={1} />;
    }
    await mount(withQuery(<Bar />));
    await expectGuarded('入园', 'studentEnter');
  });

  it('a step button tapped without a network (the tap waits in the offline queue: a write too)', async () => {
    const offline = vi.spyOn(window.navigator, 'onLine', 'get').mockReturnValue(false);
    try {
      function Bar() {
        const runner = useStepRunner([student], async () => undefined);
        return <StepBar steps={stepsOf('enter')} runner={runner} chosen={1} />;
      }
      await mount(withQuery(<Bar />));
      const button = await shown<HTMLButtonElement>('button', '入园');
      await act(async () => button.click());
      await settle();
      expect(JSON.parse(localStorage.getItem('_flow_queue') ?? '{}').content).toHaveLength(1);
      expect(button.disabled, 'a queued tap locks its button').toBe(true);
      await act(async () => button.click());
      await act(async () => void (await vi.advanceTimersByTimeAsync(2_000)));
      expect(button.disabled).toBe(false);
      expect(JSON.parse(localStorage.getItem('_flow_queue') ?? '{}').content).toHaveLength(1);
    } finally {
      offline.mockRestore();
      localStorage.removeItem('_flow_queue');
    }
  });

  it('批准 (approve) of the leave review drawer', async () => {
    const row: LeaveRequestRow = {
      id: 3,
      student_id: 7,
      student_name: '小明',
      class_id: 1,
      class_name: '一班',
      requested_by: 9,
      requested_by_name: '王芳',
      start_day: '2025-03-03',
      end_day: '2025-03-03',
      days: 1,
      reason: '看病',
      status: 0,
      reviewed_by: null,
      reviewed_by_name: null,
      review_note: null,
      reviewed_at: null,
      version: 1,
      created_at: '2025-03-01T02:00:00.000Z',
    };
    // the head teacher decides (a teacher only reads)
    useSession.setState({ token: 't', user: { id: 1, role: Role.HeadTeacher, nickname: '班主任' } as never });
    answers.teacherStudentLeaveList = { list: [row], total: 1, page: 1, limit: 20 };
    // still pending when read again (another head teacher's decision not seen yet): the button stays on the page
    answers.teacherStudentLeaveInfo = row;
    answers['POST auditStudentInfo'] = { leave: row, days: [] };
    await mount(withQuery(<LeaveReview />));
    await settle();
    // a click on the request's row opens it in the drawer
    const open = await shown('tr.ant-table-row td', '小明');
    await act(async () => open.click());
    await settle();
    await expectGuarded('批准', 'auditStudentInfo');
  });

  it('上班打卡 (clock-in) of the head teacher’s home', async () => {
    const today: TeacherTodayTask = {
      day: '2025-03-03',
      classes: [],
      total: 0,
      states: { expected: 0, picked_up: 0, in_centre: 0, left: 0, on_leave: 0 },
      to_pick_up: 0,
      to_feed: 0,
      to_tutor: 0,
      tutoring: 0,
      to_hand_over: 0,
      students: {} as TeacherTodayTask['students'],
      clock: null,
    };
    answers.teacherTodayTask = today;
    answers.flowAlerts = { list: [], total: 0, page: 1, limit: 50 };
    answers['POST teacherClockIn'] = {};
    await mount(withQuery(<AdviserHome />));
    await settle();
    await expectGuarded('上班打卡', 'teacherClockIn');
  });
});
