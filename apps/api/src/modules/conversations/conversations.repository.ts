import { Role, type ConversationSide, type OfficeHours } from '@wantuo/shared';
import type { EntityManager } from 'typeorm';
import { containsPattern } from '../../core/database/sql-kit';
import { RESPONSIBLE } from '../students/students.service';

/** The child of a conversation as its caller may see it. */
export interface ConversationChild {
  student_id: number;
  name: string;
  class_name: string | null;
  photo_consent: boolean;
  timezone: string;
}

/** A message row as stored. */
export interface MessageRecord {
  id: number;
  side: ConversationSide;
  sender_id: number | null;
  sender_name: string;
  body: string | null;
  photo_url: string | null;
  quick: boolean;
  urgent: boolean;
  retracted_at: Date | null;
  sent_at: Date;
  student_id: number;
  conversation_id: number;
}

/** A member of staff of the conversation's school side, with their office hours (null: the default). */
export interface StaffMember {
  id: number;
  name: string;
  role: Role;
  /** heads one of the child's classes */
  head: boolean;
  hours: OfficeHours | null;
  /** read the conversation in the last ten minutes: still on the page */
  active: boolean;
}

/** A guardian to tell of a conversation's new school message. */
export interface DueNotice {
  school_id: number;
  student_id: number;
  user_id: number;
  message_id: number;
  from_name: string;
  sent_at: Date;
  school_name: string;
  timezone: string;
}

export interface ListRow {
  student_id: number;
  student_name: string;
  class_name: string | null;
  last_id: number | null;
  last_side: ConversationSide | null;
  last_sender: string | null;
  last_body: string | null;
  last_photo: string | null;
  last_retracted: boolean | null;
  last_at: Date | null;
  unread: number;
  urgent: boolean;
  total: number;
}

const MESSAGE = `m.id::int as id, m.side, m.sender_id, m.sender_name, m.body, m.photo_url, m.quick, m.urgent, m.retracted_at, m.sent_at,
  m.student_id, m.conversation_id::int as conversation_id`;

const CLASS_NAME = `(select c.name from care_class_students r join care_classes c on c.id = r.class_id and c.deleted_at is null
   where r.student_id = s.id order by c.id limit 1)`;

const hoursOf = (r: { days: number[] | null; start_time: string | null; end_time: string | null }): OfficeHours | null =>
  r.days ? { days: r.days.map(Number), start: r.start_time!.slice(0, 5), end: r.end_time!.slice(0, 5) } : null;

/**
 * Which students a caller reaches, as an SQL condition on `s` (a students row) with the school as $1 and the caller
 * as $2: a guardian their children, a teacher or head teacher those they are responsible for (RESPONSIBLE), the admin
 * the school's.
 */
function reach(role: Role): string {
  if (role === Role.Parent) return `exists (select 1 from student_guardians g where g.student_id = s.id and g.user_id = $2 and g.school_id = $1)`;
  if (role === Role.Teacher || role === Role.HeadTeacher) return RESPONSIBLE('$2');
  if (role === Role.Admin) return `$2::int is not null`;
  return 'false';
}

/** The SQL of family conversations (issue 40): conversations, messages, reads, office hours and the notices' sweep. */
export class ConversationsRepository {
  constructor(private readonly em: Pick<EntityManager, 'query'>) {}

  /** The child if the caller reaches it (not anonymised), with the school's zone; null otherwise. */
  async child(schoolId: number, userId: number, role: Role, studentId: number): Promise<ConversationChild | null> {
    const [row]: ConversationChild[] = await this.em.query(
      `select s.id as student_id, s.name, ${CLASS_NAME} as class_name, coalesce(s.photo_consent, false) as photo_consent,
              coalesce(sc.timezone, 'Asia/Shanghai') as timezone
         from students s join schools sc on sc.id = s.school_id
        where s.school_id = $1 and s.id = $3 and s.anonymised_at is null and ${reach(role)}`,
      [schoolId, userId, studentId],
    );
    return row ?? null;
  }

  /** The child's conversation, made on first use; its id. */
  async ensure(schoolId: number, studentId: number): Promise<number> {
    const [row]: Array<{ id: number }> = await this.em.query(
      `with ins as (insert into family_conversations (school_id, student_id) values ($1, $2) on conflict (student_id) do nothing returning id)
       select id::int as id from ins union all select id::int from family_conversations where student_id = $2 limit 1`,
      [schoolId, studentId],
    );
    return row.id;
  }

  /** The conversation's id, or null when nobody has written yet. */
  async find(studentId: number): Promise<number | null> {
    const [row]: Array<{ id: number }> = await this.em.query(`select id::int as id from family_conversations where student_id = $1`, [studentId]);
    return row?.id ?? null;
  }

  /**
   * The school side of a child's conversation: the head teachers of its classes, the teachers on duty for it (class-wide
   * or this child), the school's head teachers (`head` false unless of the child's class) and its admins; with their
   * office hours and whether they read the conversation in the last ten minutes.
   */
  async staff(schoolId: number, studentId: number, conversationId: number | null): Promise<StaffMember[]> {
    const rows: Array<{
      id: number;
      name: string;
      role: Role;
      head: boolean;
      days: number[] | null;
      start_time: string | null;
      end_time: string | null;
      active: boolean;
    }> = await this.em.query(
      `with classes as (
           select c.id, c.head_teacher_id from care_class_students r join care_classes c on c.id = r.class_id and c.deleted_at is null
            where r.student_id = $2),
         members as (
           select head_teacher_id as id, true as head from classes where head_teacher_id is not null
           union all
           select d.teacher_id, false from duty_assignments d where d.class_id in (select id from classes) and (d.student_id is null or d.student_id = $2)
           union all
           select u.id, false from users u where u.school_id = $1 and u.role = $3 and u.deleted_at is null and u.status = 1)
         select u.id, u.name, u.role, bool_or(m.head) as head, h.days, h.start_time::text, h.end_time::text,
                coalesce(bool_or(rd.read_at > now() - interval '10 minutes'), false) as active
           from members m join users u on u.id = m.id and u.school_id = $1 and u.deleted_at is null and u.status = 1 and u.job_status = 1
           left join staff_office_hours h on h.user_id = u.id
           left join family_conversation_reads rd on rd.conversation_id = $4 and rd.user_id = u.id
          group by u.id, u.name, u.role, h.days, h.start_time, h.end_time
          order by bool_or(m.head) desc, u.role desc, u.id`,
      [schoolId, studentId, Role.Admin, conversationId],
    );
    return rows.map((r) => ({ id: r.id, name: r.name, role: Number(r.role) as Role, head: r.head, hours: hoursOf(r), active: r.active }));
  }

  /** The school's head teachers (any class) with their office hours: whom an urgent message goes to when no head of the child's class is on duty. */
  async headTeachers(schoolId: number): Promise<Array<{ id: number; hours: OfficeHours | null }>> {
    const rows: Array<{ id: number; days: number[] | null; start_time: string | null; end_time: string | null }> = await this.em.query(
      `select u.id, h.days, h.start_time::text, h.end_time::text from users u left join staff_office_hours h on h.user_id = u.id
        where u.school_id = $1 and u.role = $2 and u.deleted_at is null and u.status = 1 and u.job_status = 1 order by u.id`,
      [schoolId, Role.HeadTeacher],
    );
    return rows.map((r) => ({ id: r.id, hours: hoursOf(r) }));
  }

  /** The child's guardians (active accounts), named by their relation to the child. */
  async family(schoolId: number, studentId: number): Promise<Array<{ id: number; name: string }>> {
    return this.em.query(
      `select u.id, coalesce(nullif(g.relation, ''), u.name) as name from student_guardians g
         join users u on u.id = g.user_id and u.deleted_at is null and u.status = 1
        where g.student_id = $1 and g.school_id = $2 order by g.user_id`,
      [studentId, schoolId],
    );
  }

  /** How a guardian is named in the child's conversation (their relation), or null when not its guardian. */
  async relation(studentId: number, userId: number): Promise<string | null> {
    const [row]: Array<{ name: string }> = await this.em.query(
      `select coalesce(nullif(g.relation, ''), u.name) as name from student_guardians g join users u on u.id = g.user_id
        where g.student_id = $1 and g.user_id = $2`,
      [studentId, userId],
    );
    return row?.name ?? null;
  }

  /** A page of messages, newest first (before a message id when paging back); one more than asked tells there are more. */
  async messages(conversationId: number, before: number | undefined, limit: number): Promise<MessageRecord[]> {
    return this.em.query(
      `select ${MESSAGE} from family_messages m
        where m.conversation_id = $1 and ($2::bigint is null or m.id < $2) order by m.id desc limit $3`,
      [conversationId, before ?? null, limit + 1],
    );
  }

  /** The newest message each side has read. */
  async readUpTo(conversationId: number): Promise<{ family: number | null; school: number | null }> {
    const [row]: Array<{ family: number | null; school: number | null }> = await this.em.query(
      `select max(last_read_id) filter (where side = 'family')::int as family, max(last_read_id) filter (where side = 'school')::int as school
         from family_conversation_reads where conversation_id = $1 and last_read_id > 0`,
      [conversationId],
    );
    return { family: row?.family ?? null, school: row?.school ?? null };
  }

  /** Serialises one sender's sends (the rate limit counts what the others committed). */
  async lockSender(userId: number): Promise<void> {
    await this.em.query(`select pg_advisory_xact_lock(hashtext('family_messages:' || $1::text))`, [userId]);
  }

  /** Messages the user sent in the last minute. */
  async sentLastMinute(userId: number): Promise<number> {
    const [row]: Array<{ n: number }> = await this.em.query(
      `select count(*)::int as n from family_messages where sender_id = $1 and sent_at > now() - interval '1 minute'`,
      [userId],
    );
    return row.n;
  }

  /** The message the sender already sent with this request id (a retried send), or null. */
  async byRequest(userId: number, requestId: string): Promise<MessageRecord | null> {
    const [row]: MessageRecord[] = await this.em.query(`select ${MESSAGE} from family_messages m where m.sender_id = $1 and m.request_id = $2`, [
      userId,
      requestId,
    ]);
    return row ?? null;
  }

  /** Whether the upload at `url` is an image the user uploaded themselves. */
  async ownImage(url: string, userId: number): Promise<boolean> {
    const rows: unknown[] = await this.em.query(`select 1 from files where storage_path = $1 and user_id = $2 and mime like 'image/%'`, [
      url.replace(/^\/uploads\//, ''),
      userId,
    ]);
    return rows.length > 0;
  }

  /** Writes a message and moves the conversation's last message; the sender has read up to it. */
  async insert(m: {
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
  }): Promise<MessageRecord> {
    const [row]: MessageRecord[] = await this.em.query(
      `with m as (
         insert into family_messages (conversation_id, school_id, student_id, side, sender_id, sender_role, sender_name, body, photo_url, quick, urgent, request_id)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) returning *),
       c as (update family_conversations set last_message_id = (select id from m), last_message_at = (select sent_at from m) where id = $1),
       r as (insert into family_conversation_reads (conversation_id, user_id, side, last_read_id, read_at)
             select $1, $5, $4, id, now() from m
             on conflict (conversation_id, user_id) do update set last_read_id = greatest(family_conversation_reads.last_read_id, excluded.last_read_id), read_at = now())
       select ${MESSAGE} from m`,
      [m.conversationId, m.schoolId, m.studentId, m.side, m.senderId, m.senderRole, m.senderName, m.body, m.photoUrl, m.quick, m.urgent, m.requestId],
    );
    return row;
  }

  /** The user has read the conversation up to a message of it (never back). */
  async markRead(conversationId: number, userId: number, side: ConversationSide, uptoId: number): Promise<void> {
    await this.em.query(
      `insert into family_conversation_reads (conversation_id, user_id, side, last_read_id, read_at)
       select $1, $2, $3, max(id), now() from family_messages where conversation_id = $1 and id <= $4 having max(id) is not null
       on conflict (conversation_id, user_id) do update
         set last_read_id = greatest(family_conversation_reads.last_read_id, excluded.last_read_id), read_at = now()`,
      [conversationId, userId, side, uptoId],
    );
  }

  /** A message of the school's, locked. */
  async lockMessage(schoolId: number, id: number): Promise<MessageRecord | null> {
    const [row]: MessageRecord[] = await this.em.query(`select ${MESSAGE} from family_messages m where m.id = $1 and m.school_id = $2 for update`, [
      id,
      schoolId,
    ]);
    return row ?? null;
  }

  async retract(id: number): Promise<MessageRecord> {
    const [rows]: [MessageRecord[], number] = await this.em.query(
      `update family_messages m set retracted_at = now() where m.id = $1 and m.retracted_at is null returning ${MESSAGE}`,
      [id],
    );
    return rows[0];
  }

  /**
   * A page of the caller's conversations: a guardian's children and a teacher's responsible children (with or without
   * messages), the admin's school's conversations with messages (every child when searching by name). Unread first,
   * then the newest message.
   */
  async list(
    schoolId: number,
    userId: number,
    role: Role,
    side: ConversationSide,
    q: { keyword?: string; unread?: boolean; page: number; limit: number },
  ): Promise<ListRow[]> {
    const kw = containsPattern(q.keyword);
    return this.em.query(
      `with mine as (
         select s.id as student_id, s.name as student_name, ${CLASS_NAME} as class_name, c.id as conversation_id, c.last_message_id, c.last_message_at,
                coalesce(rd.last_read_id, 0) as last_read
           from students s
           left join family_conversations c on c.student_id = s.id
           left join family_conversation_reads rd on rd.conversation_id = c.id and rd.user_id = $2
          where s.school_id = $1 and s.anonymised_at is null and ${reach(role)}
            and ($4::text is not null or $3 <> ${Role.Admin} or c.last_message_id is not null)
            and ($4::text is null or s.name like $4)
            and ($3 = ${Role.Parent} or s.status = 1 or c.last_message_id is not null)),
       counted as (
         select mine.*, coalesce(u.n, 0)::int as unread, coalesce(u.urgent, false) as urgent
           from mine left join lateral (
             select count(*) as n, bool_or(m.urgent) as urgent from family_messages m
              where m.conversation_id = mine.conversation_id and m.side <> $5 and m.id > mine.last_read and m.retracted_at is null) u on true
          where not $6 or coalesce(u.n, 0) > 0)
       select k.student_id, k.student_name, k.class_name, k.unread, k.urgent, count(*) over ()::int as total,
              l.id::int as last_id, l.side as last_side, l.sender_name as last_sender, l.body as last_body, l.photo_url as last_photo,
              (l.retracted_at is not null) as last_retracted, l.sent_at as last_at
         from counted k left join family_messages l on l.id = k.last_message_id
        order by (k.unread > 0) desc, k.last_message_at desc nulls last, k.student_name, k.student_id
        limit $7 offset $8`,
      [schoolId, userId, role, kw, side, q.unread ?? false, q.limit, (q.page - 1) * q.limit],
    );
  }

  /** How many messages of the other side the caller has not read, and in how many conversations. */
  async unread(schoolId: number, userId: number, role: Role, side: ConversationSide): Promise<{ unread: number; conversations: number }> {
    const [row]: Array<{ unread: number; conversations: number }> = await this.em.query(
      `select coalesce(sum(u.n), 0)::int as unread, count(*) filter (where u.n > 0)::int as conversations
         from students s
         join family_conversations c on c.student_id = s.id
         left join family_conversation_reads rd on rd.conversation_id = c.id and rd.user_id = $2
         cross join lateral (select count(*) as n from family_messages m
                              where m.conversation_id = c.id and m.side <> $3 and m.id > coalesce(rd.last_read_id, 0) and m.retracted_at is null) u
        where s.school_id = $1 and s.anonymised_at is null and ${reach(role)}`,
      [schoolId, userId, side],
    );
    return row;
  }

  async officeHours(userId: number): Promise<OfficeHours | null> {
    const [row]: Array<{ days: number[]; start_time: string; end_time: string }> = await this.em.query(
      `select days, start_time::text, end_time::text from staff_office_hours where user_id = $1`,
      [userId],
    );
    return row ? hoursOf(row) : null;
  }

  async saveOfficeHours(schoolId: number, userId: number, h: OfficeHours): Promise<void> {
    await this.em.query(
      `insert into staff_office_hours (user_id, school_id, days, start_time, end_time) values ($1, $2, $3::smallint[], $4::time, $5::time)
       on conflict (user_id) do update set days = excluded.days, start_time = excluded.start_time, end_time = excluded.end_time, updated_at = now()`,
      [userId, schoolId, [...h.days].sort((a, b) => a - b), h.start, h.end],
    );
  }

  /**
   * The notices due (the sweep, in its transaction): for each guardian of a child with a school message they have not
   * read, sent at least `delayMs` ago (within a day), newer than the last one they were told of and not told of anything
   * in the last `quietMs`: claims it (notified_at, notified_upto) and answers whom to tell of what. At most `batch`.
   */
  async claimNotices(now: Date, delayMs: number, quietMs: number, batch: number): Promise<DueNotice[]> {
    return this.em.query(
      `with due as (
           select distinct on (m.conversation_id) m.conversation_id, m.school_id, m.student_id, m.id as message_id, m.sender_name, m.sent_at
             from family_messages m
            where m.side = 'school' and m.retracted_at is null
              and m.sent_at <= $4::timestamptz - make_interval(secs => $1::float8 / 1000) and m.sent_at > $4::timestamptz - interval '1 day'
            order by m.conversation_id, m.id desc),
         targets as (
           select d.*, g.user_id from due d
             join student_guardians g on g.student_id = d.student_id and g.school_id = d.school_id
             join users u on u.id = g.user_id and u.role = ${Role.Parent} and u.deleted_at is null and u.status = 1
             left join family_conversation_reads r on r.conversation_id = d.conversation_id and r.user_id = g.user_id
            where coalesce(r.last_read_id, 0) < d.message_id and coalesce(r.notified_upto, 0) < d.message_id
              and (r.notified_at is null or r.notified_at <= $4::timestamptz - make_interval(secs => $2::float8 / 1000))
            order by d.sent_at limit $3),
         claimed as (
           insert into family_conversation_reads (conversation_id, user_id, side, notified_at, notified_upto)
           select conversation_id, user_id, 'family', $4::timestamptz, message_id from targets
           on conflict (conversation_id, user_id) do update set notified_at = excluded.notified_at, notified_upto = excluded.notified_upto
           returning conversation_id, user_id)
         select t.school_id, t.student_id, t.user_id, t.message_id::int as message_id, t.sender_name as from_name, t.sent_at, sc.name as school_name,
                coalesce(sc.timezone, 'Asia/Shanghai') as timezone
           from targets t join claimed c on c.conversation_id = t.conversation_id and c.user_id = t.user_id
           join schools sc on sc.id = t.school_id`,
      [delayMs, quietMs, batch, now],
    );
  }
}
