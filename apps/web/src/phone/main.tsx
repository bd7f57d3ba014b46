// first: the first screen's code and data start before the rest is evaluated
import './boot';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { unstableSetRender } from 'antd-mobile/es/utils/unstable-render';
import { setFeedback } from '../api/feedback';
import { installClickGuard } from '../lib/click-guard';
import { useSession } from '../stores/session';
import { PhoneApp } from './app';
import { phoneFeedback } from './feedback';
import { forgetOfflineData, registerPhoneWorker } from './sw-register';

// antd-mobile 5 shows its toasts and dialogs (Toast.show, Dialog.confirm) through ReactDOM.render, which React 19 no
// longer has: they render through createRoot instead
unstableSetRender((node, container) => {
  const root = createRoot(container);
  root.render(node);
  return async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
    root.unmount();
  };
});
// the request wrapper tells a phone user with antd-mobile's toasts and dialog, never antd's
setFeedback(phoneFeedback);
// spec §5: every button that posts ignores a second click within 2000 ms
installClickGuard();
// the copies of today's data kept for offline use belong to the session that loaded them
useSession.subscribe((s, before) => {
  if (before.token && s.token !== before.token) void forgetOfflineData();
});
registerPhoneWorker();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <PhoneApp />
  </StrictMode>,
);
