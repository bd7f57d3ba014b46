import { create } from 'zustand';
import { useCallback } from 'react';
import { storage, StorageKey } from '../lib/storage';
import { translate, type Lang, type MessageKey } from '../i18n/messages';

interface Preferences {
  lang: Lang;
  dark: boolean;
  setLang(lang: Lang): void;
  setDark(dark: boolean): void;
}

const initialLang = (): Lang => (storage.get<string>(StorageKey.lang) === 'en' ? 'en' : 'zh-CN');

/** Language (stored under `_lang`, zh-CN by default and as fallback) and night mode, remembered across visits. */
export const usePreferences = create<Preferences>((set) => ({
  lang: initialLang(),
  dark: storage.get<boolean>(StorageKey.theme) === true,
  setLang(lang) {
    storage.set(StorageKey.lang, lang);
    document.documentElement.lang = lang;
    set({ lang });
  },
  setDark(dark) {
    storage.set(StorageKey.theme, dark);
    set({ dark });
  },
}));

export const currentLang = () => usePreferences.getState().lang;

/** The translate function of the current language. */
export function useT() {
  const lang = usePreferences((s) => s.lang);
  return useCallback((key: MessageKey, params?: Record<string, string | number>) => translate(lang, key, params), [lang]);
}

/** Outside React (request wrapper, router hooks). */
export const t = (key: MessageKey, params?: Record<string, string | number>) => translate(currentLang(), key, params);
