import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { setConsentHandler } from '../../api/http';
import { QueryProvider } from '../../components/query-provider';
import { consentPathFor, DESKTOP_CONSENT_PATH, useMyConsents } from './consent-paths';

/**
 * The parent console's consent gate (issue 37), as the phone app's: a guardian who has not accepted the current
 * documents for every child goes to /parent_consent and back afterwards, when myConsents says so or any call answers
 * `privacy.consent_required`. Rendered by the parent layout, so it watches the parent pages only.
 */
export function ParentConsentGate() {
  return (
    <QueryProvider>
      <Watch />
    </QueryProvider>
  );
}

function Watch() {
  const navigate = useNavigate();
  const location = useLocation();
  const here = location.pathname + location.search;
  const gated = location.pathname !== DESKTOP_CONSENT_PATH;

  // where the guardian is when a refusal comes in (the router's location, read by the handler)
  const at = useRef(location);
  useEffect(() => {
    at.current = location;
  }, [location]);
  useEffect(() => {
    setConsentHandler(() => {
      const { pathname, search } = at.current;
      if (pathname !== DESKTOP_CONSENT_PATH) void navigate(consentPathFor(pathname + search, false), { replace: true });
      return true;
    });
    return () => setConsentHandler(null);
  }, [navigate]);

  const consents = useMyConsents(gated);
  const needs = gated && consents.data?.needs_consent === true;
  useEffect(() => {
    if (needs) void navigate(consentPathFor(here, false), { replace: true });
  }, [needs, here, navigate]);
  return null;
}
