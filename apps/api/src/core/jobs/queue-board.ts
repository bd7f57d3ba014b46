import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Role } from '@wantuo/shared';
import type { NextFunction, Request, Response } from 'express';
import { SessionService } from '../auth/session.service';
import { JobsService } from './jobs.service';

/** Where the operators' queue board lives (design.md §5). */
export const QUEUE_BOARD_PATH = '/admin/queues';

/** The session token of a browser request: the `token` header, else the `token` cookie the web app sets at sign-in (path /). */
export function tokenOf(req: Request): { token: string; from: 'header' | 'cookie' } | null {
  const header = req.headers.token;
  if (typeof header === 'string' && header) return { token: header, from: 'header' };
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name !== 'token' || !rest.length) continue;
    try {
      const token = decodeURIComponent(rest.join('='));
      return token ? { token, from: 'cookie' } : null;
    } catch {
      return null;
    }
  }
  return null;
}

/**
 * A state-changing request (retry, clean, pause…) signed in by the cookie must come from a page of this site: the
 * browser says where a request comes from in Sec-Fetch-Site (the cookie is SameSite=Lax already; this also
 * refuses same-site pages of other subdomains).
 */
const crossSiteWrite = (req: Request, from: 'header' | 'cookie') =>
  from === 'cookie' &&
  !['GET', 'HEAD'].includes(req.method) &&
  req.headers['sec-fetch-site'] !== undefined &&
  req.headers['sec-fetch-site'] !== 'same-origin';

/**
 * Platform operators only: a browser without a session goes to the sign-in page and comes back; another role is
 * refused (403). The board is plain Express under the API, outside the action catalogue, so it checks here.
 */
function operatorsOnly(sessions: SessionService) {
  return (req: Request, res: Response, next: NextFunction) => {
    const found = tokenOf(req);
    const done = (user: Awaited<ReturnType<SessionService['resolve']>>) => {
      if (user?.role === Role.Operator && !crossSiteWrite(req, found!.from)) return next();
      res.setHeader('cache-control', 'no-store');
      if (!user && req.method === 'GET' && req.accepts('html')) {
        return res.redirect(302, `/login?redirect=${encodeURIComponent(QUEUE_BOARD_PATH)}`);
      }
      res
        .status(user ? 403 : 401)
        .type('text/plain; charset=utf-8')
        .send(user ? '仅平台运营可从本站操作任务队列 / operators only, from this site' : '请先登录 / sign in first');
    };
    if (!found) return done(null);
    sessions.resolve(found.token).then(done, next);
  };
}

/** The web app's system font stack (apps/web/src/global.css): Chinese first, no web font to download. */
const SYSTEM_FONTS = `-apple-system, BlinkMacSystemFont, 'PingFang SC', 'Microsoft YaHei', 'Noto Sans CJK SC', 'Helvetica Neue', Arial, sans-serif`;

/**
 * Bull Board's page without its Google Fonts stylesheet (fonts.googleapis.com is blocked in mainland China, and a
 * stylesheet in the head holds the page until it loads or times out), in the system fonts instead of IBM Plex.
 */
export function withSystemFonts(html: string): string {
  return html
    .replace(/<link\b[^>]*\bhref="https:\/\/fonts\.(?:googleapis|gstatic)\.com\/[^"]*"[^>]*>\s*/g, '')
    .replace('</head>', `<style>:root{--font-sans:${SYSTEM_FONTS}}</style></head>`);
}

/** The board's page (rendered by its Express adapter) goes out through withSystemFonts. */
function systemFonts(_req: Request, res: Response, next: NextFunction) {
  const render = res.render.bind(res);
  res.render = ((view: string, options?: object) =>
    render(view, options ?? {}, (err: Error | null, html: string) => (err ? next(err) : res.send(withSystemFonts(html))))) as Response['render'];
  next();
}

/**
 * Bull Board over every BullMQ queue (sms, contracts, alerts) at /admin/queues for platform operators: waiting,
 * delayed, failed jobs with their errors, retry and clean. Without Redis the jobs run in the API process and there
 * is no queue to show: the path says so.
 */
export function serveQueueBoard(app: NestExpressApplication): void {
  const sessions = app.get(SessionService);
  const queues = app.get(JobsService).allQueues();
  if (!queues) {
    app.use(QUEUE_BOARD_PATH, operatorsOnly(sessions), (_req: Request, res: Response) => {
      res
        .status(404)
        .type('text/plain; charset=utf-8')
        .send(
          '任务在 API 进程内运行（未配置 REDIS_URL），没有任务队列。\nJobs run inside the API process (no REDIS_URL): there are no queues to show.',
        );
    });
    return;
  }
  const adapter = new ExpressAdapter();
  adapter.setBasePath(QUEUE_BOARD_PATH);
  createBullBoard({
    queues: queues.map((q) => new BullMQAdapter(q)),
    serverAdapter: adapter,
    options: { uiConfig: { boardTitle: '晚托任务队列', locale: { lng: 'zh-CN' }, miscLinks: [{ text: '返回运营后台', url: '/operator' }] } },
  });
  app.use(QUEUE_BOARD_PATH, operatorsOnly(sessions), systemFonts, adapter.getRouter());
}
