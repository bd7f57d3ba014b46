import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { findAction } from '@wantuo/shared';
import type { AppRequest } from '../http/request-context';

/**
 * The fields every log line written during a request or a job carries (the logger's `mixin` reads them here): services
 * keep injecting LOGGER and logging as before, the line says which request or job it belongs to.
 */
export interface LogFields {
  /** the request id: the caller's `x-request-id` when it sent a sane one, else a new UUID; echoed in the answer's header */
  req_id?: string;
  user_id?: number;
  /** the signed-in user's school (null: a platform operator) */
  school_id?: number | null;
  /** the catalogue action (`contractList`, `sms/send`); absent for routes outside the catalogue */
  action?: string;
  job_id?: string;
  queue?: string;
  /** the job's name (`sms.send`) */
  job?: string;
}

/**
 * A request's context: the request itself, so the user the auth guard finds after the context began is read when a
 * line is written; a job's context: fixed fields.
 */
type Context = { kind: 'request'; req: AppRequest; reqId: string; action: string | undefined } | { kind: 'job'; fields: LogFields };

const storage = new AsyncLocalStorage<Context>();

/** A caller's request id is kept when it is a plain token (letters, digits, `._:-`, up to 64): nothing else reaches the logs. */
const REQUEST_ID_RE = /^[A-Za-z0-9._:-]{1,64}$/;

export function requestIdOf(header: string | string[] | undefined): string {
  const given = Array.isArray(header) ? header[0] : header;
  return given && REQUEST_ID_RE.test(given) ? given : randomUUID();
}

/** The catalogue action of a request (`GET /api/index/userInfo` → `userInfo`), undefined outside the catalogue. */
export function actionOf(req: Pick<AppRequest, 'method' | 'path'>): string | undefined {
  return findAction(req.method === 'HEAD' ? 'GET' : req.method, req.path)?.action;
}

/** Runs `fn` (the rest of the request's middleware chain) in the request's log context. */
export function runInRequestContext<T>(req: AppRequest, reqId: string, fn: () => T): T {
  return storage.run({ kind: 'request', req, reqId, action: actionOf(req) }, fn);
}

/** Runs a job's handler in a context of its own (never the context of the request that queued it). */
export function runInJobContext<T>(fields: Pick<LogFields, 'job_id' | 'queue' | 'job'>, fn: () => T): T {
  return storage.run({ kind: 'job', fields }, fn);
}

/** The current context's fields ({} outside any request or job): a new object each call (pino's mixin merges into it). */
export function currentLogFields(): LogFields {
  const ctx = storage.getStore();
  if (!ctx) return {};
  if (ctx.kind === 'job') return { ...ctx.fields };
  const user = ctx.req.user;
  return { req_id: ctx.reqId, user_id: user?.id, school_id: user ? user.schoolId : undefined, action: ctx.action };
}

/** The request being served ({ req, action }), undefined in a job or outside any request. */
export function currentRequest(): { req: AppRequest; action: string | undefined } | undefined {
  const ctx = storage.getStore();
  return ctx?.kind === 'request' ? { req: ctx.req, action: ctx.action } : undefined;
}
