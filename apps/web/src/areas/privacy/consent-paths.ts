import { useQuery } from '@tanstack/react-query';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { usePreferences } from '../../stores/preferences';

/**
 * What the consent gate needs on every parent page (kept small: the phone shell and the parent console load it with
 * their first screen; the consent screen's own code, consent-model.ts, comes with the screen).
 */

export const CONSENT_KEY = queryKey('myConsents');
export const POLICIES_KEY = queryKey('privacyPolicies');

/** The consent screens: the phone app's and the parent console's. */
export const PHONE_CONSENT_PATH = '/m/parent_consent';
export const DESKTOP_CONSENT_PATH = '/parent_consent';

/** The guardian's consents (myConsents: which children, whether the current documents are accepted). */
export function useMyConsents(enabled = true) {
  return useQuery({ queryKey: CONSENT_KEY, queryFn: () => get('myConsents'), enabled });
}

/** The current documents in the reader's language (privacyPolicies; a public page may name the school). */
export function usePolicies(schoolId?: number) {
  // the text is in the reader's language
  const lang = usePreferences((s) => s.lang);
  const input = schoolId ? { school_id: schoolId } : {};
  return useQuery({ queryKey: [...queryKey('privacyPolicies', input), lang], queryFn: () => get('privacyPolicies', input) });
}

/**
 * Where the consent screen sends the guardian once they have accepted: the page they wanted (`redirect`, a path of
 * this app, never another site or the consent screen itself), else their home.
 */
export function afterConsent(redirect: string | null, phone: boolean): string {
  const home = phone ? '/m/parent' : '/parent';
  if (!redirect || !redirect.startsWith('/') || redirect.startsWith('//') || redirect.includes('\\')) return home;
  const path = redirect.split(/[?#]/)[0];
  if (path === PHONE_CONSENT_PATH || path === DESKTOP_CONSENT_PATH) return home;
  // the phone app's screen stays in the phone app; the console's in the console
  if (phone !== (path === '/m' || path.startsWith('/m/'))) return home;
  return redirect;
}

/** The consent screen's address for a guardian who was at `here` (path and query): back there afterwards. */
export function consentPathFor(here: string, phone: boolean): string {
  const base = phone ? PHONE_CONSENT_PATH : DESKTOP_CONSENT_PATH;
  const path = here.split(/[?#]/)[0];
  if (path === base) return here;
  return `${base}?redirect=${encodeURIComponent(here)}`;
}
