import { act } from 'react';
import { afterEach, expect, it, vi } from 'vitest';
import { mount } from '../test-utils';
import { LoadError } from './states';

afterEach(() => {
  document.body.innerHTML = '';
});

it('a failed load says so with a retry button at once, then in antd’s Result once it has loaded', async () => {
  const retry = vi.fn();
  const el = await mount(<LoadError message="网络错误" onRetry={retry} />);
  // the first render (Result not loaded yet, or already): the words and the button are there either way
  expect(el.textContent).toContain('网络错误');
  // the chunk's import may take a while on a loaded machine: a backstop, not a timing check
  await vi.waitFor(() => expect(el.querySelector('.ant-result')).not.toBeNull(), { timeout: 15_000 });
  expect(el.textContent).toContain('网络错误');
  const button = el.querySelector('button')!;
  await act(async () => button.click());
  expect(retry).toHaveBeenCalledTimes(1);
});
