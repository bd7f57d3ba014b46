import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, expect, it, vi } from 'vitest';
import { StatusPage } from './status-page';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

function respond(body: unknown) {
  return Promise.resolve(new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } }));
}

afterEach(() => {
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
});

async function render() {
  const el = document.createElement('div');
  document.body.appendChild(el);
  await act(async () => {
    createRoot(el).render(<StatusPage />);
  });
  await act(async () => new Promise((r) => setTimeout(r, 0)));
  return el;
}

it('shows the site name and service status from the API', async () => {
  vi.stubGlobal('fetch', (url: string) =>
    url.includes('health')
      ? respond({ code: 200, msg: '成功', data: { status: 'ok', database: 'up', redis: 'not configured' } })
      : respond({ code: 200, msg: '成功', data: { site_name: '晚托管理平台' } }),
  );
  const el = await render();
  expect(el.textContent).toContain('晚托管理平台');
  expect(el.textContent).toContain('not configured');
});

it('shows an error state when the API is down', async () => {
  vi.stubGlobal('fetch', () => Promise.reject(new Error('offline')));
  const el = await render();
  expect(el.textContent).toContain('无法连接服务');
});
