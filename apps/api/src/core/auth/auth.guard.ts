import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { mayCall } from '@wantuo/shared';
import { AppError } from '../http/app-error';
import type { AppRequest } from '../http/request-context';
import { RouteCatalogue } from './route-catalogue';
import { SessionService } from './session.service';

/**
 * The one guard: finds the route's access rule (catalogue `who` or @Access), resolves the `token`
 * header, and answers 401 (no or bad token) or 100 (wrong role) before any handler runs.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly routes: RouteCatalogue,
    private readonly sessions: SessionService,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    if (ctx.getType() !== 'http') return true;
    const route = this.routes.forHandler(ctx.getHandler());
    if (!route) throw new Error(`route without access rule: ${ctx.getClass().name}.${ctx.getHandler().name}`);
    const req = ctx.switchToHttp().getRequest<AppRequest>();
    const header = req.headers['token'];
    const token = typeof header === 'string' ? header.trim() : '';
    if (token) {
      const user = await this.sessions.resolve(token);
      if (user) req.user = user;
      else if (route.access.kind !== 'public') throw AppError.untoken();
    }
    if (route.access.kind === 'public') return true;
    if (!req.user) throw AppError.untoken();
    if (!mayCall(route.access, req.user.role)) throw new AppError('auth.forbidden');
    return true;
  }
}
