import { Role } from '@wantuo/shared';
import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { setConsentHandler } from '../../api/http';
import { consentPathFor, PHONE_CONSENT_PATH, useMyConsents } from '../../areas/privacy/consent-paths';
import { useSession } from '../../stores/session';
import { phoneRouteAt } from '../route-table';

/**
 * The phone app's consent gate (issue 37): a signed-in guardian who has not accepted the current documents for every
 * child goes to the consent screen, and back afterwards. Two ways in: myConsents says so (asked once per page visit,
 * cached), or any call answers `privacy.consent_required` (the request wrapper's consent handler). The public pages
 * (the documents themselves, a pick-up pass) are never gated.
 */
export function PhoneConsentWatch() {
  const role = useSession((s) => s.user?.role);
  const navigate = useNavigate();
  const location = useLocation();
  const parent = role === Role.Parent;
  const here = location.pathname + location.search;
  const route = phoneRouteAt(location.pathname)?.route;
  const gated = parent && location.pathname !== PHONE_CONSENT_PATH && route !== undefined && route.roles !== 'all';

  // where the guardian is when a refusal comes in (the router's location, read by the handler)
  const at = useRef(location);
  useEffect(() => {
    at.current = location;
  }, [location]);
  useEffect(() => {
    if (!parent) return;
    setConsentHandler(() => {
      const { pathname, search } = at.current;
      if (pathname !== PHONE_CONSENT_PATH && phoneRouteAt(pathname)?.route.roles !== 'all') {
        void navigate(consentPathFor(pathname + search, true), { replace: true });
      }
      return true;
    });
    return () => setConsentHandler(null);
  }, [parent, navigate]);

  const consents = useMyConsents(gated);
  const needs = gated && consents.data?.needs_consent === true;
  useEffect(() => {
    if (needs) void navigate(consentPathFor(here, true), { replace: true });
  }, [needs, here, navigate]);
  return null;
}
