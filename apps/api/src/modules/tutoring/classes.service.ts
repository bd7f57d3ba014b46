import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  generateSessions,
  toHHMM,
  toMinutes,
  type AddTutorialSchoolCareAnswer,
  type AddTutorialSchoolCareInput,
  type CancelTutorialSessionInput,
  type DelTutorialClassInput,
  type TutorialClassStatusInput,
  type Page,
  type TutorialChangeSchedulingInput,
  type TutorialListQuery,
  type TutorialSchedulingQuery,
  type TutoringClass,
  type TutoringSession,
} from '@wantuo/shared';
import { DataSource, type EntityManager } from 'typeorm';
import { containsPattern, isUniqueViolation, offsetOf, pageOf, totalOf } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { SessionCore, SESSION_RULES } from '../teaching/session-core';
import { calendarOf, clashError, isOverlapViolation, lockSchedule } from '../teaching/teaching-sql';
import { checkRoom, checkTeacher, CLASS_COLUMNS, CLASS_JOINS, schoolOf, tutoringClashes } from './tutoring-sql';

/** The most sessions one tutoring class generates (a school year of daily sessions and a bit). */
const MAX_SESSIONS = 500;

/** The database refused a write on its exclusion constraints (a writer outside the lock): refused as a clash. */
function overlapRefusal(err: unknown): never {
  if (isOverlapViolation(err)) throw new AppError('tutoring.clash_database');
  throw err;
}

/** Tutoring classes: creation with their sessions generated (preview first), the class, the list, the sessions and moves. */
@Injectable()
export class TutoringClassesService {
  private readonly core: SessionCore;

  constructor(@InjectDataSource() private readonly db: DataSource) {
    this.core = new SessionCore(db, SESSION_RULES.tutoring);
  }

  /**
   * Creates a tutoring class and generates its sessions from the weekly pattern over [from, to] with the teaching
   * module's rules (holidays skipped, make-up days as their weekday) and clash check (the teacher's and the room's
   * sessions of either kind). A slot without an end lasts the type's duration. Preview answers the sessions and
   * clashes without writing; otherwise the class and all its sessions are written, or nothing with the clash list.
   */
  async add(user: SessionUser, input: AddTutorialSchoolCareInput): Promise<AddTutorialSchoolCareAnswer> {
    const school = schoolOf(user);
    const run = async (em: EntityManager): Promise<AddTutorialSchoolCareAnswer> => {
      if (!input.preview) await lockSchedule(em, school);
      const [type]: Array<{ id: number; duration_min: number; price_fen: number; teacher_id: number | null }> = await em.query(
        `select id, duration_min::int as duration_min, price_fen::float8 as price_fen, teacher_id from tutoring_types where id = $1 and school_id = $2`,
        [input.type_id, school],
      );
      if (!type) throw new AppError('tutoring.type_not_found');
      const teacherId = input.teacher_id ?? type.teacher_id;
      if (!teacherId) throw new AppError('tutoring.teacher_required');
      await checkTeacher(em, school, teacherId);
      await checkRoom(em, school, input.room_id);
      const pattern = input.pattern.map((p) => {
        const start = toMinutes(p.start_time);
        const end = p.end_time === undefined ? start + type.duration_min : toMinutes(p.end_time);
        if (end > 1440) throw new AppError('tutoring.slot_past_midnight', { start_time: p.start_time, minutes: type.duration_min });
        return { weekday: p.weekday, start_time: p.start_time, end_time: toHHMM(end) };
      });
      const calendar = await calendarOf(em, school, input.from, input.to);
      const g = generateSessions({ pattern, from: input.from, to: input.to, calendar, limit: MAX_SESSIONS });
      const roomId = input.room_id ?? null;
      const clashes = await tutoringClashes(
        em,
        school,
        g.sessions.map((s) => ({ day: s.day, weekday: s.weekday, start: s.start, end: s.end, teacher_id: teacherId, room_id: roomId })),
        { exceptSessions: [], ownClass: null },
      );
      const answer: AddTutorialSchoolCareAnswer = { preview: !!input.preview, ...g, clashes, written: 0, class: null };
      if (input.preview) return answer;
      if (clashes.length) throw clashError(clashes);
      if (!g.sessions.length) throw new AppError('tutoring.no_sessions');
      let id: number;
      try {
        const [row]: Array<{ id: number }> = await em.query(
          `insert into tutoring_classes (school_id, type_id, name, teacher_id, room_id, capacity, duration_min, price_fen, pattern, from_day, to_day, remark, created_by)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, $11, $12, $13) returning id`,
          [
            school,
            type.id,
            input.name,
            teacherId,
            roomId,
            input.capacity,
            type.duration_min,
            type.price_fen,
            JSON.stringify(pattern),
            input.from,
            input.to,
            input.remark ?? null,
            user.id,
          ],
        );
        id = row.id;
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError('tutoring.class_name_taken');
        throw err;
      }
      await em
        .query(
          `insert into class_sessions (school_id, kind, class_id, day, start_min, end_min, teacher_id, room_id, created_by)
           select $1, 'tutoring', $2, unnest($3::date[]), unnest($4::int[]), unnest($5::int[]), $6, $7, $8`,
          [school, id, g.sessions.map((s) => s.day), g.sessions.map((s) => s.start), g.sessions.map((s) => s.end), teacherId, roomId, user.id],
        )
        .catch(overlapRefusal);
      return { ...answer, written: g.sessions.length, class: await this.one(em, school, id) };
    };
    return input.preview ? run(this.db.manager) : this.db.transaction(run);
  }

  private async one(db: Pick<EntityManager, 'query'>, school: number, id: number): Promise<TutoringClass> {
    const [row]: TutoringClass[] = await db.query(
      `select ${CLASS_COLUMNS} from tutoring_classes c ${CLASS_JOINS} where c.school_id = $1 and c.id = $2 and c.deleted_at is null`,
      [school, id],
    );
    if (!row) throw new AppError('tutoring.class_not_found');
    return row;
  }

  info(user: SessionUser, id: number): Promise<TutoringClass> {
    return this.one(this.db, schoolOf(user), id);
  }

  /** Classes newest first, by name or type; rows and total in one statement. */
  async list(user: SessionUser, q: TutorialListQuery): Promise<Page<TutoringClass>> {
    const where = `c.school_id = $1 and c.deleted_at is null and ($2::text is null or c.name ilike $2) and ($3::int is null or c.type_id = $3)`;
    const rows: Array<TutoringClass & { total: number }> = await this.db.query(
      `select n.total, p.* from (select count(*)::int as total from tutoring_classes c where ${where}) n
       left join lateral (select ${CLASS_COLUMNS} from tutoring_classes c ${CLASS_JOINS} where ${where} order by c.id desc limit $4 offset $5) p on true`,
      [schoolOf(user), containsPattern(q.name), q.type_id ?? null, q.limit, offsetOf(q)],
    );
    return pageOf(
      rows.filter((r) => r.id !== null).map(({ total: _, ...r }) => r as TutoringClass),
      totalOf(rows),
      q,
    );
  }

  /** The class's sessions in day order with their lesson number (among those not cancelled), paged, by range and state. */
  sessions(user: SessionUser, q: TutorialSchedulingQuery): Promise<Page<TutoringSession>> {
    return this.core.page(user, q);
  }

  /**
   * Moves one planned tutoring session (day, times, room) on the version read under the school's scheduling lock,
   * with the clash rules of the generation for its teacher, room and students (see SessionCore.move).
   */
  move(user: SessionUser, input: TutorialChangeSchedulingInput): Promise<TutoringSession> {
    return this.core.move(user, input);
  }

  /** Starts or stops a class on the version read (a stopped class takes no new students; its sessions stay). */
  async setStatus(user: SessionUser, input: TutorialClassStatusInput): Promise<TutoringClass> {
    const school = schoolOf(user);
    await this.db.transaction(async (em) => {
      const c = await this.locked(em, school, input.id, input.version);
      if (c.status === input.status) throw new AppError('tutoring.class_status_unchanged');
      await em.query(`update tutoring_classes set status = $2, version = version + 1, updated_at = now() where id = $1`, [c.id, input.status]);
    });
    return this.one(this.db, school, input.id);
  }

  /**
   * Deletes a class with no held session on the version read: marked deleted (its name free again) and its planned
   * sessions cancelled, which frees their teacher and room. Answers the number of sessions cancelled.
   */
  async remove(user: SessionUser, input: DelTutorialClassInput): Promise<{ id: number; cancelled: number }> {
    const school = schoolOf(user);
    return this.db.transaction(async (em) => {
      await lockSchedule(em, school);
      const c = await this.locked(em, school, input.id, input.version);
      const [{ held }]: Array<{ held: number }> = await em.query(
        `select count(*)::int as held from class_sessions where kind = 'tutoring' and class_id = $1 and state = 'held'`,
        [c.id],
      );
      if (held > 0) throw new AppError('tutoring.class_has_held', { held });
      const [{ cancelled }]: Array<{ cancelled: number }> = await em.query(
        `with d as (update tutoring_classes set deleted_at = now(), version = version + 1, updated_at = now() where id = $1 returning id),
              x as (update class_sessions set state = 'cancelled', cancel_reason = $2, version = version + 1, updated_at = now()
                     where kind = 'tutoring' and class_id = $1 and state = 'planned' returning id)
         select (select count(*)::int from x) as cancelled, (select count(*)::int from d) as deleted`,
        [c.id, '辅导班已删除'],
      );
      return { id: c.id, cancelled };
    });
  }

  /** Cancels one planned session of a class not deleted, with a reason on the version read: it frees its teacher and room. */
  cancelSession(user: SessionUser, input: CancelTutorialSessionInput): Promise<TutoringSession> {
    return this.core.cancel(user, input);
  }

  /** The class locked for update, on the version read. */
  private async locked(em: EntityManager, school: number, id: number, version: number): Promise<{ id: number; status: number }> {
    const [c]: Array<{ id: number; status: number; version: number }> = await em.query(
      `select id, status::int as status, version from tutoring_classes where school_id = $1 and id = $2 and deleted_at is null for update`,
      [school, id],
    );
    if (!c) throw new AppError('tutoring.class_not_found');
    if (c.version !== version) throw new AppError('tutoring.class_stale');
    return c;
  }
}
