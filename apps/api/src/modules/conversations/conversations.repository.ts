import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Role, type ConversationSide, type OfficeHours } from '@wantuo/shared';
import { sql, type ExpressionBuilder, type InferResult, type Selectable } from 'kysely';
import { DataSource } from 'typeorm';
import { studentAccess, type AccessCaller } from '../../core/access/access';
import { kdb, type DB } from '../../core/database/kysely';
import { containsPattern, type Queryable } from '../../core/database/sql-kit';

/** A message row as the module reads it (`m` the message). */
const MESSAGE = [
  'm.id',
  'm.side',
  'm.sender_id',
  'm.sender_name',
  'm.body',
  'm.photo_url',
  'm.quick',
  'm.urgent',
  'm.retracted_at',
  'm.sent_at',
  'm.student_id',
  'm.conversation_id',
] as const;

const messageById = (on: Queryable) => kdb(on).selectFrom('family_messages as m').select(MESSAGE);

/** A message row as stored. */
export type MessageRecord = InferResult<ReturnType<typeof messageById>>[number];

/** The first (by id) live care class of the student `s`: its name. */
const classNameOf = (eb: ExpressionBuilder<DB & { s: DB['students'] }, 's'>) =>
  eb
    .selectFrom('care_class_students as r')
    .innerJoin('care_classes as c', (j) => j.onRef('c.id', '=', 'r.class_id').on('c.deleted_at', 'is', null))
    .select('c.name')
    .whereRef('r.student_id', '=', 's.id')
    .orderBy('c.id')
    .limit(1);

/** A guardian's name in a child's conversation (`g` the guardianship, `u` the guardian): the relation, else the name. */
const guardianName = (eb: ExpressionBuilder<DB & { g: DB['student_guardians']; u: DB['users'] }, 'g' | 'u'>) =>
  eb.fn.coalesce(eb.fn<string | null>('nullif', ['g.relation', sql.lit('')]), 'u.name');

/** Office hours as read (null columns: a left join without any): the module's OfficeHours, null for the default. */
type HoursColumns = { [K in 'days' | 'start_time' | 'end_time']: Selectable<DB['staff_office_hours']>[K] | null };

const hoursOf = (r: HoursColumns): OfficeHours | null =>
  r.days ? { days: r.days.map(Number), start: r.start_time!.slice(0, 5), end: r.end_time!.slice(0, 5) } : null;

/** A member of staff of the conversation's school side, with their office hours (null: the default). */
export type StaffMember = Awaited<ReturnType<ConversationsRepository['staff']>>[number];

/** A guardian to tell of a conversation's new school message. */
export type DueNotice = Awaited<ReturnType<ConversationsRepository['claimNotices']>>[number];

/** A row of a caller's conversation list, with the list's total. */
export type ListRow = Awaited<ReturnType<ConversationsRepository['list']>>[number];

/**
 * The SQL of family conversations (issue 40): conversations, messages, reads, office hours and the notices' sweep,
 * every statement typed by the schema (issue 38). The statements of a send, a retraction and the sweep run on the
 * transaction handed in (`on`); the others on the pool.
 */
@Injectable()
export class ConversationsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The child if the caller reaches it (studentAccess; not anonymised), with the school's zone; null otherwise. */
  async child(on: Queryable, caller: AccessCaller, studentId: number) {
    const row = await kdb(on)
      .selectFrom('students as s')
      .innerJoin('schools as sc', 'sc.id', 's.school_id')
      .select((eb) => [
        's.id as student_id',
        's.name',
        classNameOf(eb).as('class_name'),
        eb.fn.coalesce('s.photo_consent', sql.lit(false)).as('photo_consent'),
        eb.fn.coalesce('sc.timezone', sql.lit('Asia/Shanghai')).as('timezone'),
      ])
      .where('s.school_id', '=', caller.schoolId)
      .where('s.id', '=', studentId)
      .where('s.anonymised_at', 'is', null)
      .where((eb) => studentAccess(eb, eb.ref('s.id'), caller))
      .executeTakeFirst();
    return row ?? null;
  }

  /** The child's conversation, made on first use; its id. */
  async ensure(on: Queryable, schoolId: number, studentId: number): Promise<number> {
    const row = await kdb(on)
      .with('ins', (db) =>
        db
          .insertInto('family_conversations')
          .values({ school_id: schoolId, student_id: studentId })
          .onConflict((oc) => oc.column('student_id').doNothing())
          .returning('id'),
      )
      .selectFrom('ins')
      .select('ins.id')
      .unionAll((eb) => eb.selectFrom('family_conversations').select('family_conversations.id').where('student_id', '=', studentId))
      .limit(1)
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** The conversation's id, or null when nobody has written yet. */
  async find(on: Queryable, studentId: number): Promise<number | null> {
    const row = await kdb(on).selectFrom('family_conversations').select('id').where('student_id', '=', studentId).executeTakeFirst();
    return row?.id ?? null;
  }

  /**
   * The school side of a child's conversation: the head teachers of its classes, the teachers on duty for it (class-wide
   * or this child), the school's head teachers (`head` false unless of the child's class) and its admins; with their
   * office hours and whether they read the conversation in the last ten minutes.
   */
  async staff(on: Queryable, schoolId: number, studentId: number, conversationId: number | null) {
    const rows = await kdb(on)
      .with('classes', (db) =>
        db
          .selectFrom('care_class_students as r')
          .innerJoin('care_classes as c', (j) => j.onRef('c.id', '=', 'r.class_id').on('c.deleted_at', 'is', null))
          .select(['c.id', 'c.head_teacher_id'])
          .where('r.student_id', '=', studentId),
      )
      .with('members', (db) =>
        db
          .selectFrom('classes')
          .select((eb) => [eb.ref('classes.head_teacher_id').$notNull().as('id'), sql<boolean>`true`.as('head')])
          .where('classes.head_teacher_id', 'is not', null)
          .unionAll(
            db
              .selectFrom('duty_assignments as d')
              .select(['d.teacher_id as id', sql<boolean>`false`.as('head')])
              .where('d.class_id', 'in', db.selectFrom('classes').select('classes.id'))
              .where((eb) => eb.or([eb('d.student_id', 'is', null), eb('d.student_id', '=', studentId)])),
          )
          .unionAll(
            db
              .selectFrom('users as u')
              .select(['u.id', sql<boolean>`false`.as('head')])
              .where('u.school_id', '=', schoolId)
              .where('u.role', '=', Role.Admin)
              .where('u.deleted_at', 'is', null)
              .where('u.status', '=', 1),
          ),
      )
      .selectFrom('members as m')
      .innerJoin('users as u', (j) =>
        j
          .onRef('u.id', '=', 'm.id')
          .on('u.school_id', '=', schoolId)
          .on('u.deleted_at', 'is', null)
          .on('u.status', '=', 1)
          .on('u.job_status', '=', 1),
      )
      .leftJoin('staff_office_hours as h', 'h.user_id', 'u.id')
      .leftJoin('family_conversation_reads as rd', (j) =>
        j.on(sql<boolean>`${sql.ref('rd.conversation_id')} = ${conversationId}`).onRef('rd.user_id', '=', 'u.id'),
      )
      .select((eb) => [
        'u.id',
        'u.name',
        'u.role',
        eb.fn<boolean>('bool_or', ['m.head']).as('head'),
        'h.days',
        'h.start_time',
        'h.end_time',
        eb.fn
          .coalesce(eb.fn<boolean | null>('bool_or', [eb('rd.read_at', '>', sql<Date>`now() - interval '10 minutes'`)]), sql.lit(false))
          .as('active'),
      ])
      .groupBy(['u.id', 'u.name', 'u.role', 'h.days', 'h.start_time', 'h.end_time'])
      .orderBy((eb) => eb.fn('bool_or', ['m.head']), 'desc')
      .orderBy('u.role', 'desc')
      .orderBy('u.id')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      role: r.role,
      /** heads one of the child's classes */
      head: r.head,
      hours: hoursOf(r),
      /** read the conversation in the last ten minutes: still on the page */
      active: r.active,
    }));
  }

  /** The school's head teachers (any class) with their office hours: whom an urgent message goes to when no head of the child's class is on duty. */
  async headTeachers(schoolId: number) {
    const rows = await kdb(this.db)
      .selectFrom('users as u')
      .leftJoin('staff_office_hours as h', 'h.user_id', 'u.id')
      .select(['u.id', 'h.days', 'h.start_time', 'h.end_time'])
      .where('u.school_id', '=', schoolId)
      .where('u.role', '=', Role.HeadTeacher)
      .where('u.deleted_at', 'is', null)
      .where('u.status', '=', 1)
      .where('u.job_status', '=', 1)
      .orderBy('u.id')
      .execute();
    return rows.map((r) => ({ id: r.id, hours: hoursOf(r) }));
  }

  /** The child's guardians (active accounts), named by their relation to the child. */
  family(schoolId: number, studentId: number) {
    return kdb(this.db)
      .selectFrom('student_guardians as g')
      .innerJoin('users as u', (j) => j.onRef('u.id', '=', 'g.user_id').on('u.deleted_at', 'is', null).on('u.status', '=', 1))
      .select((eb) => ['u.id', guardianName(eb).as('name')])
      .where('g.student_id', '=', studentId)
      .where('g.school_id', '=', schoolId)
      .orderBy('g.user_id')
      .execute();
  }

  /** How a guardian is named in the child's conversation (their relation), or null when not its guardian. */
  async relation(on: Queryable, studentId: number, userId: number): Promise<string | null> {
    const row = await kdb(on)
      .selectFrom('student_guardians as g')
      .innerJoin('users as u', 'u.id', 'g.user_id')
      .select((eb) => guardianName(eb).as('name'))
      .where('g.student_id', '=', studentId)
      .where('g.user_id', '=', userId)
      .executeTakeFirst();
    return row?.name ?? null;
  }

  /** A page of messages, newest first (before a message id when paging back); one more than asked tells there are more. */
  messages(conversationId: number, before: number | undefined, limit: number): Promise<MessageRecord[]> {
    return messageById(this.db)
      .where('m.conversation_id', '=', conversationId)
      .$if(before !== undefined && before !== null, (q) => q.where('m.id', '<', before!))
      .orderBy('m.id', 'desc')
      .limit(limit + 1)
      .execute();
  }

  /** The newest message each side has read. */
  async readUpTo(conversationId: number): Promise<{ family: number | null; school: number | null }> {
    const row = await kdb(this.db)
      .selectFrom('family_conversation_reads')
      .select((eb) => [
        eb.fn.max<number | null>('last_read_id').filterWhere('side', '=', 'family').as('family'),
        eb.fn.max<number | null>('last_read_id').filterWhere('side', '=', 'school').as('school'),
      ])
      .where('conversation_id', '=', conversationId)
      .where('last_read_id', '>', 0)
      .executeTakeFirst();
    return { family: row?.family ?? null, school: row?.school ?? null };
  }

  /** Serialises one sender's sends (the rate limit counts what the others committed). */
  async lockSender(on: Queryable, userId: number): Promise<void> {
    await sql`select pg_advisory_xact_lock(hashtext(${`family_messages:${userId}`}))`.execute(kdb(on));
  }

  /** Messages the user sent in the last minute. */
  async sentLastMinute(on: Queryable, userId: number): Promise<number> {
    const row = await kdb(on)
      .selectFrom('family_messages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('sender_id', '=', userId)
      .where('sent_at', '>', sql<Date>`now() - interval '1 minute'`)
      .executeTakeFirstOrThrow();
    return row.n;
  }

  /** The message the sender already sent with this request id (a retried send), or null. */
  async byRequest(on: Queryable, userId: number, requestId: string): Promise<MessageRecord | null> {
    const row = await messageById(on).where('m.sender_id', '=', userId).where('m.request_id', '=', requestId).executeTakeFirst();
    return row ?? null;
  }

  /** Whether the upload at `url` is an image the user uploaded themselves. */
  async ownImage(on: Queryable, url: string, userId: number): Promise<boolean> {
    const rows = await kdb(on)
      .selectFrom('files')
      .select(sql.lit(1).as('one'))
      .where('storage_path', '=', url.replace(/^\/uploads\//, ''))
      .where('user_id', '=', userId)
      .where('mime', 'like', 'image/%')
      .execute();
    return rows.length > 0;
  }

  /** Writes a message and moves the conversation's last message; the sender has read up to it. */
  insert(
    on: Queryable,
    m: {
      conversationId: number;
      schoolId: number;
      studentId: number;
      side: ConversationSide;
      senderId: number;
      senderRole: Role;
      senderName: string;
      body: string | null;
      photoUrl: string | null;
      quick: boolean;
      urgent: boolean;
      requestId: string;
    },
  ): Promise<MessageRecord> {
    return kdb(on)
      .with('m', (db) =>
        db
          .insertInto('family_messages')
          .values({
            conversation_id: m.conversationId,
            school_id: m.schoolId,
            student_id: m.studentId,
            side: m.side,
            sender_id: m.senderId,
            sender_role: m.senderRole,
            sender_name: m.senderName,
            body: m.body,
            photo_url: m.photoUrl,
            quick: m.quick,
            urgent: m.urgent,
            request_id: m.requestId,
          })
          .returningAll(),
      )
      .with('c', (db) =>
        db
          .updateTable('family_conversations')
          .set({
            last_message_id: db.selectFrom('m').select('m.id'),
            last_message_at: db.selectFrom('m').select('m.sent_at'),
          })
          .where('family_conversations.id', '=', m.conversationId),
      )
      .with('r', (db) =>
        db
          .insertInto('family_conversation_reads')
          .columns(['conversation_id', 'user_id', 'side', 'last_read_id', 'read_at'])
          .expression(db.selectFrom('m').select(['m.conversation_id', 'm.sender_id', 'm.side', 'm.id', sql<Date>`now()`.as('read_at')]))
          .onConflict((oc) =>
            oc.columns(['conversation_id', 'user_id']).doUpdateSet((eb) => ({
              last_read_id: eb.fn('greatest', ['family_conversation_reads.last_read_id', 'excluded.last_read_id']),
              read_at: sql<Date>`now()`,
            })),
          ),
      )
      .selectFrom('m')
      .select(MESSAGE)
      .executeTakeFirstOrThrow();
  }

  /** The user has read the conversation up to a message of it (never back). */
  async markRead(conversationId: number, userId: number, side: ConversationSide, uptoId: number): Promise<void> {
    const k = kdb(this.db);
    await k
      .insertInto('family_conversation_reads')
      .columns(['conversation_id', 'user_id', 'side', 'last_read_id', 'read_at'])
      .expression(
        k
          .selectFrom('family_messages')
          .select((eb) => [
            eb.val(conversationId).as('conversation_id'),
            eb.val(userId).as('user_id'),
            eb.val(side).as('side'),
            eb.fn.max('id').as('last_read_id'),
            sql<Date>`now()`.as('read_at'),
          ])
          .where('conversation_id', '=', conversationId)
          .where('id', '<=', uptoId)
          .having((eb) => eb.fn.max('id'), 'is not', null),
      )
      .onConflict((oc) =>
        oc.columns(['conversation_id', 'user_id']).doUpdateSet((eb) => ({
          last_read_id: eb.fn('greatest', ['family_conversation_reads.last_read_id', 'excluded.last_read_id']),
          read_at: sql<Date>`now()`,
        })),
      )
      .execute();
  }

  /** A message of the school's, locked. */
  async lockMessage(on: Queryable, schoolId: number, id: number): Promise<MessageRecord | null> {
    const row = await messageById(on).where('m.id', '=', id).where('m.school_id', '=', schoolId).forUpdate().executeTakeFirst();
    return row ?? null;
  }

  /** Marks the message retracted (the only change the append-only trigger lets through). */
  retract(on: Queryable, id: number): Promise<MessageRecord> {
    return kdb(on)
      .updateTable('family_messages as m')
      .set({ retracted_at: sql<Date>`now()` })
      .where('m.id', '=', id)
      .where('m.retracted_at', 'is', null)
      .returning(MESSAGE)
      .executeTakeFirstOrThrow();
  }

  /**
   * A page of the caller's conversations: a guardian's children and a teacher's responsible children (with or without
   * messages), the admin's school's conversations with messages (every child when searching by name). Unread first,
   * then the newest message. Each row carries the list's total (`count(*) over ()`).
   */
  list(caller: AccessCaller, side: ConversationSide, q: { keyword?: string; unread?: boolean; page: number; limit: number }) {
    const kw = containsPattern(q.keyword);
    return kdb(this.db)
      .with('mine', (db) =>
        db
          .selectFrom('students as s')
          .leftJoin('family_conversations as c', 'c.student_id', 's.id')
          .leftJoin('family_conversation_reads as rd', (j) => j.onRef('rd.conversation_id', '=', 'c.id').on('rd.user_id', '=', caller.id))
          .select((eb) => [
            's.id as student_id',
            's.name as student_name',
            classNameOf(eb).as('class_name'),
            'c.id as conversation_id',
            'c.last_message_id',
            'c.last_message_at',
            eb.fn.coalesce('rd.last_read_id', sql.lit(0)).as('last_read'),
          ])
          .where('s.school_id', '=', caller.schoolId)
          .where('s.anonymised_at', 'is', null)
          .where((eb) => studentAccess(eb, eb.ref('s.id'), caller))
          // the admin lists the conversations with messages, unless searching by name
          .$if(kw === null && caller.role === Role.Admin, (b) => b.where('c.last_message_id', 'is not', null))
          .$if(kw !== null, (b) => b.where('s.name', 'like', kw!))
          // staff see a child who left only when there are messages
          .$if(caller.role !== Role.Parent, (b) => b.where((eb) => eb.or([eb('s.status', '=', 1), eb('c.last_message_id', 'is not', null)]))),
      )
      .with('counted', (db) =>
        db
          .selectFrom('mine')
          .leftJoinLateral(
            (eb) =>
              eb
                .selectFrom('family_messages as m')
                .select((e) => [e.fn.countAll<number>().as('n'), e.fn<boolean | null>('bool_or', ['m.urgent']).as('urgent')])
                .whereRef('m.conversation_id', '=', 'mine.conversation_id')
                .where('m.side', '<>', side)
                .whereRef('m.id', '>', 'mine.last_read')
                .where('m.retracted_at', 'is', null)
                .as('u'),
            (j) => j.onTrue(),
          )
          .selectAll('mine')
          .select((eb) => [eb.fn.coalesce('u.n', sql.lit(0)).as('unread'), eb.fn.coalesce('u.urgent', sql.lit(false)).as('urgent')])
          .$if(q.unread === true, (b) => b.where((eb) => eb(eb.fn.coalesce('u.n', sql.lit(0)), '>', 0))),
      )
      .selectFrom('counted as k')
      .leftJoin('family_messages as l', 'l.id', 'k.last_message_id')
      .select((eb) => [
        'k.student_id',
        'k.student_name',
        'k.class_name',
        'k.unread',
        'k.urgent',
        eb.fn.countAll<number>().over().as('total'),
        'l.id as last_id',
        'l.side as last_side',
        'l.sender_name as last_sender',
        'l.body as last_body',
        'l.photo_url as last_photo',
        eb('l.retracted_at', 'is not', null).$castTo<boolean>().as('last_retracted'),
        'l.sent_at as last_at',
      ])
      .orderBy((eb) => eb('k.unread', '>', 0), 'desc')
      .orderBy('k.last_message_at', (ob) => ob.desc().nullsLast())
      .orderBy('k.student_name')
      .orderBy('k.student_id')
      .limit(q.limit)
      .offset((q.page - 1) * q.limit)
      .execute();
  }

  /** How many messages of the other side the caller has not read, and in how many conversations. */
  async unread(caller: AccessCaller, side: ConversationSide): Promise<{ unread: number; conversations: number }> {
    return kdb(this.db)
      .selectFrom('students as s')
      .innerJoin('family_conversations as c', 'c.student_id', 's.id')
      .leftJoin('family_conversation_reads as rd', (j) => j.onRef('rd.conversation_id', '=', 'c.id').on('rd.user_id', '=', caller.id))
      .crossJoinLateral((eb) =>
        eb
          .selectFrom('family_messages as m')
          .select((e) => e.fn.countAll<number>().as('n'))
          .whereRef('m.conversation_id', '=', 'c.id')
          .where('m.side', '<>', side)
          .where((e) => e('m.id', '>', e.fn.coalesce('rd.last_read_id', sql.lit(0))))
          .where('m.retracted_at', 'is', null)
          .as('u'),
      )
      .select((eb) => [
        eb.cast<number>(eb.fn.coalesce(eb.fn.sum('u.n'), sql.lit(0)), 'integer').as('unread'),
        eb.fn.countAll<number>().filterWhere('u.n', '>', 0).as('conversations'),
      ])
      .where('s.school_id', '=', caller.schoolId)
      .where('s.anonymised_at', 'is', null)
      .where((eb) => studentAccess(eb, eb.ref('s.id'), caller))
      .executeTakeFirstOrThrow();
  }

  async officeHours(userId: number): Promise<OfficeHours | null> {
    const row = await kdb(this.db)
      .selectFrom('staff_office_hours')
      .select(['days', 'start_time', 'end_time'])
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row ? hoursOf(row) : null;
  }

  async saveOfficeHours(schoolId: number, userId: number, h: OfficeHours): Promise<void> {
    await kdb(this.db)
      .insertInto('staff_office_hours')
      .values({
        user_id: userId,
        school_id: schoolId,
        days: sql<number[]>`${[...h.days].sort((a, b) => a - b)}::smallint[]`,
        start_time: sql<string>`${h.start}::time`,
        end_time: sql<string>`${h.end}::time`,
      })
      .onConflict((oc) =>
        oc.column('user_id').doUpdateSet((eb) => ({
          days: eb.ref('excluded.days'),
          start_time: eb.ref('excluded.start_time'),
          end_time: eb.ref('excluded.end_time'),
          updated_at: sql<Date>`now()`,
        })),
      )
      .execute();
  }

  /**
   * The notices due (the sweep, in its transaction `on`): for each guardian of a child with a school message they have
   * not read, sent at least `delayMs` ago (within a day), newer than the last one they were told of and not told of
   * anything in the last `quietMs`: claims it (notified_at, notified_upto) and answers whom to tell of what. At most `batch`.
   */
  claimNotices(on: Queryable, now: Date, delayMs: number, quietMs: number, batch: number) {
    const at = sql<Date>`${now}::timestamptz`;
    const ago = (ms: number) => sql<Date>`${now}::timestamptz - make_interval(secs => ${ms}::float8 / 1000)`;
    return kdb(on)
      .with('due', (db) =>
        db
          .selectFrom('family_messages as m')
          .distinctOn('m.conversation_id')
          .select(['m.conversation_id', 'm.school_id', 'm.student_id', 'm.id as message_id', 'm.sender_name', 'm.sent_at'])
          .where('m.side', '=', 'school')
          .where('m.retracted_at', 'is', null)
          .where('m.sent_at', '<=', ago(delayMs))
          .where('m.sent_at', '>', sql<Date>`${now}::timestamptz - interval '1 day'`)
          .orderBy('m.conversation_id')
          .orderBy('m.id', 'desc'),
      )
      .with('targets', (db) =>
        db
          .selectFrom('due as d')
          .innerJoin('student_guardians as g', (j) => j.onRef('g.student_id', '=', 'd.student_id').onRef('g.school_id', '=', 'd.school_id'))
          .innerJoin('users as u', (j) =>
            j.onRef('u.id', '=', 'g.user_id').on('u.role', '=', Role.Parent).on('u.deleted_at', 'is', null).on('u.status', '=', 1),
          )
          .leftJoin('family_conversation_reads as r', (j) =>
            j.onRef('r.conversation_id', '=', 'd.conversation_id').onRef('r.user_id', '=', 'g.user_id'),
          )
          .selectAll('d')
          .select('g.user_id')
          .where((eb) => eb(eb.fn.coalesce('r.last_read_id', sql.lit(0)), '<', eb.ref('d.message_id')))
          .where((eb) => eb(eb.fn.coalesce('r.notified_upto', sql.lit(0)), '<', eb.ref('d.message_id')))
          .where((eb) => eb.or([eb('r.notified_at', 'is', null), eb('r.notified_at', '<=', ago(quietMs))]))
          .orderBy('d.sent_at')
          .limit(batch),
      )
      .with('claimed', (db) =>
        db
          .insertInto('family_conversation_reads')
          .columns(['conversation_id', 'user_id', 'side', 'notified_at', 'notified_upto'])
          .expression(
            db
              .selectFrom('targets')
              .select(['targets.conversation_id', 'targets.user_id', sql.lit('family').as('side'), at.as('notified_at'), 'targets.message_id']),
          )
          .onConflict((oc) =>
            oc.columns(['conversation_id', 'user_id']).doUpdateSet((eb) => ({
              notified_at: eb.ref('excluded.notified_at'),
              notified_upto: eb.ref('excluded.notified_upto'),
            })),
          )
          .returning(['conversation_id', 'user_id']),
      )
      .selectFrom('targets as t')
      .innerJoin('claimed as c', (j) => j.onRef('c.conversation_id', '=', 't.conversation_id').onRef('c.user_id', '=', 't.user_id'))
      .innerJoin('schools as sc', 'sc.id', 't.school_id')
      .select((eb) => [
        't.school_id',
        't.student_id',
        't.user_id',
        't.message_id',
        't.sender_name as from_name',
        't.sent_at',
        'sc.name as school_name',
        eb.fn.coalesce('sc.timezone', sql.lit('Asia/Shanghai')).as('timezone'),
      ])
      .execute();
  }
}
