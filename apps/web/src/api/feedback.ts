import type { MessageInstance } from 'antd/es/message/interface';
import type { NotificationInstance } from 'antd/es/notification/interface';
import type { HookAPI as ModalHookAPI } from 'antd/es/modal/useModal';

/**
 * The request wrapper and the router report through antd's message, notification and modal. These live in
 * React context (theme, locale), so the <FeedbackBridge/> inside antd's <App> hands them over here.
 */
export interface Feedback {
  message: Pick<MessageInstance, 'error' | 'success' | 'info'>;
  notification: Pick<NotificationInstance, 'error' | 'success' | 'info'>;
  modal: Pick<ModalHookAPI, 'confirm'>;
}

let current: Feedback | null = null;

export function setFeedback(f: Feedback | null): void {
  current = f;
}

export function feedback(): Feedback {
  if (!current) throw new Error('feedback used before <FeedbackBridge/> mounted');
  return current;
}
