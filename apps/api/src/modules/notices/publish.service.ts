import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { messageSendAt, Role, type AddInformInput, type AddInformResult } from '@wantuo/shared';
import sanitizeHtml from 'sanitize-html';
import { DataSource } from 'typeorm';
import { AppError } from '../../core/http/app-error';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { JobsService } from '../../core/jobs/jobs.service';
import { GuardianMessages, type StagedMessages } from '../messages/guardian-messages.service';
import { NoticeClock, noticeMessages, plainSummary, queueTexts } from './notices-sql';
import { NoticesRepository } from './notices.repository';

/** What a notice may contain: the about-us rules (site.service.ts) without headings' extras; links open elsewhere. */
export const NOTICE_HTML: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'br', 'b', 'strong', 'i', 'em', 'u', 's', 'ul', 'ol', 'li', 'a', 'h3', 'h4', 'blockquote', 'span', 'img', 'div'],
  allowedAttributes: { a: ['href', 'title', 'target', 'rel'], img: ['src', 'alt', 'width', 'height'], '*': ['style'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowedStyles: { '*': { 'text-align': [/^(left|right|center|justify)$/], color: [/^#[0-9a-f]{3,6}$/i] } },
  transformTags: { a: sanitizeHtml.simpleTransform('a', { target: '_blank', rel: 'noopener noreferrer' }) },
};

/** Publishing a notice: scope checks, sanitising, the receipts set-based, the texts of an important notice. */
@Injectable()
export class PublishService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repo: NoticesRepository,
    private readonly jobs: JobsService,
    private readonly clock: NoticeClock,
    private readonly messages: GuardianMessages,
  ) {}

  /**
   * Publishes to classes (the caller's own, or any of the school for the admin) or to the school (the admin only), for
   * guardians, staff or both. One statement writes the notice and one receipt per recipient. An important notice tells
   * the guardians through GuardianMessages (WeChat, else SMS; written with the notice, sent after the commit) and texts
   * the staff in bulk on the `sms` queue; both are held to 07:00 in the school's quiet hours by the one rule,
   * messageSendAt (sms_at). sms_count counts the staff texted and the guardians told. A repeated request_id answers
   * the notice it published.
   */
  async publish(user: SchoolCaller, input: AddInformInput): Promise<AddInformResult> {
    const schoolId = user.schoolId;
    const isAdmin = user.role === Role.Admin;
    if (input.scope === 'school' && !isAdmin) throw new AppError('notices.school_admin_only');
    const classIds = input.scope === 'classes' ? input.class_ids! : [];
    const fileIds = input.attachments ?? [];
    const checked = (await this.repo.publishChecks(schoolId, user.id, isAdmin, classIds, fileIds))!;
    if (checked.classes.length !== classIds.length) {
      const ok = new Set(checked.classes);
      throw new AppError('notices.class_not_found', { ids: classIds.filter((id) => !ok.has(id)).join(', ') });
    }
    if (checked.files.length !== fileIds.length) throw new AppError('notices.attachment_not_found');
    const content = sanitizeHtml(input.content, NOTICE_HTML).trim();
    const summary = plainSummary(content);
    if (!summary && !/<img\b/i.test(content)) throw new AppError('notices.content_empty');

    const now = this.clock.now();
    const important = input.important ?? false;
    const smsAt = messageSendAt('notice.important', now, checked.timezone);
    const key = `notice:${input.request_id}`;
    const published = await this.db.transaction(async (em) => {
      const row = await this.repo.publish(em, {
        schoolId,
        scope: input.scope,
        classIds,
        audience: input.audience,
        authorId: user.id,
        title: input.title,
        content,
        summary: summary || '（图片）',
        attachments: checked.files,
        important,
        smsAt,
        requestKey: key,
        now,
      });
      if (row.id === null) {
        // a repeat of the same request (or its concurrent twin, committed meanwhile), else nobody to send to
        const prior = await this.repo.byRequestKey(em, schoolId, key);
        if (!prior) throw new AppError('notices.no_recipients');
        if (prior.author_id !== user.id || prior.title !== input.title) throw new AppError('notices.request_reused');
        return { notice: prior, mobiles: [] as string[], staged: null };
      }
      // the guardians' messages with the notice's commit (the quiet hours: messageSendAt, judged at `now`)
      const params = { school: checked.school, title: input.title };
      const staged: StagedMessages = await this.messages.stage(
        em,
        noticeMessages(schoolId, row.guardians, 'notice.important', params, `notice:${row.id}`),
        {
          now,
        },
      );
      let smsCount = row.sms_count;
      if (staged.users) {
        smsCount += staged.users;
        await this.repo.setSmsCount(em, row.id, smsCount);
      }
      return { notice: { ...row, id: row.id, sms_count: smsCount }, mobiles: row.mobiles, staged };
    });
    // after the commit (a notice that did not commit sends nothing): the guardians' messages, and the staff's texts,
    // whose job ids are the notice's, so a repeated request queues nobody twice
    if (published.staged) await this.messages.dispatch(published.staged);
    if (published.mobiles.length) {
      await queueTexts(
        this.jobs,
        `n${published.notice.id}`,
        published.mobiles,
        { school_id: schoolId, template: 'notice.important', params: { school: checked.school, title: input.title } },
        Math.max(0, smsAt.getTime() - now.getTime()),
      );
    }
    return this.result(published.notice, now);
  }

  private result(n: { id: number; recipients: number; sms_count: number; sms_at: Date | null }, now: Date): AddInformResult {
    const at = n.sms_at ? new Date(n.sms_at) : null;
    return {
      id: n.id,
      recipients: n.recipients,
      sms_count: n.sms_count,
      sms_at: at?.toISOString() ?? null,
      held: !!at && at.getTime() > now.getTime(),
    };
  }
}
