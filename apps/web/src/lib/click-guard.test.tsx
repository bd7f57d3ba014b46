import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { GuardedButton } from '../components/guarded-button';
import { MoneyInput } from '../components/money-input';
import { useState } from 'react';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  document.body.innerHTML = '';
});

async function mount(node: React.ReactNode) {
  const el = document.createElement('div');
  document.body.appendChild(el);
  await act(async () => createRoot(el).render(node));
  return el;
}

it('a guarded button acts once per 2000 ms', async () => {
  const onClick = vi.fn();
  const el = await mount(<GuardedButton onClick={onClick}>提交</GuardedButton>);
  const button = el.querySelector('button')!;
  await act(async () => button.click());
  await act(async () => button.click());
  expect(onClick).toHaveBeenCalledTimes(1);
  expect(button.disabled).toBe(true);
  await act(async () => vi.advanceTimersByTime(1999));
  await act(async () => button.click());
  expect(onClick).toHaveBeenCalledTimes(1);
  await act(async () => vi.advanceTimersByTime(1));
  expect(button.disabled).toBe(false);
  await act(async () => button.click());
  expect(onClick).toHaveBeenCalledTimes(2);
});

it('the money input keeps digits and one dot, at most 2 decimals', async () => {
  let latest = '';
  function Harness() {
    const [v, setV] = useState('');
    latest = v;
    return <MoneyInput value={v} onChange={setV} />;
  }
  const el = await mount(<Harness />);
  const input = el.querySelector('input')!;
  const type = async (text: string) => {
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
    await act(async () => {
      setter.call(input, text);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
  };
  await type('12.345');
  expect(latest).toBe('12.34');
  await type('.5');
  expect(latest).toBe('0.5');
  await type('');
  expect(latest).toBe('0');
  await type('¥1a2.3.4');
  expect(latest).toBe('12.34');
});
