import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  normalizePresets,
  reportLacks,
  Role,
  type ClassReportStatus,
  type ClassReportStatusQuery,
  type DailyReport,
  type DailyReportDays,
  type DailyReportDaysQuery,
  type DailyReportQuery,
  type ReportComment,
  type ReportHomework,
  type SaveDailyCommentInput,
  type SavedDailyComment,
} from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { offsetOf, SCHOOL_TODAY, totalOf } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { schoolOf, studentScope } from '../homework/homework-sql';
import { HOMEWORK_OF, iso, POINTS_ENTRIES_OF, POINTS_OF, refreshReports } from './report-projection';

const TZ = `coalesce(sc.timezone, 'Asia/Shanghai')`;

/**
 * The child's daily report (issue 27 item 2). The flow parts (times, who, the pick-up person) and the comment are the
 * projection daily_reports, kept by ReportsListener after each flow commit and by saveDailyComment; homework and
 * points emit no domain events, so the report reads them live (set-based subqueries, HOMEWORK_OF / POINTS_OF).
 */
@Injectable()
export class ReportsService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The student (of the caller's school and scope) and the day asked (default the school's today). */
  private async student(user: SessionUser, studentId: number, day: string | undefined): Promise<{ id: number; name: string; day: string }> {
    const [st]: Array<{ id: number; name: string; day: string }> = await this.db.query(
      `select s.id, s.name, coalesce($4::text, to_char(d.today, 'YYYY-MM-DD')) as day from students s cross join ${SCHOOL_TODAY} d
        where s.school_id = $1 and s.id = $2 and ${studentScope(user.role, '$3')}`,
      [schoolOf(user), studentId, user.id, day ?? null],
    );
    if (!st) throw new AppError('reports.student_not_found');
    return st;
  }

  async report(user: SessionUser, q: DailyReportQuery): Promise<DailyReport> {
    const st = await this.student(user, q.student_id, q.day);
    const [r]: Array<
      Omit<DailyReport, 'lacks' | 'homework' | 'comment'> & { homework: ReportHomework[]; comment: ReportComment | null; class_name: string | null }
    > = await this.db.query(
      `select s.id as student_id, s.name as student_name, $2::text as day, cc.name as class_name,
              r.state, coalesce(r.on_leave, false) as on_leave,
              ${iso('r.picked_up_at')} as picked_up_at, ${iso('r.arrived_at')} as arrived_at, au.name as arrived_by_name,
              ${iso('r.dinner_at')} as dinner_at, ${iso('r.tutor_started_at')} as tutor_started_at, ${iso('r.tutor_ended_at')} as tutor_ended_at,
              ${iso('r.left_at')} as left_at, lu.name as left_by_name, r.pickup, r.comment, ${iso('r.sent_at')} as sent_at,
              ${HOMEWORK_OF('s.id', '$2::date', TZ)} as homework, ${POINTS_OF('s.id', '$2::date', TZ)} as points,
              ${POINTS_ENTRIES_OF('s.id', '$2::date', TZ)} as points_entries
         from students s join schools sc on sc.id = s.school_id
         left join daily_reports r on r.student_id = s.id and r.day = $2::date
         left join care_classes cc on cc.id = coalesce(r.class_id, (select min(x.class_id) from care_class_students x where x.student_id = s.id))
         left join users au on au.id = r.arrived_by
         left join users lu on lu.id = r.left_by
        where s.id = $1`,
      [st.id, st.day],
    );
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

  async days(user: SessionUser, q: DailyReportDaysQuery): Promise<DailyReportDays> {
    const st = await this.student(user, q.student_id, undefined);
    const list: Array<DailyReportDays['list'][number] & { total: number }> = await this.db.query(
      `select to_char(r.day, 'YYYY-MM-DD') as day, r.state, r.on_leave, ${iso('r.arrived_at')} as arrived_at, ${iso('r.left_at')} as left_at,
              jsonb_array_length(${HOMEWORK_OF('r.student_id', 'r.day', TZ)}) as homework, ${POINTS_OF('r.student_id', 'r.day', TZ)} as points, r.comment is not null as has_comment, ${iso('r.sent_at')} as sent_at,
              count(*) over ()::int as total
         from daily_reports r join schools sc on sc.id = r.school_id where r.student_id = $1 and r.day <= $2::date
        order by r.day desc limit $3 offset $4`,
      [st.id, st.day, q.limit, offsetOf(q)],
    );
    return {
      student_id: st.id,
      student_name: st.name,
      list: list.map(({ total: _total, ...d }) => d),
      total: totalOf(list),
      page: q.page,
      limit: q.limit,
    };
  }

  /** The care classes the caller may see the status of: the admin any of the school, a head teacher theirs, a teacher those with a duty. */
  private classScope(user: SessionUser): string {
    if (user.role === Role.Admin) return `($2::int is not null)`;
    return `(cc.head_teacher_id = $2 or exists (select 1 from duty_assignments d where d.class_id = cc.id and d.teacher_id = $2))`;
  }

  async classStatus(user: SessionUser, q: ClassReportStatusQuery): Promise<ClassReportStatus> {
    const school = schoolOf(user);
    const classes: Array<{ id: number; name: string }> = await this.db.query(
      `select cc.id, cc.name from care_classes cc where cc.school_id = $1 and cc.deleted_at is null and ${this.classScope(user)} order by cc.id limit 200`,
      [school, user.id],
    );
    const [{ today }]: Array<{ today: string }> = await this.db.query(`select to_char(d.today, 'YYYY-MM-DD') as today from ${SCHOOL_TODAY} d`, [
      school,
    ]);
    const day = q.day ?? today;
    const classId = q.class_id ?? classes[0]?.id ?? null;
    if (q.class_id && !classes.some((c) => c.id === q.class_id)) throw new AppError('reports.class_not_found');
    const rows: Array<Omit<ClassReportStatus['list'][number], 'lacks'> & { homework: Array<{ done: boolean; marked: boolean }> }> = classId
      ? await this.db.query(
          `select s.id as student_id, s.name as student_name, r.state, coalesce(r.on_leave, false) as on_leave,
                  ${iso('r.arrived_at')} as arrived_at, ${iso('r.left_at')} as left_at, ${iso('r.sent_at')} as sent_at,
                  r.comment is not null as has_comment, coalesce((r.comment->>'version')::int, 0) as comment_version,
                  ${HOMEWORK_OF('s.id', '$2::date', TZ)} as homework
             from care_class_students ccs join students s on s.id = ccs.student_id and s.status = 1
             join schools sc on sc.id = s.school_id
             left join daily_reports r on r.student_id = s.id and r.day = $2::date
            where ccs.class_id = $1 order by s.name, s.id`,
          [classId, day],
        )
      : [];
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
  async saveComment(user: SessionUser, input: SaveDailyCommentInput): Promise<SavedDailyComment> {
    const school = schoolOf(user);
    const [st]: Array<{ id: number; mine: boolean; day: string }> = await this.db.query(
      `select s.id, ${studentScope(user.role, '$3')} as mine, coalesce($4::text, to_char(d.today, 'YYYY-MM-DD')) as day
         from students s cross join ${SCHOOL_TODAY} d where s.school_id = $1 and s.id = $2`,
      [school, input.student_id, user.id, input.day ?? null],
    );
    if (!st) throw new AppError('reports.student_not_found');
    if (!st.mine) throw new AppError('reports.comment_forbidden');
    const presets = normalizePresets(input.presets);
    return this.db.transaction(async (em) => {
      if (input.photos.length) {
        const [c]: Array<{ name: string; photo_consent: boolean | null; stored: string[] }> = await em.query(
          `select s.name, s.photo_consent,
                  coalesce((select array(select jsonb_array_elements_text(dc.photos)) from daily_comments dc
                             where dc.student_id = s.id and dc.day = $2::date), '{}') as stored
             from students s where s.id = $1 for share of s`,
          [st.id, st.day],
        );
        const stored = new Set(c.stored);
        if (c.photo_consent !== true && input.photos.some((url) => !stored.has(url)))
          throw new AppError('privacy.photo_consent_required', { name: c.name });
      }
      const [saved]: Array<{ version: number }> = await em.query(
        input.version === 0
          ? `insert into daily_comments (student_id, day, school_id, presets, text, photos, author_id, version)
             values ($1, $2::date, $3, $4::text[], $5, $6::jsonb, $7, 1)
             on conflict (student_id, day) do nothing returning version`
          : // in a CTE: TypeORM answers a bare UPDATE … RETURNING as [rows, count], never undefined
            `with u as (
               update daily_comments set presets = $4::text[], text = $5, photos = $6::jsonb, author_id = $7, version = version + 1, updated_at = now()
                where student_id = $1 and day = $2::date and school_id = $3 and version = $8 returning version
             ) select version from u`,
        [st.id, st.day, school, presets, input.text, JSON.stringify(input.photos), user.id, ...(input.version === 0 ? [] : [input.version])],
      );
      if (!saved) throw new AppError('reports.comment_stale');
      await em.query(
        `insert into daily_comment_versions (school_id, student_id, day, version, presets, text, photos, author_id)
         select school_id, student_id, day, version, presets, text, photos, author_id from daily_comments where student_id = $1 and day = $2::date`,
        [st.id, st.day],
      );
      await refreshReports(em, [{ student_id: st.id, day: st.day }], { lock: true });
      const [r]: Array<{ comment: ReportComment }> = await em.query(`select comment from daily_reports where student_id = $1 and day = $2::date`, [
        st.id,
        st.day,
      ]);
      return { student_id: st.id, day: st.day, ...r.comment };
    });
  }
}
