import { Injectable } from '@nestjs/common';
import { Role, type AccessLogRow, type ChildAccessLogQuery, type ChildDataKind, type Page } from '@wantuo/shared';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import type { Queryable } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { Sendable } from '../../core/http/sendable';
import { clientIp, type SessionUser } from '../../core/http/request-context';
import { currentRequest } from '../../core/logging/log-context';
import { PrivacyRepository } from './privacy.repository';

/**
 * The access log of children's data (child_access_log, append-only): who read or exported which children's
 * profile, guardians, pick-up people, health notes or photos, and every call and export. One row per read (a list of
 * 100 children is one row with 100 ids), written with the request's address and action.
 */
@Injectable()
export class ChildAccessLog {
  constructor(private readonly repo: PrivacyRepository) {}

  /**
   * Records that `user` read `what` of these children, in one statement (within `em`'s transaction when given).
   * A guardian reading their own children is not recorded (the log is of everyone else's reads); their exports are.
   */
  async record(user: SessionUser, studentIds: readonly number[], what: readonly ChildDataKind[], em?: Queryable): Promise<void> {
    const ids = [...new Set(studentIds.filter((id) => Number.isInteger(id) && id > 0))];
    if (!ids.length || !what.length || !user.schoolId) return;
    if (user.role === Role.Parent && !what.includes('export')) return;
    const req = currentRequest();
    const action = req?.action ?? 'job';
    const ip = req ? clientIp(req.req) : '';
    await this.repo.logAccess(em, {
      schoolId: user.schoolId,
      actorId: user.id,
      actorRole: user.role,
      studentIds: ids,
      what: [...new Set(what)],
      action: action.slice(0, 60),
      ip: ip.slice(0, 64),
    });
  }

  /** The admin's school (all, or one child), or a guardian's own child (student_id required), newest first. */
  async list(user: SchoolCaller, q: ChildAccessLogQuery): Promise<Sendable<Page<AccessLogRow>>> {
    const isParent = user.role === Role.Parent;
    if (isParent) {
      if (!q.student_id) throw new AppError('privacy.not_found');
      if (!(await this.repo.isGuardian(user.schoolId, q.student_id, user.id))) throw new AppError('privacy.not_found');
    }
    return this.repo.accessLog(user.schoolId, q, isParent);
  }
}
