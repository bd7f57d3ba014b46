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
import { DataSource } from 'typeorm';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { containsPattern, isUniqueViolation, type Queryable } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { Sendable } from '../../core/http/sendable';
import { SessionCore } from '../teaching/session-core';
import { TUTORING_SESSION_RULES } from './tutoring-sql';
import { calendarOf, clashError, isOverlapViolation, lockSchedule } from '../teaching/teaching-sql';
import { checkRoom, checkTeacher, tutoringClashes } from './tutoring-sql';
import {
  classPage,
  classRow,
  deleteClass,
  heldSessions,
  insertClass,
  insertSessions,
  lockedClass,
  setClassStatus,
  typeOf,
} from './tutoring-classes.repository';

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
    this.core = new SessionCore(db, TUTORING_SESSION_RULES);
  }

  /**
   * Creates a tutoring class and generates its sessions from the weekly pattern over [from, to] with the teaching
   * module's rules (holidays skipped, make-up days as their weekday) and clash check (the teacher's and the room's
   * sessions of either kind). A slot without an end lasts the type's duration. Preview answers the sessions and
   * clashes without writing; otherwise the class and all its sessions are written, or nothing with the clash list.
   */
  async add(user: SchoolCaller, input: AddTutorialSchoolCareInput): Promise<Sendable<AddTutorialSchoolCareAnswer>> {
    const school = user.schoolId;
    const run = async (em: Queryable): Promise<Sendable<AddTutorialSchoolCareAnswer>> => {
      if (!input.preview) await lockSchedule(em, school);
      const type = await typeOf(em, school, input.type_id);
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
      const answer: Sendable<AddTutorialSchoolCareAnswer> = { preview: !!input.preview, ...g, clashes, written: 0, class: null };
      if (input.preview) return answer;
      if (clashes.length) throw clashError(clashes);
      if (!g.sessions.length) throw new AppError('tutoring.no_sessions');
      let id: number;
      try {
        id = await insertClass(em, {
          schoolId: school,
          typeId: type.id,
          name: input.name,
          teacherId,
          roomId,
          capacity: input.capacity,
          durationMin: type.duration_min,
          priceFen: type.price_fen,
          pattern,
          from: input.from,
          to: input.to,
          remark: input.remark ?? null,
          by: user.id,
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError('tutoring.class_name_taken');
        throw err;
      }
      await insertSessions(em, {
        schoolId: school,
        classId: id,
        days: g.sessions.map((s) => s.day),
        starts: g.sessions.map((s) => s.start),
        ends: g.sessions.map((s) => s.end),
        teacherId,
        roomId,
        by: user.id,
      }).catch(overlapRefusal);
      return { ...answer, written: g.sessions.length, class: await this.one(em, school, id) };
    };
    return input.preview ? run(this.db.manager) : this.db.transaction(run);
  }

  private async one(db: Queryable, school: number, id: number): Promise<Sendable<TutoringClass>> {
    const row = await classRow(db, school, id);
    if (!row) throw new AppError('tutoring.class_not_found');
    return row;
  }

  info(user: SchoolCaller, id: number): Promise<Sendable<TutoringClass>> {
    return this.one(this.db, user.schoolId, id);
  }

  /** Classes newest first, by name or type; rows and total in one statement. */
  list(user: SchoolCaller, q: TutorialListQuery): Promise<Page<Sendable<TutoringClass>>> {
    return classPage(this.db, { schoolId: user.schoolId, name: containsPattern(q.name), typeId: q.type_id ?? null }, q);
  }

  /** The class's sessions in day order with their lesson number (among those not cancelled), paged, by range and state. */
  sessions(user: SchoolCaller, q: TutorialSchedulingQuery): Promise<Page<TutoringSession>> {
    return this.core.page(user, q);
  }

  /**
   * Moves one planned tutoring session (day, times, room) on the version read under the school's scheduling lock,
   * with the clash rules of the generation for its teacher, room and students (see SessionCore.move).
   */
  move(user: SchoolCaller, input: TutorialChangeSchedulingInput): Promise<TutoringSession> {
    return this.core.move(user, input);
  }

  /** Starts or stops a class on the version read (a stopped class takes no new students; its sessions stay). */
  async setStatus(user: SchoolCaller, input: TutorialClassStatusInput): Promise<Sendable<TutoringClass>> {
    const school = user.schoolId;
    await this.db.transaction(async (em) => {
      const c = await this.locked(em, school, input.id, input.version);
      if (c.status === input.status) throw new AppError('tutoring.class_status_unchanged');
      await setClassStatus(em, c.id, input.status);
    });
    return this.one(this.db, school, input.id);
  }

  /**
   * Deletes a class with no held session on the version read: marked deleted (its name free again) and its planned
   * sessions cancelled, which frees their teacher and room. Answers the number of sessions cancelled.
   */
  async remove(user: SchoolCaller, input: DelTutorialClassInput): Promise<{ id: number; cancelled: number }> {
    const school = user.schoolId;
    return this.db.transaction(async (em) => {
      await lockSchedule(em, school);
      const c = await this.locked(em, school, input.id, input.version);
      const held = await heldSessions(em, c.id);
      if (held > 0) throw new AppError('tutoring.class_has_held', { held });
      const cancelled = await deleteClass(em, c.id, '辅导班已删除');
      return { id: c.id, cancelled };
    });
  }

  /** Cancels one planned session of a class not deleted, with a reason on the version read: it frees its teacher and room. */
  cancelSession(user: SchoolCaller, input: CancelTutorialSessionInput): Promise<TutoringSession> {
    return this.core.cancel(user, input);
  }

  /** The class locked for update, on the version read. */
  private async locked(em: Queryable, school: number, id: number, version: number): Promise<{ id: number; status: number }> {
    const c = await lockedClass(em, school, id, true);
    if (!c) throw new AppError('tutoring.class_not_found');
    if (c.version !== version) throw new AppError('tutoring.class_stale');
    return c;
  }
}
