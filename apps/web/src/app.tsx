import { ConfigProvider, theme } from 'antd';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import enUS from 'antd/es/locale/en_US';
import zhCN from 'antd/es/locale/zh_CN';
import { useEffect, useMemo } from 'react';
import { RouterProvider } from 'react-router/dom';
import { ApiError } from './api/http';
import { feedback } from './api/feedback';
import { useReducedMotion } from './lib/reduced-motion';
import { createRouter } from './router/router';
import { t, usePreferences } from './stores/preferences';

/** Unhandled errors: a notification titled by the error's kind (spec §8; "未知错误" when it has none). */
function useGlobalErrors() {
  useEffect(() => {
    const show = (reason: unknown) => {
      if (reason instanceof ApiError) return; // the request wrapper has already told the user
      const kind = reason instanceof Error && reason.name && reason.name !== 'Error' ? reason.name : t('error.unknown');
      const message = reason instanceof Error ? reason.message : String(reason ?? '');
      feedback().notification.error({ title: kind, description: message });
    };
    const onError = (e: ErrorEvent) => show(e.error ?? e.message);
    const onRejection = (e: PromiseRejectionEvent) => show(e.reason);
    window.addEventListener('error', onError);
    window.addEventListener('unhandledrejection', onRejection);
    return () => {
      window.removeEventListener('error', onError);
      window.removeEventListener('unhandledrejection', onRejection);
    };
  }, []);
}

/**
 * The date pickers' language follows the app's: antd's locale names the buttons, but weekday and month names and the
 * first day of the week (Monday in China) come from dayjs's global locale, which must be set too.
 */
export function dayjsLocaleOf(lang: string): 'zh-cn' | 'en' {
  return lang === 'en' ? 'en' : 'zh-cn';
}

export function App() {
  const lang = usePreferences((s) => s.lang);
  // set during render (not in an effect) so the first picker drawn after a switch already speaks the new language
  useMemo(() => dayjs.locale(dayjsLocaleOf(lang)), [lang]);
  const dark = usePreferences((s) => s.dark);
  const router = useMemo(() => createRouter(), []);
  // a user who asked the system for reduced motion gets no dialog zoom, drawer slide or dropdown slide
  const reduced = useReducedMotion();
  useGlobalErrors();
  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);
  return (
    <ConfigProvider
      locale={lang === 'en' ? enUS : zhCN}
      theme={{ algorithm: dark ? theme.darkAlgorithm : theme.defaultAlgorithm, token: { colorPrimary: '#1677ff', motion: !reduced } }}
    >
      <RouterProvider router={router} />
    </ConfigProvider>
  );
}
