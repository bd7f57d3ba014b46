import { Injectable } from '@nestjs/common';
import { Role, type FlowEventMessage } from '@wantuo/shared';
import { SessionService } from '../../core/auth/session.service';
import type { SessionUser } from '../../core/http/request-context';
import { LiveRepository } from './live.repository';

/** Why a handshake is refused: the client sees `connect_error` with `err.message` = this code. */
export const LiveRefusal = {
  /** no token, unknown, expired or revoked token, disabled user */
  Unauthorized: '401',
  /** a signed-in user without a school (the platform operator): nothing to follow */
  Forbidden: '403',
  /** `auth.since` is not a non-negative integer */
  BadInput: '400',
} as const;

/** What one connection may see: its socket.io rooms, and the same audience as a filter for the catch-up query. */
export interface Audience {
  schoolId: number;
  /** the whole school (admins) */
  wholeSchool: boolean;
  classIds: number[];
  studentIds: number[];
}

export const schoolRoom = (id: number) => `school:${id}`;
export const classRoom = (id: number) => `class:${id}`;
export const studentRoom = (id: number) => `student:${id}`;
/** every socket of a user (family conversations' messages) */
export const userRoom = (id: number) => `user:${id}`;

export function roomsOf(a: Audience): string[] {
  if (a.wholeSchool) return [schoolRoom(a.schoolId)];
  return [...a.classIds.map(classRoom), ...a.studentIds.map(studentRoom)];
}

/** The rooms a committed event goes to: its school, its class (when it has one) and its student. */
export function roomsOfEvent(e: { school_id: number; class_id: number | null; student_id: number }): string[] {
  return [schoolRoom(e.school_id), ...(e.class_id ? [classRoom(e.class_id)] : []), studentRoom(e.student_id)];
}

const CATCH_UP_BATCH = 500;

/**
 * Socket authentication and audience: the token resolves like an HTTP request's (SessionService), the rooms come from
 * the people tables: admins follow their school; head teachers and teachers the classes they head or hold a
 * class-wide duty in and the students of their per-student duties; parents their children.
 */
@Injectable()
export class LiveAuth {
  constructor(
    private readonly repo: LiveRepository,
    private readonly sessions: SessionService,
  ) {}

  async resolve(token: unknown): Promise<SessionUser | null> {
    if (typeof token !== 'string' || !token) return null;
    return this.sessions.resolve(token);
  }

  /** Of these session tokens, the ones no longer valid (revoked, expired, user disabled or gone), in one query. */
  async invalidTokens(tokenIds: number[]): Promise<Set<number>> {
    if (!tokenIds.length) return new Set();
    const rows = await this.repo.invalidTokens(tokenIds);
    return new Set(rows.map((r) => Number(r.id)));
  }

  /** The audience of a user, in one query; null for a user without a school. */
  async audience(user: SessionUser): Promise<Audience | null> {
    const schoolId = user.schoolId;
    if (!schoolId) return null;
    if (user.role === Role.Admin) return { schoolId, wholeSchool: true, classIds: [], studentIds: [] };
    if (user.role === Role.Parent) {
      // only the children whose current privacy documents this guardian has accepted (issue 37)
      const rows = await this.repo.consentedChildren(schoolId, user.id);
      return { schoolId, wholeSchool: false, classIds: [], studentIds: rows.map((r) => r.student_id) };
    }
    if (user.role === Role.Teacher || user.role === Role.HeadTeacher) {
      const rows = await this.repo.teacherRooms(schoolId, user.id);
      return {
        schoolId,
        wholeSchool: false,
        classIds: rows.filter((r) => r.kind === 'c').map((r) => r.id),
        studentIds: rows.filter((r) => r.kind === 's').map((r) => r.id),
      };
    }
    return { schoolId, wholeSchool: false, classIds: [], studentIds: [] };
  }

  /**
   * The next batch of events after `since` and up to `upTo` (a safe horizon: every position up to it is final) that
   * the audience may see, in position order (at most 500).
   */
  async eventsAfter(a: Audience, since: number, upTo: number): Promise<FlowEventMessage[]> {
    const rows = await this.repo.eventsAfter(a, since, upTo, CATCH_UP_BATCH);
    return rows.map((r) => ({ ...r, position: Number(r.position), at: new Date(r.at).toISOString() }));
  }
}

export { CATCH_UP_BATCH };
