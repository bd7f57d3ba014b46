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
