import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { clientIp, langOf, type AppRequest, type SessionUser } from '../http/request-context';
import { AppError } from '../http/app-error';

/** The signed-in user (the guard has already rejected callers without a valid token). */
export const CurrentUser = createParamDecorator((_: unknown, ctx: ExecutionContext): SessionUser => {
  const user = ctx.switchToHttp().getRequest<AppRequest>().user;
  if (!user) throw AppError.untoken();
  return user;
});

/** Facts about the caller that services record: ip, user agent, language. */
export interface CallerInfo {
  ip: string;
  userAgent: string;
  lang: 'zh-CN' | 'en';
  /** the host the browser addressed (Host, or X-Forwarded-Host behind a trusted proxy): where this site is */
  host?: string;
}

export const Caller = createParamDecorator((_: unknown, ctx: ExecutionContext): CallerInfo => {
  const req = ctx.switchToHttp().getRequest<AppRequest>();
  return { ip: clientIp(req), userAgent: String(req.headers['user-agent'] ?? ''), lang: langOf(req), host: req.host || undefined };
});

/**
 * A caller acting inside a school (issue 38): its school id is never null in the type, so services and repositories
 * scope by `caller.schoolId` without `!` or a `?? -1` fallback. Resolved from the guard's user by `@SchoolUser()`.
 */
export type SchoolCaller = SessionUser & { readonly schoolId: number };

/** The signed-in user as a SchoolCaller, or the `auth.forbidden` answer for a caller without a school (the operator). */
export function schoolCaller(user: SessionUser): SchoolCaller {
  if (user.schoolId === null || user.schoolId === undefined) throw new AppError('auth.forbidden');
  return user as SchoolCaller;
}

/** The signed-in user of a school-scoped action, typed SchoolCaller (the guard has already checked the role). */
export const SchoolUser = createParamDecorator((_: unknown, ctx: ExecutionContext): SchoolCaller => {
  const user = ctx.switchToHttp().getRequest<AppRequest>().user;
  if (!user) throw AppError.untoken();
  return schoolCaller(user);
});
