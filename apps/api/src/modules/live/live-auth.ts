import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Role, type FlowEventMessage } from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { SessionService } from '../../core/auth/session.service';
import type { SessionUser } from '../../core/http/request-context';

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
    @InjectDataSource() private readonly db: DataSource,
    private readonly sessions: SessionService,
  ) {}

  async resolve(token: unknown): Promise<SessionUser | null> {
    if (typeof token !== 'string' || !token) return null;
    return this.sessions.resolve(token);
  }

  /** Of these session tokens, the ones no longer valid (revoked, expired, user disabled or gone), in one query. */
  async invalidTokens(tokenIds: number[]): Promise<Set<number>> {
    if (!tokenIds.length) return new Set();
    const rows: { id: string }[] = await this.db.query(
      `select t.id from unnest($1::bigint[]) as x(id)
         left join user_tokens t on t.id = x.id
         left join users u on u.id = t.user_id
        where t.id is null or t.revoked_at is not null or t.expires_at <= now()
           or u.status <> 1 or u.job_status <> 1 or u.deleted_at is not null`,
      [tokenIds],
    );
    return new Set(rows.map((r) => Number(r.id)));
  }

  /** The audience of a user, in one query; null for a user without a school. */
  async audience(user: SessionUser): Promise<Audience | null> {
    const schoolId = user.schoolId;
    if (!schoolId) return null;
    if (user.role === Role.Admin) return { schoolId, wholeSchool: true, classIds: [], studentIds: [] };
    if (user.role === Role.Parent) {
      const rows: { student_id: number }[] = await this.db.query(
        // only the children whose current privacy documents this guardian has accepted (issue 37)
        `select g.student_id from student_guardians g join students s on s.id = g.student_id and s.school_id = $1
          where g.user_id = $2 and g.school_id = $1
            and g.privacy_version = (select max(version) from privacy_policies where kind = 'privacy')
            and g.children_version = (select max(version) from privacy_policies where kind = 'children')
          order by g.student_id`,
        [schoolId, user.id],
      );
      return { schoolId, wholeSchool: false, classIds: [], studentIds: rows.map((r) => r.student_id) };
    }
    if (user.role === Role.Teacher || user.role === Role.HeadTeacher) {
      const rows: { kind: 'c' | 's'; id: number }[] = await this.db.query(
        `select 'c' as kind, c.id from care_classes c
          where c.school_id = $1 and c.deleted_at is null
            and (c.head_teacher_id = $2
                 or exists (select 1 from duty_assignments d where d.class_id = c.id and d.teacher_id = $2 and d.student_id is null))
         union
         select 's' as kind, d.student_id as id from duty_assignments d
           join care_classes c on c.id = d.class_id and c.deleted_at is null
          where d.school_id = $1 and d.teacher_id = $2 and d.student_id is not null
         order by kind, id`,
        [schoolId, user.id],
      );
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
    const rows: Array<{
      position: string;
      student_id: number;
      class_id: number | null;
      day: string;
      type: FlowEventMessage['type'];
      state: FlowEventMessage['state'];
      at: Date;
      actor: number | null;
    }> = await this.db.query(
      `select e.global_position as position, e.student_id, e.class_id, to_char(e.day, 'YYYY-MM-DD') as day, e.type,
              e.state_after as state, e.occurred_at as at, e.actor_id as actor
         from flow_events e
        where e.school_id = $1 and e.global_position > $2 and e.global_position <= $6
          and ($3 or e.class_id = any($4::int[]) or e.student_id = any($5::int[]))
        order by e.global_position
        limit ${CATCH_UP_BATCH}`,
      [a.schoolId, since, a.wholeSchool, a.classIds, a.studentIds, upTo],
    );
    return rows.map((r) => ({ ...r, position: Number(r.position), at: new Date(r.at).toISOString() }));
  }
}

export { CATCH_UP_BATCH };
