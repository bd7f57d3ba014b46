// first: starts a phone home's code and data before the rest of the app is evaluated (boot.ts)
import './boot';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import './global.css';
import { installClickGuard } from './lib/click-guard';
import { setFeedbackLoader } from './api/feedback';

// the consoles tell the user with antd's message, notification and confirm (loaded on first use)
setFeedbackLoader(() => import('./api/antd-feedback').then((m) => m.antdFeedback));

// spec §5: every button that posts ignores a second click within 2000 ms (lib/click-guard.ts)
installClickGuard();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
