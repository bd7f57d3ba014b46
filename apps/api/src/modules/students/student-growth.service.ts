import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  DATA_PERIOD_SQL,
  defaultPass2,
  GROWTH_MAX_SCORES,
  growthWindow,
  localDay,
  type GrowthAttendance,
  type GrowthGroup,
  type OverallCommentInput,
  type Page,
  type ParentExamScore,
  type StudentComment,
  type StudentCommentsInput,
  type TeacherStudentGrowthAnswer,
  type TeacherStudentGrowthInput,
} from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { offsetOf, pageOf, totalOf } from '../../core/database/sql-kit';
import type { SessionUser } from '../../core/http/request-context';
import { StudentsService } from './students.service';

/** A student's growth record: comments, published exam scores and attendance per period (teacherStudentGrowth, studentComments, overallComment). */
@Injectable()
export class StudentGrowthService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly students: StudentsService,
  ) {}

  /**
   * teacherStudentGrowth: the student's comments (paged) with, whatever the page, the published exam scores and the
   * attendance per week or month over the last GROWTH_PERIODS periods. A teacher sees own students, a parent own
   * children. Four statements whatever the number of exams, days or comments.
   */
  async growth(user: SessionUser, q: TeacherStudentGrowthInput): Promise<TeacherStudentGrowthAnswer> {
    const timezone = await this.students.assertVisible(this.db.manager, user, q.student_id);
    const group = q.group ?? 'month';
    const window = growthWindow(localDay(new Date(), timezone), group);
    const page = await this.commentPage(user.schoolId!, q);
    const scores = await this.growthScores(user.schoolId!, q.student_id);
    const attendance = await this.growthAttendance(user.schoolId!, q.student_id, group, window);
    return { ...page, group, scores, attendance };
  }

  /** studentComments: the student's comments, newest first, paged (the admin's view of the growth record). */
  async comments(user: SessionUser, q: StudentCommentsInput): Promise<Page<StudentComment>> {
    await this.students.assertVisible(this.db.manager, user, q.student_id);
    return this.commentPage(user.schoolId!, q);
  }

  private async commentPage(schoolId: number, q: StudentCommentsInput): Promise<Page<StudentComment>> {
    const rows: Array<StudentComment & { total: number }> = await this.db.query(
      `select c.total, p.*
         from (select count(*)::int as total from student_comments where student_id = $1 and school_id = $2) c
         left join lateral (
           select sc.id, sc.student_id, sc.kind, sc.period, sc.content, sc.author_id, u.name as author_name, sc.created_at
             from student_comments sc join users u on u.id = sc.author_id
            where sc.student_id = $1 and sc.school_id = $2
            order by sc.created_at desc, sc.id desc
            limit $3 offset $4
         ) p on true`,
      [q.student_id, schoolId, q.limit, offsetOf(q)],
    );
    const list = rows.filter((r) => r.id !== null).map(({ total: _, ...r }) => r as StudentComment);
    return pageOf(list, totalOf(rows), q);
  }

  /**
   * The student's scores in published exams (the latest GROWTH_MAX_SCORES, oldest first), each with the rank in the
   * class the score was entered for and that class's count and average (the guardians' examScore rule). One statement.
   */
  private async growthScores(schoolId: number, studentId: number): Promise<ParentExamScore[]> {
    const rows: Array<Omit<ParentExamScore, 'score' | 'pass_mark'> & { score2: number | null; pass2: number | null }> = await this.db.query(
      `select e.id as exam_id, e.name, e.subject, to_char(e.exam_day, 'YYYY-MM-DD') as exam_day, e.full_mark, e.pass2,
              c.name as class_name, m.score2, m.absent,
              case when m.absent then null else (select count(*)::int + 1 from exam_scores o where o.exam_id = m.exam_id and o.class_id is not distinct from m.class_id
                                                   and not o.absent and o.score2 > m.score2) end as class_rank,
              k.class_count, k.class_average
         from exam_scores m join exams e on e.id = m.exam_id and e.published_at is not null and e.school_id = $2
         left join care_classes c on c.id = m.class_id
         cross join lateral (select count(*)::int as class_count, round(avg(o.score2) / 2.0, 1)::float8 as class_average
                               from exam_scores o where o.exam_id = m.exam_id and o.class_id is not distinct from m.class_id and not o.absent) k
        where m.student_id = $1 and m.school_id = $2
        order by e.exam_day desc, e.id desc limit $3`,
      [studentId, schoolId, GROWTH_MAX_SCORES],
    );
    return rows
      .reverse()
      .map(({ score2, pass2, ...r }) => ({ ...r, score: score2 === null ? null : score2 / 2, pass_mark: (pass2 ?? defaultPass2(r.full_mark)) / 2 }));
  }

  /**
   * The student's attendance per period of the window, every period included: the days the care class runs (its
   * time slot's weekdays, from the day the student joined it; the data centre's expected days) and the days with a
   * record, as present (picked up, in the centre or left), on leave (a leave day the student did not come) or absent
   * (expected, neither, before today). One statement.
   */
  private async growthAttendance(
    schoolId: number,
    studentId: number,
    group: GrowthGroup,
    w: { from: string; to: string; periods: string[] },
  ): Promise<GrowthAttendance[]> {
    return this.db.query(
      `with days as (select d::date as day from generate_series($3::date, $4::date, interval '1 day') d),
       expected as (
         select days.day
           from days
           join care_class_students ccs on ccs.student_id = $1 and ccs.school_id = $2
           join care_classes ec on ec.id = ccs.class_id and ec.deleted_at is null and ec.status = 1
           join students es on es.id = ccs.student_id and es.status = 1
           join schools sc on sc.id = ccs.school_id
           left join class_times ct on ct.id = ec.class_time_id
          where days.day >= (ccs.joined_at at time zone sc.timezone)::date
            and (ct.id is null or extract(isodow from days.day)::smallint = any(ct.weekdays))
       ),
       recorded as (select day, state, on_leave from student_days where student_id = $1 and school_id = $2 and day between $3::date and $4::date),
       sdays as (
         select coalesce(r.day, e.day) as day,
                case when r.state in ('picked_up', 'in_centre', 'left') then 'present'
                     when coalesce(r.on_leave, false) or r.state = 'on_leave' then 'on_leave'
                     when coalesce(r.day, e.day) < $4::date then 'absent' end as kind
           from expected e full join recorded r on r.day = e.day
       ),
       periods as (select unnest($5::date[]) as period)
       select p.period::text as period,
              count(*) filter (where d.kind = 'present')::int as present,
              count(*) filter (where d.kind = 'absent')::int as absent,
              count(*) filter (where d.kind = 'on_leave')::int as on_leave
         from periods p left join sdays d on ${DATA_PERIOD_SQL[group]('d.day')} = p.period
        group by p.period
        order by p.period`,
      [studentId, schoolId, w.from, w.to, w.periods],
    );
  }

  async overallComment(user: SessionUser, input: OverallCommentInput): Promise<StudentComment> {
    await this.students.assertVisible(this.db.manager, user, input.student_id, true);
    const [row]: StudentComment[] = await this.db.query(
      `insert into student_comments (school_id, student_id, author_id, kind, period, content)
       values ($1, $2, $3, 'overall', $4, $5)
       returning id, student_id, kind, period, content, author_id, $6::text as author_name, created_at`,
      [user.schoolId, input.student_id, user.id, input.period, input.content, user.name],
    );
    return row;
  }
}
