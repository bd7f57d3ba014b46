import { Injectable } from '@nestjs/common';
import {
  nextRemindAt,
  Role,
  type AdminInformListQuery,
  type InformInfoQuery,
  type InformListQuery,
  type ParentInformListQuery,
} from '@wantuo/shared';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { AppError } from '../../core/http/app-error';
import { NoticeClock } from './notices-sql';
import { NoticesRepository } from './notices.repository';

/** Reading notices: the sent and received lists, one notice with its receipts, a recipient opening one. */
@Injectable()
export class InboxService {
  constructor(
    private readonly repo: NoticesRepository,
    private readonly clock: NoticeClock,
  ) {}

  /**
   * A teacher's or head teacher's notices: `sent` the ones they published, `received` the ones they are a staff
   * recipient of (with when they read it); newest first, by class, keyword, importance.
   */
  async staffList(user: SchoolCaller, q: InformListQuery) {
    return this.repo.list(user.schoolId, user.id, q.box === 'sent' ? 'sent' : q.box === 'class' ? 'class' : 'received', q);
  }

  /** Every notice of the admin's school. */
  adminList(user: SchoolCaller, q: AdminInformListQuery) {
    return this.repo.list(user.schoolId, user.id, 'all', q);
  }

  /** A guardian's notices, newest first, with when each was read and the unread count. */
  async parentList(user: SchoolCaller, q: ParentInformListQuery) {
    return this.repo.parentList(user.id, q.unread === true, q);
  }

  /**
   * A recipient opens a notice: the first time marks it read (the receipt's read_at, the notice's read count, in one
   * statement that locks the receipt first: reading twice, even at once, counts once and answers the first read's time). Not a recipient, or another school's: not found.
   */
  async open(user: SchoolCaller, id: number) {
    const row = await this.repo.open(user.schoolId, id, user.id, this.clock.now());
    if (!row) throw new AppError('notices.not_found');
    return row;
  }

  /**
   * One notice with its receipts (who read it and when, who has not; `read` filters), for its author, or the admin
   * for any notice of the school. Guardians show the children the notice reached. A head teacher may also read a
   * notice someone else sent to a class they head (or to the whole school): then only the receipts of the guardians
   * of their own classes' children (`class_only`).
   */
  async info(user: SchoolCaller, q: InformInfoQuery) {
    const isAdmin = user.role === Role.Admin;
    const notice = await this.repo.notice(user.schoolId, q.id, user.id, isAdmin, user.role === Role.HeadTeacher);
    if (!notice) throw new AppError('notices.not_found');
    const { own, ...detail } = notice;
    // the receipts the caller may see: all (author, admin), or the guardians of children in the classes they head that the notice reached
    const { unreadHere, page } = await this.repo.receipts(
      {
        schoolId: user.schoolId,
        noticeId: q.id,
        scope: detail.scope,
        classIds: detail.class_ids,
        classesOf: own ? null : user.id,
        read: q.read ?? null,
      },
      q,
    );
    const last = detail.last_reminded_at ? new Date(detail.last_reminded_at) : null;
    return {
      notice: detail,
      receipts: page,
      unread: own ? detail.recipients - detail.read_count : unreadHere,
      next_remind_at: nextRemindAt(last, this.clock.now())?.toISOString() ?? null,
      class_only: !own,
    };
  }
}
