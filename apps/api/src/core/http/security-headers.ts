import type { NestExpressApplication } from '@nestjs/platform-express';
import helmet from 'helmet';

type Directives = Record<string, string[]>;

/**
 * The content security policy of every answer: the web app (Vite build: module scripts and CSS from /static, no inline
 * script), the API's JSON, the OpenAPI UI at /api/docs and the uploads. Scripts only from this origin; styles may be
 * inline because antd's CSS-in-JS writes <style> elements and React style attributes at run time; images also from
 * data: and blob: URLs (previews, icons); fetch, XHR and the socket.io websocket to this origin; frames and
 * framing only by this origin (the PDF viewer frames /uploads); no plugins; forms post only here.
 * No upgrade-insecure-requests: the stack is also served over plain http on a school's network.
 * apps/web/nginx/default.conf sends the same policy with the web app in docker (a test compares them).
 */
export const CSP_DIRECTIVES: Directives = {
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'frame-src': ["'self'"],
  'frame-ancestors': ["'self'"],
  'form-action': ["'self'"],
};

/** The header value of a policy, as helmet writes it. */
export const cspHeader = (d: Directives) =>
  Object.entries(d)
    .map(([k, v]) => `${k} ${v.join(' ')}`)
    .join(';');

/**
 * helmet on every answer of the HTTP app, first of all middleware: the CSP above, X-Content-Type-Options: nosniff,
 * X-Frame-Options: SAMEORIGIN, Referrer-Policy: no-referrer, Cross-Origin-Opener/Resource-Policy: same-origin,
 * Strict-Transport-Security (honoured by browsers only over https; not for the other subdomains of the school's
 * domain) and helmet's other defaults.
 */
export function securityHeaders(app: NestExpressApplication): void {
  app.use(
    helmet({
      contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
      strictTransportSecurity: { maxAge: 180 * 24 * 3600, includeSubDomains: false },
    }),
  );
}
