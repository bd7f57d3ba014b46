import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { dueDayOk, HOMEWORK_MAX_DAYS, type Homework, type IssueHomeWorkInput } from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { isUniqueViolation } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import type { Sendable } from '../../core/http/sendable';
import { GuardianMessages, type StagedMessages } from '../messages/guardian-messages.service';
import { HomeworkRepository } from './homework.repository';

/** Setting homework: for one of the teacher's own classes, the class's students when it is set. */
@Injectable()
export class IssueService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly messages: GuardianMessages,
    private readonly repo: HomeworkRepository,
  ) {}

  /**
   * Sets homework for a care class (the caller is its head teacher or one of its duty teachers) or a teaching class (the
   * caller teaches it), optionally for one of its sessions; due from today (school-local) to HOMEWORK_MAX_DAYS later.
   * One statement writes the homework and a "not done" row for every active student of the class; their guardians are
   * told (GuardianMessages, staged in the same transaction). A repeated request_id answers the homework it set.
   */
  async issue(user: SchoolCaller, input: IssueHomeWorkInput): Promise<Sendable<Homework>> {
    const school = user.schoolId;
    const key = `${user.id}:${input.request_id}`;
    const found = (await this.repo.issueChecks(school, input.kind, input.class_id, user.id, input.session_id ?? null, key))!;
    if (found.prior) return this.read(school, found.prior);
    if (!found.class_ok) throw new AppError('homework.class_not_found');
    if (!found.session_ok) throw new AppError('homework.session_not_found');
    if (!dueDayOk(found.today, input.due_day)) throw new AppError('homework.due_invalid', { max: HOMEWORK_MAX_DAYS });
    let id: number;
    let staged: StagedMessages | null = null;
    try {
      const done = await this.db.transaction(async (em) => {
        const row = await this.repo.issue(em, {
          school_id: school,
          kind: input.kind,
          class_id: input.class_id,
          session_id: input.session_id ?? null,
          title: input.title,
          content: input.content,
          attachments: input.attachments,
          set_day: found.today,
          due_day: input.due_day,
          teacher_id: user.id,
          request_key: key,
        });
        if (row.students === 0) throw new AppError('homework.no_students');
        // every guardian of the students told (WeChat, else SMS), with the homework's commit
        const told = await this.repo.guardiansOf(em, row.id);
        const messages = await this.messages.stage(
          em,
          told.map((t) => ({
            school_id: school,
            user_id: t.user_id,
            kind: 'homework.set' as const,
            params: { school: t.school, student: t.student, title: input.title, due: input.due_day },
            link: `/parent_homework?student=${t.student_id}`,
            key: `hw:${row.id}:${t.student_id}:${t.user_id}`,
          })),
        );
        return { id: row.id, messages };
      });
      id = done.id;
      staged = done.messages;
    } catch (err) {
      // the same request sent twice at once: the other one set it
      if (!isUniqueViolation(err, 'homeworks_request_idx')) throw err;
      id = (await this.repo.byKey(school, key))!;
    }
    if (staged) await this.messages.dispatch(staged);
    return this.read(school, id);
  }

  private async read(school: number, id: number): Promise<Sendable<Homework>> {
    return (await this.repo.homework(school, id))!;
  }
}
