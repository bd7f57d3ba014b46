import type { MessageInstance } from 'antd/es/message/interface';
import type { NotificationInstance } from 'antd/es/notification/interface';
import type { ModalFuncProps } from 'antd';

/**
 * How the request wrapper, the router and global error handlers talk to the user: antd's message (toasts),
 * notification and confirm dialog. The real ones load on first use (they are not needed to show the sign-in
 * page); tests inject their own with setFeedback.
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

const load = () => import('./antd-feedback').then((m) => m.antdFeedback);
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
