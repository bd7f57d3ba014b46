import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Code, CONSENT_FREE_ACTIONS, GRACE_DAYS, mayCall, mayWriteWhenExpired, Role, serviceState } from '@wantuo/shared';
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
    // a guardian sees no child's data before accepting the current privacy policy and children's rules (issue 37)
    const action = route.action;
    if (req.user.needsConsent && req.user.role === Role.Parent && action?.who.includes('P') && !CONSENT_FREE_ACTIONS.has(action.action)) {
      throw new AppError('privacy.consent_required', {}, Code.Error, { consent_required: true });
    }
    // past the grace period an expired school's staff can read but not write; paying (and their own account) still works
    if (
      req.method !== 'GET' &&
      req.user.role !== Role.Parent &&
      req.user.role !== Role.Operator &&
      serviceState(req.user.serviceExpiresAt ?? null) === 'read_only'
    ) {
      if (!mayWriteWhenExpired(route.action?.action)) throw new AppError('auth.school_read_only', { days: GRACE_DAYS });
    }
    return true;
  }
}
