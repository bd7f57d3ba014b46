import { act } from 'react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { mount } from '../test-utils';
import { MoneyInput } from '../components/money-input';
import { useState } from 'react';

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  document.body.innerHTML = '';
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

it('every write button ignores a second click within 2000 ms of a click that sent a write (document guard)', async () => {
  const { installClickGuard, noteWrite } = await import('./click-guard');
  const remove = installClickGuard();
  try {
    const submits: number[] = [];
    const el = document.createElement('div');
    el.innerHTML =
      '<form><input name="x"><button type="submit">保存</button></form><div class="ant-modal-footer"><button class="ant-btn ant-btn-primary">确定</button></div><button id="nav">下一页</button>';
    document.body.appendChild(el);
    const form = el.querySelector('form')!;
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      submits.push(Date.now());
      noteWrite();
    });
    const submit = el.querySelector<HTMLButtonElement>('button[type="submit"]')!;
    submit.click();
    // the button that sent the write is locked, visibly
    expect(submit.disabled).toBe(true);
    submit.disabled = false; // even a button re-enabled by someone else ignores the second click
    submit.click();
    expect(submits).toHaveLength(1);
    vi.advanceTimersByTime(2000);
    expect(submit.disabled).toBe(false);
    submit.click();
    expect(submits).toHaveLength(2);

    // a click that sent nothing (validation failed) does not lock the button
    let ok = 0;
    const okButton = el.querySelector<HTMLButtonElement>('.ant-modal-footer button')!;
    okButton.addEventListener('click', () => ok++);
    vi.advanceTimersByTime(10);
    okButton.click();
    vi.advanceTimersByTime(10);
    okButton.click();
    expect(ok).toBe(2);
    noteWrite();
    vi.advanceTimersByTime(10);
    okButton.click();
    expect(ok).toBe(2);

    // the lock ends as soon as its dialog closes: the next opening is a new form
    const wrap = document.createElement('div');
    wrap.innerHTML = '<div class="ant-modal-footer"><button class="ant-btn ant-btn-primary">离园</button></div>';
    el.appendChild(wrap);
    let left = 0;
    const leave = wrap.querySelector<HTMLButtonElement>('button')!;
    leave.addEventListener('click', () => {
      left++;
      noteWrite();
    });
    leave.click();
    expect(leave.disabled).toBe(true);
    wrap.style.display = 'none';
    vi.advanceTimersByTime(150);
    expect(leave.disabled).toBe(false);
    wrap.style.display = '';
    leave.click();
    expect(left).toBe(2);

    // buttons that do not post are never guarded
    let nav = 0;
    const next = el.querySelector<HTMLButtonElement>('#nav')!;
    next.addEventListener('click', () => nav++);
    next.click();
    next.click();
    expect(nav).toBe(2);
  } finally {
    remove();
  }
});

it('the same write sent twice within 2000 ms goes once; a failed one may be sent again', async () => {
  const { createWriteDeduper } = await import('./click-guard');
  const dedupe = createWriteDeduper();
  const send = vi.fn(() => Promise.resolve('ok'));
  await dedupe('saveX {"a":1}', send);
  await dedupe('saveX {"a":1}', send);
  expect(send).toHaveBeenCalledTimes(1);
  await dedupe('saveX {"a":2}', send);
  expect(send).toHaveBeenCalledTimes(2);
  vi.advanceTimersByTime(2000);
  await dedupe('saveX {"a":2}', send);
  expect(send).toHaveBeenCalledTimes(3);
  const fail = vi.fn(() => Promise.reject(new Error('refused')));
  await expect(dedupe('pay {}', fail)).rejects.toThrow('refused');
  await expect(dedupe('pay {}', fail)).rejects.toThrow('refused');
  expect(fail).toHaveBeenCalledTimes(2);
});
