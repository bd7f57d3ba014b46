import { useCallback } from 'react';
import { currentLang, usePreferences } from '../stores/preferences';
import { pick, type Bilingual } from './messages';

export type Params = Record<string, string | number>;

const fill = (text: string, params: Params = {}) => text.replace(/\{(\w+)\}/g, (_, n: string) => String(params[n] ?? ''));

/**
 * A module's own strings, kept with the module (areas/<area>/strings.ts) instead of the one shared table: both
 * languages side by side, `{name}` placeholders as in messages.ts. Returns the hook its screens use and a plain
 * function for code outside React.
 */
export function defineStrings<K extends string>(table: Record<K, Bilingual>) {
  const text = (lang: ReturnType<typeof currentLang>, key: K, params?: Params) => fill(pick(lang, table[key]), params);
  return {
    use() {
      const lang = usePreferences((s) => s.lang);
      return useCallback((key: K, params?: Params) => text(lang, key, params), [lang]);
    },
    t: (key: K, params?: Params) => text(currentLang(), key, params),
  };
}

/** The keys of a defineStrings table, for keys kept in constants or built from a state: `KeyOf<typeof flowStrings>`. */
export type KeyOf<S extends { t: (key: never) => string }> = S extends { t: (key: infer K) => string } ? K : never;
