import type { PolicyKind } from '@wantuo/shared';
import { defineStrings } from '../../i18n/strings';

/**
 * Where the two documents are read and where the site's filings are looked up. Small on purpose: the sign-in page and
 * the public footer import it (the rest of the area's strings stay out of their code).
 */

/** The documents' public pages: the consoles' public area, and the phone app's (no sign-in needed for either). */
export const POLICY_PATHS: Record<PolicyKind, string> = { privacy: '/privacy', children: '/children_privacy' };
export const PHONE_POLICY_PATHS: Record<PolicyKind, string> = { privacy: '/m/privacy', children: '/m/children_privacy' };

/** MIIT's ICP filing lookup, where a Chinese site's ICP number links. */
export const ICP_URL = 'https://beian.miit.gov.cn/';

/**
 * The public-security filing lookup of `filing` (京公网安备11010502030143号 → …webSearch?code=11010502030143): the
 * national platform's page for its digits; null when the text has no number to look up.
 */
export function policeFilingUrl(filing: string | null | undefined): string | null {
  const digits = (filing ?? '').replace(/\D/g, '');
  return digits ? `https://beian.mps.gov.cn/#/query/webSearch?code=${digits}` : null;
}

export const policyLinkStrings = defineStrings({
  'link.privacy': { zh: '《隐私政策》', en: 'privacy policy' },
  'link.children': { zh: '《儿童个人信息保护规则》', en: "children's personal-information rules" },
});
