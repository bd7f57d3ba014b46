import type { MessageInstance } from 'antd/es/message/interface';
import type { NotificationInstance } from 'antd/es/notification/interface';
import type { ModalFuncProps } from 'antd';

/**
 * How the request wrapper, the router and global error handlers talk to the user: antd's message (toasts),
 * notification and confirm dialog on the desktop consoles, antd-mobile's toasts and dialog in the phone app. Each
 * entry says which: the desktop's main.tsx gives the loader of antd's (they load on first use: they are not needed to
 * show the sign-in page), the phone's main.tsx its own; tests inject theirs with setFeedback. Nothing here names antd's
 * code, so the phone's bundle never holds it.
 */
export interface Feedback {
  message: Pick<MessageInstance, 'error' | 'success' | 'info'>;
  notification: Pick<NotificationInstance, 'error' | 'success' | 'info'>;
  modal: { confirm(config: ModalFuncProps): unknown };
}

let injected: Feedback | null = null;

export function setFeedback(f: Feedback | null): void {
  injected = f;
}

let loader: (() => Promise<Feedback>) | null = null;
/** The entry's feedback, loaded on first use. */
export function setFeedbackLoader(load: () => Promise<Feedback>): void {
  loader = load;
}
const load = (): Promise<Feedback> => (loader ? loader() : Promise.reject(new Error('no feedback loader: the entry sets one')));
const later =
  <K extends keyof Feedback, M extends keyof Feedback[K]>(group: K, method: M) =>
  (...args: unknown[]) => {
    void load().then((f) => (f[group][method] as (...a: unknown[]) => unknown)(...args));
    return undefined as never;
  };

const lazyFeedback: Feedback = {
  message: { error: later('message', 'error'), success: later('message', 'success'), info: later('message', 'info') },
  notification: { error: later('notification', 'error'), success: later('notification', 'success'), info: later('notification', 'info') },
  modal: { confirm: later('modal', 'confirm') },
};

export function feedback(): Feedback {
  return injected ?? lazyFeedback;
}
