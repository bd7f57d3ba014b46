import { ConfigProvider, message, Modal, notification, theme } from 'antd';
import enUS from 'antd/es/locale/en_US';
import zhCN from 'antd/es/locale/zh_CN';
import { NOTIFICATION_MS, TOAST_MS } from '@wantuo/shared';
import { prefersReducedMotion } from '../lib/reduced-motion';
import { usePreferences } from '../stores/preferences';
import type { Feedback } from './feedback';

// static methods render outside the app's tree: give them the app's theme and language
ConfigProvider.config({
  holderRender: (children) => {
    const { lang, dark } = usePreferences.getState();
    return (
      <ConfigProvider
        locale={lang === 'en' ? enUS : zhCN}
        theme={{ algorithm: dark ? theme.darkAlgorithm : theme.defaultAlgorithm, token: { motion: !prefersReducedMotion() } }}
      >
        {children}
      </ConfigProvider>
    );
  },
});
message.config({ duration: TOAST_MS / 1000, maxCount: 3 });
notification.config({ duration: NOTIFICATION_MS / 1000 });

/** antd's message, notification and confirm dialog: loaded on first use, not with the sign-in page. */
export const antdFeedback: Feedback = { message, notification, modal: { confirm: Modal.confirm } };
