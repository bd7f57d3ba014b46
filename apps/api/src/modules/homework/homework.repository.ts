import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Role, type Homework, type HomeworkActor, type HomeworkKind, type HomeworkState } from '@wantuo/shared';
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { DataSource } from 'typeorm';
import { guardianOf, responsibleFor } from '../../core/access/access';
import { kdb, pageRows, type DB } from '../../core/database/kysely';
import type { PageQuery, Queryable } from '../../core/database/sql-kit';

type H = DB & { h: DB['homeworks'] };
type HU = H & { hu: DB['users'] };
type S = DB & { s: DB['students'] };

const one = sql.lit(1).as('one');

/** The school's today (school-local), as a one-row table `d` (`offset 0`: evaluated once). */
const todayOf = (on: Queryable, school: number) =>
  kdb(on)
    .selectFrom('schools')
    .select(sql<string>`(now() at time zone timezone)::date`.as('today'))
    .where('id', '=', school)
    .offset(0)
    .as('d');

/**
 * A teacher's own class of a homework `h`: the teacher of a teaching class, the head teacher or a duty teacher of a
 * care class. The admin: any.
 */
export function ownHomework(eb: ExpressionBuilder<H, 'h'>, role: Role, me: number): Expression<SqlBool> {
  if (role === Role.Admin) return eb.lit(true);
  return eb.or([
    eb.and([
      eb('h.kind', '=', 'teaching'),
      eb.exists(
        eb
          .selectFrom('teaching_classes as oc')
          .select(one)
          .whereRef('oc.id', '=', 'h.class_id')
          .where('oc.teacher_id', '=', me)
          .where('oc.deleted_at', 'is', null),
      ),
    ]),
    eb.and([
      eb('h.kind', '=', 'care'),
      eb.exists(
        eb
          .selectFrom('care_classes as oc')
          .select(one)
          .whereRef('oc.id', '=', 'h.class_id')
          .where('oc.deleted_at', 'is', null)
          .where((w) =>
            w.or([
              w('oc.head_teacher_id', '=', me),
              w.exists(w.selectFrom('duty_assignments as od').select(one).whereRef('od.class_id', '=', 'oc.id').where('od.teacher_id', '=', me)),
            ]),
          ),
      ),
    ]),
  ]);
}

/**
 * The students (`s`) whose homework the caller may read: the admin any of the school, a guardian an own child, a
 * teacher or head teacher a student they are responsible for (care class) or teach (teaching class).
 */
export function studentScope(eb: ExpressionBuilder<S, 's'>, role: Role, me: number): Expression<SqlBool> {
  if (role === Role.Admin) return eb.lit(true);
  if (role === Role.Parent) return guardianOf(eb, eb.ref('s.id'), me);
  return eb.or([
    responsibleFor(eb, eb.ref('s.id'), me),
    eb.exists(
      eb
        .selectFrom('teaching_class_students as tm')
        .innerJoin('teaching_classes as tc', 'tc.id', 'tm.class_id')
        .select(one)
        .whereRef('tm.student_id', '=', 's.id')
        .where('tc.teacher_id', '=', me)
        .where('tc.deleted_at', 'is', null),
    ),
  ]);
}

/** The columns of a homework `h` with its teacher `hu` (without its counts). */
const homeworkColumns = (eb: ExpressionBuilder<HU, 'h' | 'hu'>) =>
  [
    'h.id',
    'h.kind',
    'h.class_id',
    eb.fn
      .coalesce(
        eb
          .case()
          .when('h.kind', '=', 'care')
          .then(eb.selectFrom('care_classes as cc').select('cc.name').whereRef('cc.id', '=', 'h.class_id'))
          .else(eb.selectFrom('teaching_classes as tc').select('tc.name').whereRef('tc.id', '=', 'h.class_id'))
          .end(),
        sql.lit(''),
      )
      .$castTo<string>()
      .as('class_name'),
    'h.session_id',
    eb
      .selectFrom('class_sessions as cs')
      .select((x) => sql<string>`to_char(${x.ref('cs.day')}, 'YYYY-MM-DD')`.as('day'))
      .whereRef('cs.id', '=', 'h.session_id')
      .as('session_day'),
    'h.title',
    'h.content',
    eb.ref('h.attachments').$castTo<Homework['attachments']>().as('attachments'),
    sql<string>`to_char(${eb.ref('h.set_day')}, 'YYYY-MM-DD')`.as('set_day'),
    sql<string>`to_char(${eb.ref('h.due_day')}, 'YYYY-MM-DD')`.as('due_day'),
    'h.teacher_id',
    'hu.name as teacher_name',
    'h.created_at',
  ] as const;

/** The counts of a homework `h`'s students by state. */
const homeworkCounts = (eb: ExpressionBuilder<H, 'h'>) => {
  const count = (state?: HomeworkState) =>
    eb
      .selectFrom('homework_submissions as x')
      .select(sql<number>`count(*)::int`.as('n'))
      .whereRef('x.homework_id', '=', 'h.id')
      .$if(state !== undefined, (b) => b.where('x.state', '=', state!))
      .$asScalar();
  return [count().as('students'), count('todo').as('todo'), count('done').as('done'), count('checked').as('checked')] as const;
};

/** The columns of a submission `hs` with its last writer `su`. */
const submissionColumns = [
  'hs.state',
  'hs.note',
  'hs.photo_url',
  'hs.home_note',
  'su.name as updated_by_name',
  'hs.updated_at',
  'hs.version',
] as const;

/** What the homework lists select. */
export interface HomeworkFilter {
  school: number;
  role: Role;
  me: number;
  kind: HomeworkKind | null;
  classId: number | null;
  day: string | null;
  pattern: string | null;
  sessionId: number | null;
}

/** A change to write: one row of the batch statement. */
export interface Change {
  student_id: number;
  from: HomeworkState;
  to: HomeworkState;
}

/** The SQL of the homework module (issue 38): every statement typed by the schema. */
@Injectable()
export class HomeworkRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The school's today, whether the class is the teacher's own, whether the session is of it, the homework of the key. */
  issueChecks(school: number, kind: HomeworkKind, classId: number, me: number, sessionId: number | null, key: string) {
    return kdb(this.db)
      .selectFrom(todayOf(this.db, school))
      .select((eb) => [
        sql<string>`to_char(${eb.ref('d.today')}, 'YYYY-MM-DD')`.as('today'),
        (kind === 'care'
          ? eb.exists(
              eb
                .selectFrom('care_classes as c')
                .select(one)
                .where('c.id', '=', classId)
                .where('c.school_id', '=', school)
                .where('c.deleted_at', 'is', null)
                .where((w) =>
                  w.or([
                    w('c.head_teacher_id', '=', me),
                    w.exists(w.selectFrom('duty_assignments as a').select(one).whereRef('a.class_id', '=', 'c.id').where('a.teacher_id', '=', me)),
                  ]),
                ),
            )
          : eb.exists(
              eb
                .selectFrom('teaching_classes as c')
                .select(one)
                .where('c.id', '=', classId)
                .where('c.school_id', '=', school)
                .where('c.deleted_at', 'is', null)
                .where('c.teacher_id', '=', me),
            )
        ).as('class_ok'),
        (sessionId === null
          ? eb.lit(true)
          : eb.exists(
              eb
                .selectFrom('class_sessions as s')
                .select(one)
                .where('s.id', '=', sessionId)
                .where('s.school_id', '=', school)
                .where('s.kind', '=', 'teaching')
                .where('s.class_id', '=', classId),
            )
        ).as('session_ok'),
        eb.selectFrom('homeworks as h').select('h.id').where('h.school_id', '=', school).where('h.request_key', '=', key).as('prior'),
      ])
      .executeTakeFirst();
  }

  /** One statement: the homework and a "not done" row for every active student of the class; with their count. */
  issue(
    em: Queryable,
    row: {
      school_id: number;
      kind: HomeworkKind;
      class_id: number;
      session_id: number | null;
      title: string;
      content: string;
      attachments: unknown;
      set_day: string;
      due_day: string;
      teacher_id: number;
      request_key: string;
    },
  ) {
    const k = kdb(em);
    const members =
      row.kind === 'care'
        ? k
            .selectFrom('care_class_students as m')
            .innerJoin('students as s', 's.id', 'm.student_id')
            .select('m.student_id')
            .where('m.class_id', '=', row.class_id)
            .where('s.status', '=', 1)
        : k
            .selectFrom('teaching_class_students as m')
            .innerJoin('students as s', 's.id', 'm.student_id')
            .select('m.student_id')
            .where('m.class_id', '=', row.class_id)
            .where('s.status', '=', 1);
    return k
      .with('h', (db) =>
        db
          .insertInto('homeworks')
          .values({ ...row, attachments: sql`${JSON.stringify(row.attachments)}::jsonb` })
          .returning(['id', 'school_id']),
      )
      .with('m', (db) =>
        db
          .insertInto('homework_submissions')
          .columns(['homework_id', 'student_id', 'school_id'])
          .expression(db.selectFrom(['h', members.as('x')]).select(['h.id', 'x.student_id', 'h.school_id']))
          .returning(one),
      )
      .selectFrom('h')
      .select((eb) => [
        'h.id',
        eb
          .selectFrom('m')
          .select(sql<number>`count(*)::int`.as('n'))
          .$asScalar()
          .as('students'),
      ])
      .executeTakeFirstOrThrow();
  }

  /** Every guardian of the homework's students, with the student and the school. */
  guardiansOf(em: Queryable, homeworkId: number) {
    return kdb(em)
      .selectFrom('homework_submissions as m')
      .innerJoin('students as s', 's.id', 'm.student_id')
      .innerJoin('schools as sc', 'sc.id', 'm.school_id')
      .innerJoin('student_guardians as g', 'g.student_id', 'm.student_id')
      .select(['s.id as student_id', 's.name as student', 'sc.name as school', 'g.user_id'])
      .where('m.homework_id', '=', homeworkId)
      .execute();
  }

  /** The homework of a request key. */
  async byKey(school: number, key: string): Promise<number | undefined> {
    const r = await kdb(this.db)
      .selectFrom('homeworks')
      .select('id')
      .where('school_id', '=', school)
      .where('request_key', '=', key)
      .executeTakeFirst();
    return r?.id;
  }

  /** One homework with its counts (`own`: only of the caller's own classes). */
  homework(school: number, id: number, own?: { role: Role; me: number }) {
    return kdb(this.db)
      .selectFrom('homeworks as h')
      .innerJoin('users as hu', 'hu.id', 'h.teacher_id')
      .select(homeworkColumns)
      .select(homeworkCounts)
      .where('h.id', '=', id)
      .where('h.school_id', '=', school)
      .$if(own !== undefined, (b) => b.where((eb) => ownHomework(eb, own!.role, own!.me)))
      .executeTakeFirst();
  }

  /** A page of the homework `f` selects, newest first, with the total (one statement). */
  page(f: HomeworkFilter, q: PageQuery) {
    const k = kdb(this.db);
    const where = (eb: ExpressionBuilder<H, 'h'>) =>
      eb.and([
        eb('h.school_id', '=', f.school),
        ownHomework(eb, f.role, f.me),
        ...(f.kind === null ? [] : [eb('h.kind', '=', f.kind)]),
        ...(f.classId === null ? [] : [eb('h.class_id', '=', f.classId)]),
        ...(f.day === null ? [] : [eb('h.set_day', '<=', f.day), eb('h.due_day', '>=', f.day)]),
        ...(f.pattern === null ? [] : [eb('h.title', 'like', f.pattern)]),
        ...(f.sessionId === null ? [] : [eb('h.session_id', '=', f.sessionId)]),
      ]);
    const total = k
      .selectFrom('homeworks as h')
      .select(sql<number>`count(*)::int`.as('total'))
      .where(where);
    const list = k
      .selectFrom('homeworks as h')
      .innerJoin('users as hu', 'hu.id', 'h.teacher_id')
      .select(homeworkColumns)
      .select(homeworkCounts)
      .where(where)
      .orderBy('h.set_day', 'desc')
      .orderBy('h.id', 'desc');
    return pageRows(this.db, total, list, q);
  }

  /** Whether the teaching class is the teacher's, of the school. */
  async ownTeachingClass(school: number, classId: number, me: number): Promise<boolean> {
    const r = await kdb(this.db)
      .selectFrom('teaching_classes as c')
      .select(one)
      .where('c.id', '=', classId)
      .where('c.school_id', '=', school)
      .where('c.teacher_id', '=', me)
      .where('c.deleted_at', 'is', null)
      .executeTakeFirst();
    return r !== undefined;
  }

  /** A page of a homework's students' states, by name. */
  submissions(homeworkId: number, state: HomeworkState | null, limit: number, offset: number) {
    return kdb(this.db)
      .selectFrom('homework_submissions as hs')
      .innerJoin('students as s', 's.id', 'hs.student_id')
      .leftJoin('users as su', 'su.id', 'hs.updated_by')
      .select(['hs.student_id', 's.name as student_name', ...submissionColumns])
      .where('hs.homework_id', '=', homeworkId)
      .$if(state !== null, (b) => b.where('hs.state', '=', state!))
      .orderBy('s.name')
      .orderBy('s.id')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  /** The student the caller may read, with the day asked (else the school's today). */
  studentOfDay(school: number, studentId: number, role: Role, me: number, day: string | null) {
    return kdb(this.db)
      .selectFrom('students as s')
      .crossJoin(todayOf(this.db, school))
      .select((eb) => ['s.id', 's.name', sql<string>`coalesce(${day}::text, to_char(${eb.ref('d.today')}, 'YYYY-MM-DD'))`.as('day')])
      .where('s.school_id', '=', school)
      .where('s.id', '=', studentId)
      .where((eb) => studentScope(eb, role, me))
      .executeTakeFirst();
  }

  /** A student's homework open on the day, the earliest due first (at most `max`). */
  studentDay(studentId: number, day: string, max: number) {
    return kdb(this.db)
      .selectFrom('homework_submissions as hs')
      .innerJoin('homeworks as h', 'h.id', 'hs.homework_id')
      .innerJoin('users as hu', 'hu.id', 'h.teacher_id')
      .leftJoin('users as su', 'su.id', 'hs.updated_by')
      .select(homeworkColumns)
      .select(submissionColumns)
      .where('hs.student_id', '=', studentId)
      .where('h.set_day', '<=', sql<string>`${day}::date`)
      .where('h.due_day', '>=', sql<string>`${day}::date`)
      .orderBy('h.due_day')
      .orderBy('h.id')
      .limit(max)
      .execute();
  }

  /** One student's homework, of a student the caller may read. */
  studentWork(school: number, studentId: number, homeworkId: number, role: Role, me: number) {
    return kdb(this.db)
      .selectFrom('homework_submissions as hs')
      .innerJoin('students as s', 's.id', 'hs.student_id')
      .innerJoin('homeworks as h', 'h.id', 'hs.homework_id')
      .innerJoin('users as hu', 'hu.id', 'h.teacher_id')
      .leftJoin('users as su', 'su.id', 'hs.updated_by')
      .select(['s.id as student_id', 's.name as student_name'])
      .select(homeworkColumns)
      .select(submissionColumns)
      .where('hs.student_id', '=', studentId)
      .where('hs.homework_id', '=', homeworkId)
      .where('h.school_id', '=', school)
      .where('s.school_id', '=', school)
      .where((eb) => studentScope(eb, role, me))
      .executeTakeFirst();
  }

  /** The history of one student's homework, oldest first (at most `max`). */
  history(homeworkId: number, studentId: number, max: number) {
    return kdb(this.db)
      .selectFrom('homework_events as e')
      .leftJoin('users as u', 'u.id', 'e.actor_id')
      .select((eb) => [
        sql<number>`${eb.ref('e.id')}::int`.as('id'),
        'e.from_state',
        'e.to_state',
        'e.note',
        'e.photo_url',
        'u.name as actor_name',
        'e.actor',
        'e.at',
      ])
      .where('e.homework_id', '=', homeworkId)
      .where('e.student_id', '=', studentId)
      .orderBy('e.id')
      .limit(max)
      .execute();
  }

  /** The student's tutoring today (school-local). */
  tutoringToday(school: number, studentId: number) {
    return kdb(this.db)
      .selectFrom('student_days as sd')
      .crossJoin(todayOf(this.db, school))
      .leftJoin('users as u', 'u.id', 'sd.tutor_started_by')
      .select((eb) => [
        sql<string>`to_char(${eb.ref('sd.day')}, 'YYYY-MM-DD')`.as('day'),
        'sd.tutor_started_at as started_at',
        'sd.tutor_ended_at as ended_at',
        'u.name as started_by_name',
      ])
      .where('sd.student_id', '=', studentId)
      .whereRef('sd.day', '=', 'd.today')
      .executeTakeFirst();
  }

  /** Whether the homework is of the school and of the caller's own classes. */
  async ownHomeworkExists(em: Queryable, school: number, id: number, role: Role, me: number): Promise<boolean> {
    const r = await kdb(em)
      .selectFrom('homeworks as h')
      .select(one)
      .where('h.id', '=', id)
      .where('h.school_id', '=', school)
      .where((eb) => ownHomework(eb, role, me))
      .executeTakeFirst();
    return r !== undefined;
  }

  /** Whether the homework and the student are of the school and the student is the guardian's child. */
  async childsHomework(em: Queryable, school: number, homeworkId: number, studentId: number, guardian: number): Promise<boolean> {
    const r = await kdb(em)
      .selectFrom('homeworks as h')
      .innerJoin('students as s', (j) => j.on('s.id', '=', studentId).on('s.school_id', '=', school))
      .select(one)
      .where('h.id', '=', homeworkId)
      .where('h.school_id', '=', school)
      .where((eb) => guardianOf(eb, eb.ref('s.id'), guardian))
      .executeTakeFirst();
    return r !== undefined;
  }

  /** The submissions of these students, locked in student order (concurrent batches never deadlock). */
  lock(em: Queryable, homeworkId: number, ids: number[]) {
    return kdb(em)
      .selectFrom('homework_submissions')
      .select(['student_id', 'state', 'note', 'photo_url', 'home_note', 'version'])
      .where('homework_id', '=', homeworkId)
      .where((eb) => sql<SqlBool>`${eb.ref('student_id')} = any(${ids}::int[])`)
      .orderBy('student_id')
      .forUpdate()
      .execute();
  }

  /** How many history entries these request keys have. */
  async seen(em: Queryable, school: number, keys: string[]): Promise<number> {
    const r = await kdb(em)
      .selectFrom('homework_events')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('school_id', '=', school)
      .where((eb) => sql<SqlBool>`${eb.ref('request_key')} = any(${keys}::text[])`)
      .executeTakeFirstOrThrow();
    return r.n;
  }

  /** One statement: the rows change (version + 1) and one history entry each is appended. */
  write(
    em: Queryable,
    school: number,
    homeworkId: number,
    changes: Change[],
    actorId: number,
    actor: HomeworkActor,
    requestId: string,
    extra: { note: string | null; photo: string | null; homeNote: string | null },
  ) {
    const note = sql<string | null>`${extra.note}::text`;
    const photo = sql<string | null>`${extra.photo}::text`;
    const homeNote = sql<string | null>`${extra.homeNote}::text`;
    return kdb(em)
      .with('c', (db) =>
        db.selectNoFrom([
          sql<number>`unnest(${changes.map((c) => c.student_id)}::int[])`.as('student_id'),
          sql<HomeworkState>`unnest(${changes.map((c) => c.from)}::text[])`.as('from_state'),
          sql<HomeworkState>`unnest(${changes.map((c) => c.to)}::text[])`.as('to_state'),
        ]),
      )
      .with('u', (db) =>
        db
          .updateTable('homework_submissions as hs')
          .from('c')
          .set((eb) => ({
            state: eb.ref('c.to_state'),
            note: eb.fn.coalesce(note, eb.ref('hs.note')),
            photo_url: eb.fn.coalesce(photo, eb.ref('hs.photo_url')),
            home_note: eb.fn.coalesce(homeNote, eb.ref('hs.home_note')),
            updated_by: actorId,
            updated_at: sql`now()`,
            version: eb('hs.version', '+', 1),
          }))
          .where('hs.homework_id', '=', homeworkId)
          .whereRef('hs.student_id', '=', 'c.student_id')
          .returning(['hs.student_id', 'hs.state', 'hs.note', 'hs.photo_url', 'hs.home_note', 'hs.version', 'c.from_state']),
      )
      .with('e', (db) =>
        db
          .insertInto('homework_events')
          .columns(['school_id', 'homework_id', 'student_id', 'from_state', 'to_state', 'note', 'photo_url', 'actor_id', 'actor', 'request_key'])
          .expression(
            db
              .selectFrom('u')
              .select((eb) => [
                sql<number>`${school}::int8`.as('school_id'),
                sql<number>`${homeworkId}::int8`.as('homework_id'),
                'u.student_id',
                'u.from_state',
                'u.state',
                eb.fn.coalesce(note, homeNote).as('note'),
                photo.as('photo_url'),
                sql<number>`${actorId}::int8`.as('actor_id'),
                sql<HomeworkActor>`${actor}::text`.as('actor'),
                sql<string>`${requestId}::text || ':' || ${eb.ref('u.student_id')}`.as('request_key'),
              ]),
          )
          .returning(one),
      )
      .selectFrom('u')
      .select(['u.student_id', 'u.state', 'u.note', 'u.photo_url', 'u.home_note', 'u.version'])
      .execute();
  }
}

/** A submission as `lock` and `write` select it. */
export type Locked = Awaited<ReturnType<HomeworkRepository['lock']>>[number];
