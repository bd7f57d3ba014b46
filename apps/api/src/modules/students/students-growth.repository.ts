import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DATA_PERIOD_SQL, StudentStatus, type GrowthAttendance, type GrowthGroup, type StudentComment } from '@wantuo/shared';
import { sql } from 'kysely';
import { DataSource } from 'typeorm';
import { kdb, pageRows } from '../../core/database/kysely';
import type { PageQuery } from '../../core/database/sql-kit';

/** The SQL of a student's growth record (issue 38): comments, published exam scores, attendance per period. */
@Injectable()
export class StudentsGrowthRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** A page of the student's comments, newest first, with the total (one statement). */
  comments(schoolId: number, studentId: number, q: PageQuery) {
    const k = kdb(this.db);
    const total = k
      .selectFrom('student_comments')
      .select((eb) => sql<number>`${eb.fn.countAll()}::int`.as('total'))
      .where('student_id', '=', studentId)
      .where('school_id', '=', schoolId);
    const list = k
      .selectFrom('student_comments as sc')
      .innerJoin('users as u', 'u.id', 'sc.author_id')
      .select((eb) => [
        'sc.id',
        'sc.student_id',
        eb.ref('sc.kind').$castTo<StudentComment['kind']>().as('kind'),
        'sc.period',
        'sc.content',
        'sc.author_id',
        'u.name as author_name',
        'sc.created_at',
      ])
      .where('sc.student_id', '=', studentId)
      .where('sc.school_id', '=', schoolId)
      .orderBy('sc.created_at', 'desc')
      .orderBy('sc.id', 'desc');
    return pageRows(this.db, total, list, q);
  }

  /**
   * The student's scores in published exams (the latest `max`, newest first), each with the rank in the class the
   * score was entered for and that class's count and average. One statement.
   */
  scores(schoolId: number, studentId: number, max: number) {
    return kdb(this.db)
      .selectFrom('exam_scores as m')
      .innerJoin('exams as e', (j) => j.onRef('e.id', '=', 'm.exam_id').on('e.published_at', 'is not', null).on('e.school_id', '=', schoolId))
      .leftJoin('care_classes as c', 'c.id', 'm.class_id')
      .innerJoinLateral(
        (eb) =>
          eb
            .selectFrom('exam_scores as o')
            .select((o) => [
              sql<number>`${o.fn.countAll()}::int`.as('class_count'),
              sql<number | null>`round(avg(${o.ref('o.score2')}) / 2.0, 1)::float8`.as('class_average'),
            ])
            .whereRef('o.exam_id', '=', 'm.exam_id')
            .where(sql<boolean>`o.class_id is not distinct from m.class_id`)
            .where('o.absent', '=', false)
            .as('k'),
        (j) => j.onTrue(),
      )
      .select((eb) => [
        'e.id as exam_id',
        'e.name',
        'e.subject',
        sql<string>`to_char(${eb.ref('e.exam_day')}, 'YYYY-MM-DD')`.as('exam_day'),
        'e.full_mark',
        'e.pass2',
        'c.name as class_name',
        'm.score2',
        'm.absent',
        sql<number | null>`case when ${eb.ref('m.absent')} then null else (select count(*)::int + 1 from exam_scores o where o.exam_id = m.exam_id
             and o.class_id is not distinct from m.class_id and not o.absent and o.score2 > m.score2) end`.as('class_rank'),
        'k.class_count',
        'k.class_average',
      ])
      .where('m.student_id', '=', studentId)
      .where('m.school_id', '=', schoolId)
      .orderBy('e.exam_day', 'desc')
      .orderBy('e.id', 'desc')
      .limit(max)
      .execute();
  }

  /**
   * The student's attendance per period of the window, every period included: the days the care class runs (its
   * time slot's weekdays, from the day the student joined it) and the days with a record, as present, on leave or
   * absent (expected, neither, before the window's last day). One statement.
   */
  async attendance(schoolId: number, studentId: number, group: GrowthGroup, w: { from: string; to: string; periods: string[] }) {
    const r =
      await sql<GrowthAttendance>`with days as (select d::date as day from generate_series(${w.from}::date, ${w.to}::date, interval '1 day') d),
       expected as (
         select days.day
           from days
           join care_class_students ccs on ccs.student_id = ${studentId} and ccs.school_id = ${schoolId}
           join care_classes ec on ec.id = ccs.class_id and ec.deleted_at is null and ec.status = 1
           join students es on es.id = ccs.student_id and es.status = ${StudentStatus.Active}
           join schools sc on sc.id = ccs.school_id
           left join class_times ct on ct.id = ec.class_time_id
          where days.day >= (ccs.joined_at at time zone sc.timezone)::date
            and (ct.id is null or extract(isodow from days.day)::smallint = any(ct.weekdays))
       ),
       recorded as (select day, state, on_leave from student_days
                     where student_id = ${studentId} and school_id = ${schoolId} and day between ${w.from}::date and ${w.to}::date),
       sdays as (
         select coalesce(r.day, e.day) as day,
                case when r.state in ('picked_up', 'in_centre', 'left') then 'present'
                     when coalesce(r.on_leave, false) or r.state = 'on_leave' then 'on_leave'
                     when coalesce(r.day, e.day) < ${w.to}::date then 'absent' end as kind
           from expected e full join recorded r on r.day = e.day
       ),
       periods as (select unnest(${w.periods}::date[]) as period)
       select p.period::text as period,
              count(*) filter (where d.kind = 'present')::int as present,
              count(*) filter (where d.kind = 'absent')::int as absent,
              count(*) filter (where d.kind = 'on_leave')::int as on_leave
         from periods p left join sdays d on ${sql.raw(DATA_PERIOD_SQL[group]('d.day'))} = p.period
        group by p.period
        order by p.period`.execute(kdb(this.db));
    return r.rows;
  }

  /** Adds the author's overall comment on the student; the comment as studentComments lists it. */
  overall(v: { schoolId: number; studentId: number; authorId: number; authorName: string; period: string; content: string }) {
    return kdb(this.db)
      .insertInto('student_comments')
      .values({ school_id: v.schoolId, student_id: v.studentId, author_id: v.authorId, kind: 'overall', period: v.period, content: v.content })
      .returning((eb) => [
        'id',
        'student_id',
        eb.ref('kind').$castTo<StudentComment['kind']>().as('kind'),
        'period',
        'content',
        'author_id',
        sql<string>`${v.authorName}::text`.as('author_name'),
        'created_at',
      ])
      .executeTakeFirstOrThrow();
  }
}
