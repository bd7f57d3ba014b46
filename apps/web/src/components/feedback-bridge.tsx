import { App } from 'antd';
import { useEffect } from 'react';
import { setFeedback } from '../api/feedback';

/** Hands antd's context-aware message/notification/modal to code outside React (request wrapper, router). */
export function FeedbackBridge() {
  const { message, notification, modal } = App.useApp();
  useEffect(() => {
    setFeedback({ message, notification, modal });
    return () => setFeedback(null);
  }, [message, notification, modal]);
  return null;
}
