import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FlowEventMessage } from '@wantuo/shared';
import { sql } from 'kysely';
import { DataSource } from 'typeorm';
import { kdb } from '../../core/database/kysely';

/** The latest accepted version of a privacy document kind (a guardian's acceptance must match it). */
const latestPolicy = (kind: 'privacy' | 'children') => sql<number>`(select max(version) from privacy_policies where kind = ${kind})`;

/**
 * The SQL of the live module (issue 38): tokens still valid, who follows which rooms, the catch-up of events. The
 * tail's fence read (flow-horizon.ts) stays one multi-statement round trip on a pooled client, as the flow append's
 * prepared statements do: it is the hot path of every live board.
 */
@Injectable()
export class LiveRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Of these session tokens, the ones no longer valid (revoked, expired, user disabled, left or gone). */
  invalidTokens(tokenIds: readonly number[]) {
    return kdb(this.db)
      .selectFrom(sql<{ id: number }>`unnest(${[...tokenIds]}::bigint[])`.as<'x'>(sql`x(id)`))
      .leftJoin('user_tokens as t', 't.id', 'x.id')
      .leftJoin('users as u', 'u.id', 't.user_id')
      .select('x.id')
      .where((eb) =>
        eb.or([
          eb('t.id', 'is', null),
          eb('t.revoked_at', 'is not', null),
          eb('t.expires_at', '<=', sql<Date>`now()`),
          eb('u.status', '<>', 1),
          eb('u.job_status', '<>', 1),
          eb('u.deleted_at', 'is not', null),
        ]),
      )
      .execute();
  }

  /** The children of the guardian in the school whose current privacy documents the guardian has accepted (issue 37). */
  consentedChildren(schoolId: number, userId: number) {
    return kdb(this.db)
      .selectFrom('student_guardians as g')
      .innerJoin('students as s', (j) => j.onRef('s.id', '=', 'g.student_id').on('s.school_id', '=', schoolId))
      .select('g.student_id')
      .where('g.user_id', '=', userId)
      .where('g.school_id', '=', schoolId)
      .where('g.privacy_version', '=', latestPolicy('privacy'))
      .where('g.children_version', '=', latestPolicy('children'))
      .orderBy('g.student_id')
      .execute();
  }

  /**
   * What a teacher follows: the classes they head or hold a class-wide duty in (`c`), and the students of their
   * per-student duties (`s`).
   */
  teacherRooms(schoolId: number, teacherId: number) {
    const k = kdb(this.db);
    return k
      .selectFrom('care_classes as c')
      .select([sql<'c' | 's'>`'c'`.as('kind'), 'c.id'])
      .where('c.school_id', '=', schoolId)
      .where('c.deleted_at', 'is', null)
      .where((eb) =>
        eb.or([
          eb('c.head_teacher_id', '=', teacherId),
          eb.exists(
            eb
              .selectFrom('duty_assignments as d')
              .select(sql.lit(1).as('one'))
              .whereRef('d.class_id', '=', 'c.id')
              .where('d.teacher_id', '=', teacherId)
              .where('d.student_id', 'is', null),
          ),
        ]),
      )
      .union(
        k
          .selectFrom('duty_assignments as d')
          .innerJoin('care_classes as c', (j) => j.onRef('c.id', '=', 'd.class_id').on('c.deleted_at', 'is', null))
          .select([sql<'c' | 's'>`'s'`.as('kind'), sql<number>`d.student_id`.as('id')])
          .where('d.school_id', '=', schoolId)
          .where('d.teacher_id', '=', teacherId)
          .where('d.student_id', 'is not', null),
      )
      .orderBy('kind')
      .orderBy('id')
      .execute();
  }

  /**
   * The events of the school after `since` and up to `upTo` that the audience may see (the whole school, or its
   * classes and students), in position order, at most `limit`.
   */
  eventsAfter(
    a: { schoolId: number; wholeSchool: boolean; classIds: readonly number[]; studentIds: readonly number[] },
    since: number,
    upTo: number,
    limit: number,
  ) {
    return kdb(this.db)
      .selectFrom('flow_events as e')
      .select((eb) => [
        'e.global_position as position',
        'e.student_id',
        'e.class_id',
        sql<string>`to_char(${eb.ref('e.day')}, 'YYYY-MM-DD')`.as('day'),
        sql<FlowEventMessage['type']>`${eb.ref('e.type')}`.as('type'),
        sql<FlowEventMessage['state']>`${eb.ref('e.state_after')}`.as('state'),
        'e.occurred_at as at',
        'e.actor_id as actor',
      ])
      .where('e.school_id', '=', a.schoolId)
      .where('e.global_position', '>', since)
      .where('e.global_position', '<=', upTo)
      .where((eb) =>
        eb.or([
          sql<boolean>`${a.wholeSchool}::boolean`,
          eb('e.class_id', '=', sql<number>`any(${[...a.classIds]}::int[])`),
          eb('e.student_id', '=', sql<number>`any(${[...a.studentIds]}::int[])`),
        ]),
      )
      .orderBy('e.global_position')
      .limit(limit)
      .execute();
  }
}
