import { CLICK_GUARD_MS } from '@wantuo/shared';

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
 * Holds `el` disabled until the returned release runs, whatever the page renders meanwhile: React re-enabling it (its
 * own busy state ending with the request, well before 2000 ms) is noted as the page's wish and undone; on release the
 * button gets the page's latest wish (disabled or not), never a state the guard invented.
 */
function holdDisabled(el: HTMLButtonElement): () => void {
  let wish = el.disabled;
  const observer = new MutationObserver(() => {
    // every record here is the page's (the guard's own writes are taken out below): the page now wants `el.disabled`
    wish = el.disabled;
    if (!el.disabled) set(true);
  });
  const set = (v: boolean) => {
    el.disabled = v;
    observer.takeRecords();
  };
  observer.observe(el, { attributes: true, attributeFilter: ['disabled'] });
  set(true);
  el.dataset.clickGuarded = '1';
  return () => {
    if (observer.takeRecords().length) wish = el.disabled;
    observer.disconnect();
    delete el.dataset.clickGuarded;
    el.disabled = wish;
  };
}

/**
 * The request layer calls this when it sends a write (a POST, an upload, a flow step queued offline). The button
 * whose click sent it is locked for the rest of the guard's time: disabled, so the user sees it (and a browser test's
 * next click waits for it), and a click on it is swallowed. The lock ends early when the button is no longer shown:
 * the dialog or drawer it posted closed, and the next opening is a new form (a teacher letting thirty children leave
 * one after another is not slowed down).
 */
export function noteWrite(at = Date.now()): void {
  const b = lastButton;
  if (!b || at - b.at > CLICK_TO_WRITE_MS || locked.has(b.el) || !b.el.isConnected) return;
  lastButton = null;
  const el = b.el;
  locked.add(el);
  const unhold = holdDisabled(el);
  const release = () => {
    clearTimeout(timer);
    clearInterval(watch);
    locked.delete(el);
    unhold();
  };
  const timer = setTimeout(release, Math.max(0, b.ms - (at - b.at)));
  const watch = setInterval(() => {
    if (!shown(el)) release();
  }, 100);
}

/**
 * Spec §5 for every button that writes, without wrapping each one: a click on any button (a form's submit, the OK of
 * a dialog, confirmation or drawer, a step, approve or clock-in button of a page) that sends a write locks that
 * button for 2000 ms (see noteWrite); a click on a locked button is swallowed (capture phase, before React sees it).
 * A click that sent nothing (navigation, a toggle, a form whose validation failed) locks nothing: the user fixes the
 * field and submits again at once. Returns the function that removes the guard.
 */
export function installClickGuard(root: Document = document, ms = CLICK_GUARD_MS): () => void {
  const onClick = (e: Event) => {
    const target = e.target instanceof Element ? e.target : null;
    const button = target?.closest('button');
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
