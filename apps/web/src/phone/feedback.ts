import { TOAST_MS } from '@wantuo/shared';
import type { Feedback } from '../api/feedback';
import { phoneStrings } from './strings';

type Content = { content?: unknown; title?: unknown; description?: unknown; duration?: unknown };

const textOf = (c: unknown): string => {
  if (typeof c === 'string') return c;
  if (!c || typeof c !== 'object') return '';
  const { content, title, description } = c as Content;
  const parts = [content, title, description].filter((p) => typeof p === 'string' && p) as string[];
  return parts.join('：');
};
/** antd-mobile's toast and dialog (with their spring animation code) load on the first message, not with the shell. */
const kit = () =>
  Promise.all([import('antd-mobile/es/components/toast'), import('antd-mobile/es/components/dialog')]).then(([t, d]) => ({
    Toast: t.default,
    Dialog: d.default,
  }));

const toast = (icon: 'success' | 'fail' | undefined) => (c: unknown) => {
  const seconds = c && typeof c === 'object' ? (c as Content).duration : undefined;
  void kit().then(({ Toast }) =>
    Toast.show({ content: textOf(c), icon, duration: typeof seconds === 'number' && seconds > 0 ? seconds * 1000 : TOAST_MS }),
  );
  return undefined as never;
};

/**
 * How the request wrapper tells a phone user (api/feedback.ts): antd-mobile's toasts instead of antd's messages and
 * notifications, its dialog for "sign in again". The desktop's antd is never loaded on the phone.
 */
export const phoneFeedback: Feedback = {
  message: { error: toast('fail'), success: toast('success'), info: toast(undefined) },
  notification: { error: toast('fail'), success: toast('success'), info: toast(undefined) },
  modal: {
    confirm(config) {
      const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
      void kit().then(({ Dialog }) =>
        Dialog.confirm({
          title: text(config.title),
          content: text(config.content),
          confirmText: text(config.okText) ?? phoneStrings.t('m.ok'),
          cancelText: text(config.cancelText) ?? phoneStrings.t('m.cancel'),
          onConfirm: () => {
            void config.onOk?.();
          },
          onCancel: () => {
            void config.onCancel?.();
          },
          afterClose: () => config.afterClose?.(),
        }),
      );
      return undefined;
    },
  },
};
