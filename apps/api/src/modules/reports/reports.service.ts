import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  normalizePresets,
  reportLacks,
  Role,
  type ClassReportStatusQuery,
  type DailyReportDaysQuery,
  type DailyReportQuery,
  type SaveDailyCommentInput,
  type SavedDailyComment,
} from '@wantuo/shared';
import { DataSource } from 'typeorm';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { offsetOf } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import { refreshReports } from './report-projection';
import { ReportsRepository } from './reports.repository';

/**
 * The child's daily report (issue 27 item 2). The flow parts (times, who, the pick-up person) and the comment are the
 * projection daily_reports, kept by ReportsListener after each flow commit and by saveDailyComment; homework and
 * points emit no domain events, so the report reads them live (set-based subqueries, homeworkOf / pointsOf).
 */
@Injectable()
export class ReportsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repo: ReportsRepository,
  ) {}

  /** The student (of the caller's school and scope) and the day asked (default the school's today). */
  private async student(user: SchoolCaller, studentId: number, day: string | undefined): Promise<{ id: number; name: string; day: string }> {
    const st = await this.repo.student(user.schoolId, user.role, user.id, studentId, day ?? null);
    if (!st) throw new AppError('reports.student_not_found');
    return st;
  }

  async report(user: SchoolCaller, q: DailyReportQuery) {
    const st = await this.student(user, q.student_id, q.day);
    const r = await this.repo.report(st.id, st.day);
    return {
      ...r,
      lacks: reportLacks({
        on_leave: r.on_leave,
        arrived_at: r.arrived_at,
        left_at: r.left_at,
        has_comment: !!r.comment,
        homework: r.homework,
      }),
    };
  }

  async days(user: SchoolCaller, q: DailyReportDaysQuery) {
    const st = await this.student(user, q.student_id, undefined);
    const list = await this.repo.days(st.id, st.day, q.limit, offsetOf(q));
    return {
      student_id: st.id,
      student_name: st.name,
      list: list.map(({ total: _total, ...d }) => d),
      total: Number(list[0]?.total ?? 0),
      page: q.page,
      limit: q.limit,
    };
  }

  async classStatus(user: SchoolCaller, q: ClassReportStatusQuery) {
    const school = user.schoolId;
    const classes = await this.repo.classes(school, user.id, user.role === Role.Admin);
    const today = await this.repo.today(school);
    const day = q.day ?? today;
    const classId = q.class_id ?? classes[0]?.id ?? null;
    if (q.class_id && !classes.some((c) => c.id === q.class_id)) throw new AppError('reports.class_not_found');
    const rows = classId ? await this.repo.classDay(classId, day) : [];
    const list = rows.map(({ homework, ...r }) => ({
      ...r,
      lacks: reportLacks({ on_leave: r.on_leave, arrived_at: r.arrived_at, left_at: r.left_at, has_comment: r.has_comment, homework }),
    }));
    return {
      day,
      class_id: classId,
      classes,
      counts: {
        students: list.length,
        sent: list.filter((r) => r.sent_at).length,
        lacks_comment: list.filter((r) => r.lacks.includes('comment')).length,
      },
      list,
    };
  }

  /**
   * The teacher's comment of a child's day: a teacher or head teacher of a class the student is in (care class they head
   * or have a duty in, teaching class they teach). Optimistic concurrency on `version` (0: the first); every version kept
   * in daily_comment_versions; the report row refreshed in the same transaction. A photo not already in the stored
   * comment needs the child's photo consent (students.photo_consent true, read under a share lock of the student so a
   * withdrawal waits or is seen): privacy.photo_consent_required, nothing written.
   */
  async saveComment(user: SchoolCaller, input: SaveDailyCommentInput): Promise<SavedDailyComment> {
    const school = user.schoolId;
    const st = await this.repo.commentStudent(school, user.role, user.id, input.student_id, input.day ?? null);
    if (!st) throw new AppError('reports.student_not_found');
    if (!st.mine) throw new AppError('reports.comment_forbidden');
    const presets = normalizePresets(input.presets);
    return this.db.transaction(async (em) => {
      if (input.photos.length) {
        const c = await this.repo.photoConsent(em, st.id, st.day);
        const stored = new Set(c.stored);
        if (c.photo_consent !== true && input.photos.some((url) => !stored.has(url)))
          throw new AppError('privacy.photo_consent_required', { name: c.name });
      }
      const v = { studentId: st.id, day: st.day, school, presets, text: input.text, photos: input.photos, author: user.id };
      const saved = input.version === 0 ? await this.repo.insertComment(em, v) : await this.repo.updateComment(em, { ...v, version: input.version });
      if (saved === undefined) throw new AppError('reports.comment_stale');
      await this.repo.keepVersion(em, st.id, st.day);
      await refreshReports(em, [{ student_id: st.id, day: st.day }], { lock: true });
      const r = await this.repo.reportComment(em, st.id, st.day);
      return { student_id: st.id, day: st.day, ...r.comment };
    });
  }
}
