import { Identity } from '@wantuo/shared';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { cookies } from '../lib/storage';
import { useSession } from '../stores/session';
import { setFeedback } from './feedback';
import { ApiError, fetchTransport, get, post, queryString, setReloginHandler, upload, useTransport, type HttpRequest, type Transport } from './http';

const fb = {
  message: { error: vi.fn(), success: vi.fn(), info: vi.fn() },
  notification: { error: vi.fn(), success: vi.fn(), info: vi.fn() },
  modal: { confirm: vi.fn() },
};
let seen: HttpRequest[] = [];

function answer(status: number, data: unknown): Transport {
  return async (req) => {
    seen.push(req);
    return { status, data };
  };
}

beforeEach(() => {
  vi.clearAllMocks();
  seen = [];
  setFeedback(fb as never);
  cookies.remove('token');
  useSession.setState({ token: null, user: null, identity: Identity.None });
});

describe('request wrapper (spec §7, §8)', () => {
  it('GET sends the payload as query, under /api/index, with a 30 s timeout and the token header when there is a token', async () => {
    cookies.set('token', 'tk1');
    useTransport(answer(200, { code: 200, msg: 'ok', data: { id: 1 } }));
    await expect(get('teachersList', { page: 2 })).resolves.toEqual({ id: 1 });
    expect(seen[0]).toMatchObject({ method: 'GET', url: '/index/teachersList', params: { page: 2 }, timeout: 30000 });
    expect(seen[0].headers.get('token')).toBe('tk1');
  });

  it('POST sends JSON; no token header without a token', async () => {
    useTransport(answer(200, { code: 200, msg: 'ok', data: {} }));
    await post('login', { account: 'a', password: 'p' });
    expect(seen[0].method).toBe('POST');
    expect(JSON.parse(seen[0].body as string)).toEqual({ account: 'a', password: 'p' });
    expect(seen[0].headers.get('Content-Type')).toBe('application/json');
    expect(seen[0].headers.has('token')).toBe(false);
  });

  it('uploads as multipart form data', async () => {
    useTransport(answer(200, { code: 200, msg: 'ok', data: {} }));
    const form = new FormData();
    form.append('file', new Blob(['x']), 'a.txt');
    await upload('upload', form);
    expect(seen[0].body).toBeInstanceOf(FormData);
    // the browser writes the multipart boundary itself
    expect(seen[0].headers.has('Content-Type')).toBe(false);
  });

  it('passes blob answers through untouched', async () => {
    const blob = new Blob(['%PDF']);
    useTransport(answer(200, blob));
    await expect(get('coursewarePdf', { section_id: 1 }, { responseType: 'blob' })).resolves.toBe(blob);
  });

  it('code 100: error toast with the server message, call rejected', async () => {
    useTransport(answer(200, { code: 100, msg: '账号或密码错误', data: null }));
    await expect(post('login', { account: 'a', password: 'wrong' })).rejects.toMatchObject({ code: 100, message: '账号或密码错误' });
    expect(fb.message.error).toHaveBeenCalledWith({ content: '账号或密码错误', duration: 3 });
    expect(fb.notification.error).not.toHaveBeenCalled();
  });

  it('code 401: session cleared, one 系统提示 dialog (重新登录 / 取消), a toast while it is open', async () => {
    useSession.setState({ token: 't', user: { id: 1, role: 1, nickname: 'n', avatar_text: null, school_id: 1 }, identity: Identity.Principal });
    const relogin = vi.fn();
    setReloginHandler(relogin);
    useTransport(answer(200, { code: 401, msg: 'expired', data: null }));
    await expect(get('userInfo')).rejects.toBeInstanceOf(ApiError);
    expect(useSession.getState()).toMatchObject({ token: null, user: null, identity: Identity.None });
    expect(fb.modal.confirm).toHaveBeenCalledTimes(1);
    const dialog = fb.modal.confirm.mock.calls[0][0];
    expect(dialog).toMatchObject({
      title: '系统提示',
      content: '登录状态已过期，您可以继续留在该页面，或者重新登录',
      okText: '重新登录',
      cancelText: '取消',
    });

    await expect(get('userInfo')).rejects.toBeInstanceOf(ApiError);
    expect(fb.modal.confirm).toHaveBeenCalledTimes(1);
    expect(fb.message.error).toHaveBeenCalledWith({ content: '无效的会话，或者会话已过期，请重新登录。', duration: 3 });

    dialog.onOk();
    expect(relogin).toHaveBeenCalled();
    dialog.afterClose();
    await expect(get('userInfo')).rejects.toBeInstanceOf(ApiError);
    expect(fb.modal.confirm).toHaveBeenCalledTimes(2);
    fb.modal.confirm.mock.calls[1][0].afterClose();
  });

  it('any other code: error notification with the server message', async () => {
    useTransport(answer(500, { code: 500, msg: '服务器内部错误（错误编号 x）', data: { errorId: 'x' } }));
    await expect(get('index')).rejects.toMatchObject({ code: 500 });
    expect(fb.notification.error).toHaveBeenCalledWith({ title: '服务器内部错误（错误编号 x）', duration: 4.5 });
  });

  it('HTTP 404 (an action not built yet) and network failures: notification, default message 请求失败', async () => {
    useTransport(answer(404, { code: 404, msg: '请求的接口不存在', data: null }));
    await expect(get('studentList')).rejects.toMatchObject({ code: 404 });
    expect(fb.notification.error).toHaveBeenLastCalledWith({ title: '请求的接口不存在', duration: 4.5 });
    useTransport(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(get('index')).rejects.toMatchObject({ code: 0, message: '请求失败' });
    expect(fb.notification.error).toHaveBeenLastCalledWith({ title: '请求失败', duration: 4.5 });
  });

  it('a success envelope without msg on failure falls back to 请求失败', async () => {
    useTransport(answer(200, { code: 100 }));
    await expect(post('logout')).rejects.toMatchObject({ message: '请求失败' });
  });

  it('silent calls show nothing (the start-up index call)', async () => {
    useTransport(answer(200, { code: 100, msg: 'no', data: null }));
    await expect(get('index', undefined, { silent: true })).rejects.toBeInstanceOf(ApiError);
    expect(fb.message.error).not.toHaveBeenCalled();
    expect(fb.notification.error).not.toHaveBeenCalled();
  });

  it('the query string: arrays as repeated keys, nothing for undefined or null', () => {
    expect(queryString({ page: 2, ids: [1, 2], q: undefined, x: null, kw: '王 小' })).toBe('?page=2&ids=1&ids=2&kw=%E7%8E%8B+%E5%B0%8F');
    expect(queryString({})).toBe('');
  });

  it('the fetch transport: /api prefix, the query, the headers, the body; JSON parsed, a non-JSON body is null', async () => {
    const calls: Array<[string, RequestInit]> = [];
    const realFetch = globalThis.fetch;
    globalThis.fetch = (async (url: string, init: RequestInit) => {
      calls.push([url, init]);
      return new Response(url.includes('bad') ? '<html>' : JSON.stringify({ code: 200, msg: 'ok', data: 7 }), { status: 200 });
    }) as typeof fetch;
    try {
      const headers = new Headers({ token: 't' });
      await expect(
        fetchTransport({ method: 'GET', url: '/index/a', params: { page: 1 }, headers, responseType: 'json', timeout: 1000 }),
      ).resolves.toEqual({
        status: 200,
        data: { code: 200, msg: 'ok', data: 7 },
      });
      expect(calls[0][0]).toBe('/api/index/a?page=1');
      expect(new Headers(calls[0][1].headers).get('token')).toBe('t');
      await expect(fetchTransport({ method: 'POST', url: '/index/bad', body: '{}', headers, responseType: 'json', timeout: 1000 })).resolves.toEqual({
        status: 200,
        data: null,
      });
      expect(calls[1][1]).toMatchObject({ method: 'POST', body: '{}' });
    } finally {
      globalThis.fetch = realFetch;
    }
  });

  it('a request that takes longer than its timeout fails as a network failure (请求失败)', async () => {
    const realFetch = globalThis.fetch;
    globalThis.fetch = ((_url: string, init: RequestInit) =>
      new Promise((_, reject) => init.signal?.addEventListener('abort', () => reject(new DOMException('timeout', 'TimeoutError'))))) as typeof fetch;
    try {
      await expect(
        fetchTransport({ method: 'GET', url: '/index/slow', headers: new Headers(), responseType: 'json', timeout: 20 }),
      ).rejects.toThrow();
      useTransport(fetchTransport);
    } finally {
      globalThis.fetch = realFetch;
    }
  });
});
