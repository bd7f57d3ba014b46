import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  canRetract,
  CONVERSATION_LIMITS,
  DEFAULT_OFFICE_HOURS,
  officeOpen,
  QUICK_REPLIES,
  Role,
  schoolAnswersAt,
  type ConversationInfo,
  type ConversationInfoQuery,
  type ConversationListQuery,
  type ConversationMessage,
  type ConversationOffice,
  type ConversationPage,
  type ConversationReadInput,
  type ConversationRetractInput,
  type ConversationSendInput,
  type ConversationSent,
  type ConversationSide,
  type ConversationUnread,
  type OfficeHoursInfo,
  type OfficeHoursSaveInput,
} from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { schoolTimeZone } from '../../core/database/school-zone';
import { isUniqueViolation, pageOf, totalOf } from '../../core/database/sql-kit';
import { DomainEvents } from '../../core/events/domain-events';
import { AppError } from '../../core/http/app-error';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { ConversationsClock } from './conversations-clock';
import { ConversationsRepository, type MessageRecord, type StaffMember } from './conversations.repository';

const sideOf = (role: Role): ConversationSide => (role === Role.Parent ? 'family' : 'school');

/** What a list row shows of the last message (never a retracted one's text). */
function preview(r: { last_body: string | null; last_photo: string | null; last_retracted: boolean | null }): string {
  if (r.last_retracted) return '[已撤回]';
  if (r.last_body) return r.last_body.length > 60 ? `${r.last_body.slice(0, 60)}…` : r.last_body;
  return r.last_photo ? '[图片]' : '';
}

/**
 * Family conversations (issue 40, docs/modules/conversations.md): one per child between its guardians and the school.
 * Messages are appended, never edited or deleted (a retraction within two minutes keeps the row, marked); each side's
 * reads are kept per member; a sent message goes live to the guardians and to the staff within office hours (urgent
 * ones to the head teacher on duty), and a guardian who does not read it is told by the sweep (ConversationNotices).
 */
@Injectable()
export class ConversationsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly events: DomainEvents,
    private readonly clock: ConversationsClock,
    private readonly repo: ConversationsRepository,
  ) {}

  async list(user: SchoolCaller, q: ConversationListQuery): Promise<ConversationPage> {
    const rows = await this.repo.list(user, sideOf(user.role), q);
    return pageOf(
      rows.map((r) => ({
        student_id: r.student_id,
        student_name: r.student_name,
        class_name: r.class_name,
        last:
          r.last_id === null
            ? null
            : { id: r.last_id, side: r.last_side!, sender_name: r.last_sender!, preview: preview(r), sent_at: r.last_at!.toISOString() },
        unread: r.unread,
        urgent: r.urgent,
      })),
      totalOf(rows),
      q,
    );
  }

  unread(user: SchoolCaller): Promise<ConversationUnread> {
    return this.repo.unread(user, sideOf(user.role));
  }

  async info(user: SchoolCaller, q: ConversationInfoQuery): Promise<ConversationInfo> {
    const child = await this.repo.child(this.db, user, q.student_id);
    if (!child) throw new AppError('conversations.not_found');
    const conversationId = await this.repo.find(this.db, child.student_id);
    const [staff, family, read, rows] = await Promise.all([
      this.repo.staff(this.db, user.schoolId, child.student_id, conversationId),
      this.repo.family(user.schoolId, child.student_id),
      conversationId ? this.repo.readUpTo(conversationId) : { family: null, school: null },
      conversationId ? this.repo.messages(conversationId, q.before, q.limit) : ([] as MessageRecord[]),
    ]);
    const now = this.clock.now();
    return {
      student: { id: child.student_id, name: child.name, class_name: child.class_name, photo_consent: child.photo_consent },
      my_side: sideOf(user.role),
      school: staff.map((m) => ({ id: m.id, name: m.name, role: m.head ? 'head' : roleName(m.role), open_now: onDuty(m, now, child.timezone) })),
      family,
      office: office(staff, now, child.timezone),
      read,
      messages: rows
        .slice(0, q.limit)
        .reverse()
        .map((m) => toWire(m, user)),
      has_more: rows.length > q.limit,
    };
  }

  async send(user: SchoolCaller, input: ConversationSendInput): Promise<ConversationSent> {
    const side = sideOf(user.role);
    if (input.urgent && side !== 'family') throw new AppError('conversations.urgent_family_only');
    let body = input.text?.trim() || null;
    if (input.quick_reply !== undefined) {
      const quick = QUICK_REPLIES[side][input.quick_reply];
      if (!quick) throw new AppError('conversations.quick_unknown');
      body = quick.zh;
    }
    const schoolId = user.schoolId;
    const write = () =>
      this.db.transaction(async (em) => {
        const child = await this.repo.child(em, user, input.student_id);
        if (!child) throw new AppError('conversations.not_found');
        // a guardian's sends one at a time (the limit counts what the others committed); staff are not limited, so their
        // sends never wait for each other (a teacher's bulk replies hold no connection waiting for a lock)
        if (side === 'family') await this.repo.lockSender(em, user.id);
        const again = await this.repo.byRequest(em, user.id, input.request_id);
        const staff = await this.repo.staff(em, schoolId, child.student_id, await this.repo.find(em, child.student_id));
        if (again) return { message: again, fresh: false, staff, child };
        if (side === 'family' && (await this.repo.sentLastMinute(em, user.id)) >= CONVERSATION_LIMITS.guardianPerMinute)
          throw new AppError('conversations.rate_limited', { max: CONVERSATION_LIMITS.guardianPerMinute });
        if (input.photo_url) {
          if (!child.photo_consent) throw new AppError('conversations.photo_consent_required');
          if (!(await this.repo.ownImage(em, input.photo_url, user.id))) throw new AppError('conversations.photo_not_yours');
        }
        const senderName = side === 'family' ? ((await this.repo.relation(em, child.student_id, user.id)) ?? user.name) : user.name;
        const conversationId = await this.repo.ensure(em, schoolId, child.student_id);
        const message = await this.repo.insert(em, {
          conversationId,
          schoolId,
          studentId: child.student_id,
          side,
          senderId: user.id,
          senderRole: user.role,
          senderName: senderName.slice(0, 40),
          body,
          photoUrl: input.photo_url ?? null,
          quick: input.quick_reply !== undefined,
          urgent: input.urgent ?? false,
          requestId: input.request_id,
        });
        return { message, fresh: true, staff, child };
      });
    const out = await write().catch(async (err: unknown) => {
      // the same request_id sent twice at once by a member of staff: the second finds the first
      if (!isUniqueViolation(err, 'family_messages_request_key')) throw err;
      return write();
    });
    const now = this.clock.now();
    if (out.fresh) {
      const family = await this.repo.family(schoolId, out.child.student_id);
      const heads = out.message.urgent ? await this.repo.headTeachers(schoolId) : [];
      const to = new Set<number>([
        user.id,
        ...family.map((f) => f.id),
        ...this.staffToTell(out.staff, out.message.urgent, heads, now, out.child.timezone),
      ]);
      this.events.emit('conversation.message', {
        school_id: schoolId,
        student_id: out.child.student_id,
        message: liveOf(out.message),
        user_ids: [...to],
      });
    }
    return { message: toWire(out.message, user), office: office(out.staff, now, out.child.timezone) };
  }

  /**
   * Who of the school is told of a message now: the staff within their office hours or still on the conversation's
   * page; for an urgent one also the head teacher of the child's class on duty, else any head teacher on duty, else the
   * admins (never a teacher off duty).
   */
  private staffToTell(
    staff: StaffMember[],
    urgent: boolean,
    heads: Array<{ id: number; hours: StaffMember['hours'] }>,
    now: Date,
    tz: string,
  ): number[] {
    const told = staff.filter((m) => m.active || onDuty(m, now, tz)).map((m) => m.id);
    if (!urgent) return told;
    const classHeads = staff.filter((m) => m.head && onDuty(m, now, tz)).map((m) => m.id);
    if (classHeads.length) return [...told, ...classHeads];
    const anyHead = heads.filter((h) => officeOpen(h.hours ?? DEFAULT_OFFICE_HOURS, now, tz)).map((h) => h.id);
    if (anyHead.length) return [...told, ...anyHead];
    return [...told, ...staff.filter((m) => m.role === Role.Admin).map((m) => m.id)];
  }

  async read(user: SchoolCaller, input: ConversationReadInput): Promise<Record<string, never>> {
    const child = await this.repo.child(this.db, user, input.student_id);
    if (!child) throw new AppError('conversations.not_found');
    const conversationId = await this.repo.find(this.db, child.student_id);
    if (conversationId) await this.repo.markRead(conversationId, user.id, sideOf(user.role), input.upto_id);
    return {};
  }

  async retract(user: SchoolCaller, input: ConversationRetractInput): Promise<ConversationMessage> {
    const schoolId = user.schoolId;
    const message = await this.db.transaction(async (em) => {
      const m = await this.repo.lockMessage(em, schoolId, input.id);
      if (!m) throw new AppError('conversations.message_not_found');
      if (m.sender_id !== user.id) throw new AppError('conversations.retract_not_yours');
      if (m.retracted_at) throw new AppError('conversations.already_retracted');
      if (!canRetract(m.sent_at, this.clock.now())) throw new AppError('conversations.retract_too_late');
      return this.repo.retract(em, m.id);
    });
    const [family, staff] = await Promise.all([
      this.repo.family(schoolId, message.student_id),
      this.repo.staff(this.db, schoolId, message.student_id, message.conversation_id),
    ]);
    this.events.emit('conversation.message', {
      school_id: schoolId,
      student_id: message.student_id,
      message: liveOf(message),
      // everyone who may have it on screen
      user_ids: [...new Set([user.id, ...family.map((f) => f.id), ...staff.map((s) => s.id)])],
    });
    return toWire(message, user);
  }

  async officeHours(user: SchoolCaller): Promise<OfficeHoursInfo> {
    const [hours, tz] = await Promise.all([this.repo.officeHours(user.id), schoolTimeZone(this.db, user.schoolId)]);
    const h = hours ?? DEFAULT_OFFICE_HOURS;
    return { days: h.days, start: h.start, end: h.end, is_default: !hours, open_now: officeOpen(h, this.clock.now(), tz) };
  }

  async saveOfficeHours(user: SchoolCaller, input: OfficeHoursSaveInput): Promise<OfficeHoursInfo> {
    await this.repo.saveOfficeHours(user.schoolId, user.id, input);
    return this.officeHours(user);
  }
}

function roleName(role: Role): string {
  if (role === Role.Admin) return 'admin';
  if (role === Role.HeadTeacher) return 'head';
  return 'teacher';
}

const onDuty = (m: { hours: StaffMember['hours'] }, now: Date, tz: string): boolean => officeOpen(m.hours ?? DEFAULT_OFFICE_HOURS, now, tz);

/** When the school answers: now when one of its members is on duty, else their earliest next opening. */
function office(staff: StaffMember[], now: Date, tz: string): ConversationOffice {
  const at = schoolAnswersAt(
    staff.map((m) => m.hours ?? DEFAULT_OFFICE_HOURS),
    now,
    tz,
  );
  const open = at !== null && at.getTime() === now.getTime();
  return { open_now: open, answers_at: at ? at.toISOString() : null };
}

/** A message as the live channel sends it: a retracted one without its text or photo. */
function liveOf(m: MessageRecord): Omit<ConversationMessage, 'mine'> {
  const gone = m.retracted_at !== null;
  return {
    id: m.id,
    side: m.side,
    sender_id: m.sender_id,
    sender_name: m.sender_name,
    text: gone ? null : m.body,
    photo_url: gone ? null : m.photo_url,
    quick: m.quick,
    urgent: m.urgent,
    retracted_at: m.retracted_at ? m.retracted_at.toISOString() : null,
    sent_at: m.sent_at.toISOString(),
  };
}

/** A message as its reader gets it: the admin (safeguarding) still reads a retracted one's text, marked. */
function toWire(m: MessageRecord, user: SchoolCaller): ConversationMessage {
  const live = liveOf(m);
  const keep = user.role === Role.Admin;
  return { ...live, text: keep ? m.body : live.text, photo_url: keep ? m.photo_url : live.photo_url, mine: m.sender_id === user.id };
}
