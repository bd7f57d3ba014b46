import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  addDays,
  effectiveWeekday,
  findClashes,
  freeWindows,
  withinOffered,
  type BusyInterval,
  type BusyRef,
  type Clash,
  type Generation,
  type TermSchedulingAnswer,
  type TermSchedulingInput,
  generateSessions,
  mondayOf,
  toHHMM,
  toMinutes,
  type CancelTeachingSessionInput,
  type ChangeSchedulingAnswer,
  type ChangeSchedulingQuery,
  type CourseSchedulingAnswer,
  type CourseSchedulingInput,
  type MoveTeachingSessionInput,
  type Page,
  type TeachingSession,
  type TeachingSessionsQuery,
} from '@wantuo/shared';
import { DataSource } from 'typeorm';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import type { Queryable } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { LockedClass } from './teaching-classes.repository';
import { generationState, replaceSessions, type GenerationState } from './teaching-generation.repository';
import { calendarOf, lockSchedule, nameClashes } from './teaching-schedule.repository';
import { availabilityOf, weekBusy } from './teaching-sessions.repository';
import { clashError, isOverlapViolation, overlapError, teachesOnly } from './teaching-sql';
import { SessionCore, TEACHING_SESSION_RULES } from './session-core';

/** The day a teacher's free windows are looked for in (local minutes). */
const DAY_OPEN = 8 * 60;
const DAY_CLOSE = 21 * 60;

/** The sessions of teaching classes: generation with its preview, the lists, moves and cancellations. */
@Injectable()
export class TeachingSessionsService {
  private readonly core: SessionCore;

  constructor(@InjectDataSource() private readonly db: DataSource) {
    this.core = new SessionCore(db, TEACHING_SESSION_RULES);
  }

  /**
   * Generates the class's sessions from a weekly pattern over [from, to]: holidays skipped, make-up days run as their
   * weekday, at most the class's sessions_count (the sessions kept outside the replaced ones count). The class's
   * planned sessions in the range are replaced. Preview answers the sessions and the clashes without writing;
   * otherwise all are written or none, refused with the clash list. A term of one class: see generateTerm.
   */
  async generate(user: SchoolCaller, input: CourseSchedulingInput): Promise<CourseSchedulingAnswer> {
    const { preview, ...one } = input;
    const term = await this.generateTerm(user, { classes: [one], preview });
    const { class_id: _, ...answer } = term.classes[0];
    return answer;
  }

  /**
   * Generates a term: several classes at once, each as generate does, all written or none. Each class is checked
   * against what is stored (but the sessions it and the term's other classes replace) and against the sessions the
   * term's classes before it generate, on the same clash rules (teacher, room, a student's other classes and care
   * time slots): refused with every clash listed, each with the class it was generated for. Four statements for the
   * whole term when writing (the school's lock, the read, the write; the clash names only when refused).
   */
  async generateTerm(user: SchoolCaller, input: TermSchedulingInput): Promise<TermSchedulingAnswer> {
    const school = user.schoolId;
    const run = async (em: Queryable): Promise<TermSchedulingAnswer> => {
      if (!input.preview) await lockSchedule(em, school);
      const plan = planTerm(input, await generationState(em, school, teachesOnly(user) ? user.id : null, input.classes, !input.preview));
      const clashes = (await nameClashes(em, plan.clashes)).map((c, i) => ({ ...c, class_id: plan.clashes[i].class_id }));
      const written = !input.preview && !clashes.length;
      const classes = plan.classes.map((p) => ({
        class_id: p.class.id,
        preview: !!input.preview,
        ...p.generation,
        clashes: clashes.filter((c) => c.class_id === p.class.id).map(({ class_id: _, ...c }) => c),
        replaced: p.replaced.length,
        written: written ? p.generation.sessions.length : 0,
      }));
      const answer: TermSchedulingAnswer = { preview: !!input.preview, classes, clashes, written: classes.reduce((n, c) => n + c.written, 0) };
      if (input.preview) return answer;
      if (clashes.length) throw clashError(clashes);
      const rows = {
        classIds: [] as number[],
        days: [] as string[],
        starts: [] as number[],
        ends: [] as number[],
        teacherIds: [] as number[],
        roomIds: [] as Array<number | null>,
      };
      for (const p of plan.classes) {
        for (const s of p.generation.sessions) {
          rows.classIds.push(p.class.id);
          rows.days.push(s.day);
          rows.starts.push(s.start);
          rows.ends.push(s.end);
          rows.teacherIds.push(p.class.teacher_id);
          rows.roomIds.push(p.class.room_id);
        }
      }
      try {
        await replaceSessions(em, {
          schoolId: school,
          kind: 'teaching',
          classIds: plan.classes.map((p) => p.class.id),
          replaced: plan.classes.flatMap((p) => p.replaced),
          userId: user.id,
          rows,
        });
      } catch (err) {
        // the database's own refusal (a writer outside the lock): the clash check answers with the names
        if (isOverlapViolation(err)) throw overlapError();
        throw err;
      }
      return answer;
    };
    return input.preview ? run(this.db.manager) : this.db.transaction(run);
  }

  /** The class's sessions, paged: teachingClassScheduling (the admin's schedule) and teachingClassSection (the lessons, a teacher's own). */
  list(user: SchoolCaller, q: TeachingSessionsQuery): Promise<Page<TeachingSession>> {
    return this.core.page(user, q);
  }

  /** One session of the school (a teacher: one they teach), of either kind: the roll call's session too. */
  one(db: Queryable, user: SchoolCaller, id: number): Promise<TeachingSession> {
    return this.core.one(db, user, id);
  }

  /**
   * What moving one session needs: for each day of a week (the session's by default), the calendar, the teacher's
   * and the room's other sessions, and the windows (08:00-21:00) where both are free for the session's length.
   */
  async changeData(user: SchoolCaller, q: ChangeSchedulingQuery): Promise<ChangeSchedulingAnswer> {
    const school = user.schoolId;
    const session = await this.one(this.db, user, q.id);
    const monday = mondayOf(q.week ?? session.day);
    const sunday = addDays(monday, 6);
    const calendar = await calendarOf(this.db, school, monday, sunday);
    const busy = await weekBusy(this.db, { sessionId: session.id, teacherId: session.teacher_id, roomId: session.room_id ?? 0, monday, sunday });
    // the teacher's offered times (teacherSchedule POST); none saved: every free window is as good as another
    const saved = await availabilityOf(this.db, session.teacher_id, school);
    const length = toMinutes(session.end_time) - toMinutes(session.start_time);
    const calMap = new Map(calendar.map((c) => [c.day, c]));
    const view = (b: (typeof busy)[number]) => ({ start_time: toHHMM(b.start_min), end_time: toHHMM(b.end_min), label: b.label });
    const days = Array.from({ length: 7 }, (_, i) => {
      const day = addDays(monday, i);
      const weekday = effectiveWeekday(day, calMap);
      const mine = busy.filter((b) => b.day === day);
      const free =
        weekday === null
          ? []
          : freeWindows(
              mine.map((b) => ({ start: b.start_min, end: b.end_min })),
              DAY_OPEN,
              DAY_CLOSE,
              length,
            );
      const offered = saved && weekday !== null ? saved.windows.filter((w) => w.weekday === weekday) : [];
      const slot = (w: { start: number; end: number }) => ({ start_time: toHHMM(w.start), end_time: toHHMM(w.end) });
      return {
        day,
        weekday,
        calendar: calMap.has(day)
          ? ({ works_as: null, note: null, ...calMap.get(day)! } as ChangeSchedulingAnswer['days'][number]['calendar'])
          : null,
        teacher_busy: mine.filter((b) => b.k === 'teacher').map(view),
        room_busy: mine.filter((b) => b.k === 'room').map(view),
        free: free.map(slot),
        offered: saved ? offered.map((w) => ({ start_time: w.start_time, end_time: w.end_time })) : null,
        suggested: saved
          ? withinOffered(
              free,
              offered.map((w) => ({ start: toMinutes(w.start_time), end: toMinutes(w.end_time) })),
              length,
            ).map(slot)
          : free.map(slot),
      };
    });
    return { session, week: monday, length, days, availability_note: saved?.note ?? null };
  }

  /** Moves one planned session (day, times, room) on the version read, with the clash rules of the generation (see SessionCore.move). */
  move(user: SchoolCaller, input: MoveTeachingSessionInput): Promise<TeachingSession> {
    return this.core.move(user, input);
  }

  /** Cancels one planned session with a reason on the version read: it frees its teacher and room. */
  cancel(user: SchoolCaller, input: CancelTeachingSessionInput): Promise<TeachingSession> {
    return this.core.cancel(user, input);
  }
}

/** One class of a term planned: what it replaces and what it generates. */
interface PlannedClass {
  class: LockedClass;
  replaced: number[];
  generation: Generation;
}

/**
 * The term's generations and their clashes, in the order of the input (pure: from the state read). Each class is
 * checked against the stored sessions its teacher, room and students are busy with (but the replaced ones; for a
 * student, not the class's own sessions), their care time slots, and the sessions the classes before it generate.
 */
export function planTerm(input: TermSchedulingInput, st: GenerationState): { classes: PlannedClass[]; clashes: Array<Clash & { class_id: number }> } {
  const byId = new Map(st.classes.map((c) => [c.id, c]));
  const replacedBy = new Map<number, number[]>();
  for (const [classId, id] of st.replaced) {
    const list = replacedBy.get(classId) ?? [];
    list.push(id);
    replacedBy.set(classId, list);
  }
  const replaced = new Set(st.replaced.map(([, id]) => id));
  // who is busy: the teachers' and rooms' sessions, each class's sessions (its students are busy then), care slots
  const people = new Map<string, BusyInterval[]>();
  const busyOf = (kind: 'teacher' | 'room', who: number) => {
    const key = `${kind}:${who}`;
    let list = people.get(key);
    if (!list) people.set(key, (list = []));
    return list;
  };
  for (const [kind, who, id, source, class_id, day, start, end, label] of st.busy) {
    if (!replaced.has(id)) busyOf(kind, who).push({ kind, who, day, start, end, ref: { source, session_id: id, class_id, label } });
  }
  const classKey = (kind: string, id: number) => `${kind}:${id}`;
  const sessionsOf = new Map<string, Array<{ day: string; start: number; end: number; ref: BusyRef }>>();
  for (const [kind, class_id, label, sessions] of st.classSessions) {
    sessionsOf.set(
      classKey(kind, class_id),
      sessions
        .filter(([id]) => !replaced.has(id))
        .map(([id, day, start, end]) => ({ day, start, end, ref: { source: kind, session_id: id, class_id, label } })),
    );
  }
  const classesOf = new Map<number, string[]>();
  for (const [kind, class_id, student] of st.memberships) {
    const list = classesOf.get(student) ?? [];
    list.push(classKey(kind, class_id));
    classesOf.set(student, list);
  }
  const care = new Map<number, BusyInterval[]>();
  for (const [who, class_id, source, weekdays, start, end, label] of st.care) {
    const list = care.get(who) ?? [];
    list.push({ kind: 'student', who, weekdays, start, end, ref: { source, class_id, label } });
    care.set(who, list);
  }
  const membersOf = new Map<number, number[]>();
  for (const [classId, student] of st.members) {
    const list = membersOf.get(classId) ?? [];
    list.push(student);
    membersOf.set(classId, list);
  }
  const classes: PlannedClass[] = [];
  const clashes: Array<Clash & { class_id: number }> = [];
  for (const q of input.classes) {
    const c = byId.get(q.class_id);
    if (!c) throw new AppError('teaching.class_not_found');
    if (c.status !== 1) throw new AppError('teaching.class_stopped');
    const generation = generateSessions({
      pattern: q.pattern,
      from: q.from,
      to: q.to,
      calendar: st.calendar,
      limit: Math.max(0, c.sessions_count - c.kept),
    });
    const students = membersOf.get(c.id) ?? [];
    const own = classKey('teaching', c.id);
    const busy: BusyInterval[] = [...busyOf('teacher', c.teacher_id), ...(c.room_id === null ? [] : busyOf('room', c.room_id))];
    for (const who of students) {
      for (const k of classesOf.get(who) ?? []) {
        if (k === own) continue;
        for (const s of sessionsOf.get(k) ?? []) busy.push({ kind: 'student', who, day: s.day, start: s.start, end: s.end, ref: s.ref });
      }
      busy.push(...(care.get(who) ?? []));
    }
    const proposed = generation.sessions.map((s) => ({
      day: s.day,
      weekday: s.weekday,
      start: s.start,
      end: s.end,
      teacher_id: c.teacher_id,
      room_id: c.room_id,
      student_ids: students,
    }));
    for (const x of findClashes(proposed, busy)) clashes.push({ ...x, class_id: c.id });
    // the classes after it see its new sessions in place of the replaced ones
    const ref: BusyRef = { source: 'teaching', session_id: null, class_id: c.id, label: c.name };
    const mine = sessionsOf.get(own) ?? [];
    sessionsOf.set(own, mine);
    for (const s of generation.sessions) {
      busyOf('teacher', c.teacher_id).push({ kind: 'teacher', who: c.teacher_id, day: s.day, start: s.start, end: s.end, ref });
      if (c.room_id !== null) busyOf('room', c.room_id).push({ kind: 'room', who: c.room_id, day: s.day, start: s.start, end: s.end, ref });
      mine.push({ day: s.day, start: s.start, end: s.end, ref });
    }
    classes.push({ class: c, replaced: replacedBy.get(c.id) ?? [], generation });
  }
  return { classes, clashes };
}
