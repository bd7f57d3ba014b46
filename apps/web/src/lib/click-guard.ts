import { useCallback, useEffect, useRef, useState } from 'react';
import { CLICK_GUARD_MS } from '@wantuo/shared';

/**
 * Click guard (spec §5): after a click the action is disabled for 2000 ms, so a double tap sends one request.
 * Returns the guarded handler and whether it is currently disabled.
 */
export function useClickGuard<A extends unknown[]>(fn: (...args: A) => unknown, ms = CLICK_GUARD_MS): [(...args: A) => void, boolean] {
  const [disabled, setDisabled] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const locked = useRef(false);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const guarded = useCallback(
    (...args: A) => {
      if (locked.current) return;
      locked.current = true;
      setDisabled(true);
      timer.current = setTimeout(() => {
        locked.current = false;
        setDisabled(false);
      }, ms);
      fn(...args);
    },
    [fn, ms],
  );
  return [guarded, disabled];
}

/**
 * The buttons that post a form: form submits, the OK of dialogs, confirmations and drawers, and any element marked
 * `data-click-guard`. Navigation, steppers and toggles are not guarded.
 */
export const WRITE_BUTTONS = [
  'button[type="submit"]',
  '.ant-modal-footer .ant-btn-primary',
  '.ant-modal-confirm-btns .ant-btn-primary',
  '.ant-popconfirm-buttons .ant-btn-primary',
  '.ant-popover-buttons .ant-btn-primary',
  '.ant-drawer-footer .ant-btn-primary',
  '.ant-drawer-extra .ant-btn-primary',
  '[data-click-guard]',
].join(', ');

/** The write button clicked last and when (the guard's own record, for locking it when its write goes). */
let lastButton: { el: HTMLButtonElement; at: number; ms: number } | null = null;
/** How long after a click a write still counts as that click's (form validation runs in between). */
const CLICK_TO_WRITE_MS = 1_000;
/** Buttons locked now: a click on one is swallowed. */
const locked = new Set<HTMLButtonElement>();

/** Whether the button is shown: in the document, and no ancestor hidden (a closed dialog or drawer). */
function shown(el: HTMLElement): boolean {
  if (!el.isConnected) return false;
  for (let e: HTMLElement | null = el; e; e = e.parentElement) {
    const st = getComputedStyle(e);
    if (st.display === 'none' || st.visibility === 'hidden') return false;
  }
  return true;
}

/**
 * The request layer calls this when it sends a write (a POST). The button whose click sent it is locked for the rest
 * of the guard's time: disabled, so the user sees it (and a browser test's next click waits for it), and a click on it
 * is swallowed. The lock ends early when the button is no longer shown: the dialog or drawer it posted closed, and
 * the next opening is a new form (a teacher letting thirty children leave one after another is not slowed down).
 */
export function noteWrite(at = Date.now()): void {
  const b = lastButton;
  if (!b || at - b.at > CLICK_TO_WRITE_MS || locked.has(b.el) || !b.el.isConnected) return;
  lastButton = null;
  const el = b.el;
  locked.add(el);
  const setByGuard = !el.disabled;
  if (setByGuard) {
    el.disabled = true;
    el.dataset.clickGuarded = '1';
  }
  const release = () => {
    clearTimeout(timer);
    clearInterval(watch);
    locked.delete(el);
    // restore only what the guard itself set (the page may have disabled the button meanwhile for its own reasons)
    if (setByGuard && el.dataset.clickGuarded === '1') {
      delete el.dataset.clickGuarded;
      el.disabled = false;
    }
  };
  const timer = setTimeout(release, Math.max(0, b.ms - (at - b.at)));
  const watch = setInterval(() => {
    if (!shown(el)) release();
  }, 100);
}

/**
 * Spec §5 everywhere a form posts, without wrapping each button: a click on a write button (form submits, the OK of
 * dialogs, confirmations and drawers, `data-click-guard`) that sends a write locks that button for 2000 ms (see
 * noteWrite); a click on a locked button is swallowed (capture phase, before React sees it). A click that sent nothing
 * (the form's validation failed) does not lock the button: the user fixes the field and submits again at once.
 * Returns the function that removes the guard.
 */
export function installClickGuard(root: Document = document, ms = CLICK_GUARD_MS): () => void {
  const onClick = (e: Event) => {
    const target = e.target instanceof Element ? e.target : null;
    const button = target?.closest(WRITE_BUTTONS);
    if (!(button instanceof HTMLButtonElement)) return;
    if (locked.has(button)) {
      e.preventDefault();
      e.stopImmediatePropagation();
      return;
    }
    lastButton = { el: button, at: Date.now(), ms };
  };
  root.addEventListener('click', onClick, true);
  return () => root.removeEventListener('click', onClick, true);
}

/**
 * The request layer's half of the guard: the same write (action and body) sent again within 2000 ms of the previous
 * write, with no other write between, is the same click twice (a double tap faster than the button could lock): it
 * gets the first request's answer instead of a second request.
 */
export function createWriteDeduper(ms = CLICK_GUARD_MS) {
  let last: { key: string; at: number; result: Promise<unknown>; failed: boolean } | null = null;
  return function dedupe<T>(key: string, send: () => Promise<T>): Promise<T> {
    const now = Date.now();
    if (last && last.key === key && now - last.at < ms && !last.failed) return last.result as Promise<T>;
    noteWrite(now);
    const result = send();
    const entry = { key, at: now, result: result as Promise<unknown>, failed: false };
    // a refused or failed write may be sent again at once (the user corrects something and retries)
    result.catch(() => {
      entry.failed = true;
    });
    last = entry;
    return result;
  };
}
