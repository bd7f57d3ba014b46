import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mount, unmountAll } from '../test-utils';
import { useAction, type Action } from './action';
import { setFeedback } from './feedback';
import { useTransport, type HttpRequest } from './http';
import { queryKey } from './query';

const fb = {
  message: { error: vi.fn(), success: vi.fn(), info: vi.fn() },
  notification: { error: vi.fn(), success: vi.fn(), info: vi.fn() },
  modal: { confirm: vi.fn() },
};
let seen: HttpRequest[] = [];
let answers: Array<(v: { status: number; data: unknown }) => void> = [];

beforeEach(() => {
  vi.clearAllMocks();
  seen = [];
  answers = [];
  setFeedback(fb as never);
  useTransport(
    (req) =>
      new Promise((resolve) => {
        seen.push(req);
        answers.push(resolve);
      }),
  );
});
afterEach(unmountAll);

type Opts = Parameters<typeof useAction<'delStudent'>>[1];
async function harness(opts: Opts, qc = new QueryClient()) {
  const box: { a: Action<'delStudent'> | null } = { a: null };
  function Probe() {
    box.a = useAction('delStudent', opts);
    return <span data-busy={String(box.a.busy)} />;
  }
  const el = await mount(
    <QueryClientProvider client={qc}>
      <Probe />
    </QueryClientProvider>,
  );
  return { el, action: () => box.a!, qc };
}
const settle = () => act(async () => new Promise((r) => setTimeout(r, 0)));

describe('useAction', () => {
  it('is busy while the write goes, drops a second run meanwhile, then toasts, invalidates by action and calls onDone', async () => {
    const qc = new QueryClient();
    qc.setQueryData(queryKey('studentList', { page: 1 }), { list: [] });
    qc.setQueryData(queryKey('teachersList'), { list: [] });
    const onDone = vi.fn();
    const { el, action } = await harness({ invalidates: ['studentList'], success: 'deleted', onDone }, qc);
    let first!: Promise<unknown>;
    let second!: Promise<unknown>;
    await act(async () => {
      first = action().run({ id: 1, version: 1 } as never);
      second = action().run({ id: 2, version: 1 } as never);
    });
    await settle();
    expect(el.querySelector('span')!.dataset.busy).toBe('true');
    await expect(second).resolves.toBeUndefined();
    expect(seen).toHaveLength(1);
    await act(async () => answers[0]({ status: 200, data: { code: 200, msg: 'ok', data: { ok: 1 } } }));
    await expect(first).resolves.toEqual({ ok: 1 });
    await settle();
    expect(el.querySelector('span')!.dataset.busy).toBe('false');
    expect(fb.message.success).toHaveBeenCalledWith('deleted');
    expect(onDone).toHaveBeenCalledWith({ ok: 1 }, { id: 1, version: 1 });
    expect(qc.getQueryState(queryKey('studentList', { page: 1 }))!.isInvalidated).toBe(true);
    expect(qc.getQueryState(queryKey('teachersList'))!.isInvalidated).toBe(false);
  });

  it('a refusal is shown once by the request wrapper (the envelope message), answers undefined and calls onError', async () => {
    const onDone = vi.fn();
    const onError = vi.fn();
    const { action } = await harness({ success: 'deleted', onDone, onError });
    let run!: Promise<unknown>;
    await act(async () => {
      run = action().run({ id: 3, version: 1 } as never);
    });
    await settle();
    await act(async () => answers[0]({ status: 200, data: { code: 100, msg: 'stale version', data: null } }));
    await expect(run).resolves.toBeUndefined();
    expect(fb.message.error).toHaveBeenCalledTimes(1);
    expect(fb.message.error.mock.calls[0][0]).toMatchObject({ content: 'stale version' });
    expect(fb.message.success).not.toHaveBeenCalled();
    expect(onDone).not.toHaveBeenCalled();
    expect(onError.mock.calls[0][0]).toMatchObject({ code: 100, message: 'stale version' });
  });

  it('silent: nothing shown, the caller handles the refusal', async () => {
    const onError = vi.fn();
    const { action } = await harness({ silent: true, onError });
    let run!: Promise<unknown>;
    await act(async () => {
      run = action().run({ id: 4, version: 1 } as never);
    });
    await settle();
    await act(async () => answers[0]({ status: 200, data: { code: 100, msg: 'no', data: null } }));
    await expect(run).resolves.toBeUndefined();
    expect(fb.message.error).not.toHaveBeenCalled();
    expect(onError).toHaveBeenCalledTimes(1);
  });
});
