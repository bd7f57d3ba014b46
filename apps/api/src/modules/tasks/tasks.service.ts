import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  JobStatus,
  Role,
  type BoardStateName,
  type HandoverDuty,
  type TeacherHandOverResult,
  type TeacherHandOverStudentInput,
  type ShuttleTask,
  type ShuttleTaskGroup,
  type ShuttleTaskStudent,
  type TeacherTodayTask,
  type TodayTaskList,
  TODAY_TASK_LISTS,
  TODAY_TASK_LIST_MAX,
  type TutorTask,
  type TutorTaskInfo,
  type TutorTaskRow,
} from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { SCHOOL_TODAY, schoolToday } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { HOMEWORK_COLUMNS, HOMEWORK_JOINS, SUBMISSION_COLUMNS, SUBMISSION_JOINS } from '../homework/homework-sql';
import { RESPONSIBLE } from '../students/students.service';
import { ClockService } from './clock.service';

/**
 * Today (the school's local date, `d.day`, weekday 1..7 `d.dow`) and the active students of the caller's care
 * classes (`s`, with `cc` the class and `sd` today's student_days row, if any). $1 school, $2 the caller.
 */
const TODAY = `with d as (
    select t.today as day, extract(isodow from t.today)::int as dow
      from ${SCHOOL_TODAY} t
  )`;

/**
 * With a duty: the students on the caller's list of that duty today: their own (RESPONSIBLE) unless handed over today
 * (`ho`, task_handovers), and those handed to the caller (`hob` who handed them).
 */
const MINE = (joins = '', duty?: HandoverDuty) => `from students s
  cross join d
  join care_class_students ccs on ccs.student_id = s.id
  join care_classes cc on cc.id = ccs.class_id and cc.deleted_at is null
  left join student_days sd on sd.student_id = s.id and sd.day = d.day
  ${duty ? `left join task_handovers ho on ho.student_id = s.id and ho.day = d.day and ho.duty = '${duty}' left join users hob on hob.id = ho.from_teacher_id` : ''}
  ${joins}
  where s.school_id = $1 and s.status = 1 and ${duty ? `(case when ho.to_teacher_id is null then ${RESPONSIBLE('$2')} else ho.to_teacher_id = $2 end)` : RESPONSIBLE('$2')}`;

/** Who handed the student's task to the caller today (with MINE's duty joins). */
const HANDED_BY = `case when ho.to_teacher_id = $2 then hob.name end as handed_over_by_name`;

/** The board state: no row today is expected (or on leave when an approved request covers today). */
const BOARD = `case
    when sd.student_id is null then
      case when exists (select 1 from leave_requests lr where lr.student_id = s.id and lr.status = 1 and d.day between lr.start_day and lr.end_day)
           then 'on_leave' else 'expected' end
    when sd.on_leave and sd.state = 'expected' then 'on_leave'
    else sd.state end`;

/** At most this many homework of one day in a tutoring task (as the homework module's day list). */
const DAY_HOMEWORK_MAX = 100;

const CLASS_JSON = `json_build_object('id', cc.id, 'name', cc.name)`;

/** teacherTodayTask's counts over `mine` (its CTE): each one's condition, also the filter of the students it names. */
const TODAY_COUNTS: Record<TodayTaskList | 'to_hand_over', string> = {
  picked_up: `state = 'picked_up'`,
  in_centre: `state = 'in_centre'`,
  left: `state = 'left'`,
  on_leave: `state = 'on_leave'`,
  to_pick_up: `on_shuttle and needs_shuttle and state = 'expected'`,
  to_feed: `needs_dinner and state = 'in_centre' and dinner_at is null`,
  to_tutor: `on_tutor and tutoring_type is not null and state = 'in_centre' and tutor_started_at is null`,
  tutoring: `on_tutor and tutoring_type is not null and state = 'in_centre' and tutor_started_at is not null and tutor_ended_at is null`,
  to_hand_over: `state = 'in_centre'`,
};

/** The first TODAY_TASK_LIST_MAX students of `mine` meeting a condition, by care class and name, as a JSON array (in the same pass as the counts). */
const STUDENTS_OF = (where: string) =>
  `coalesce(array_to_json((array_agg(json_build_object('id', id, 'name', name, 'class_name', class_name) order by class_name, name, id)
     filter (where ${where}))[1:${TODAY_TASK_LIST_MAX}]), '[]')`;

/** The teachers' lists of the day, read from the student_days projection. */
@Injectable()
export class TasksService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly clock: ClockService,
  ) {}

  /**
   * The caller's students today: counts per board state, what is left to do, the caller's classes and own clock record.
   * The pick-ups (to_pick_up) are those of the caller's shuttleTask list, the tutoring (to_tutor, tutoring) those of the
   * tutorTask list: a task handed over today (task_handovers) counts for the teacher it was handed to only. The other
   * counts are over the caller's own students and the students handed to the caller today. One statement.
   */
  async today(user: SessionUser): Promise<TeacherTodayTask> {
    const [counts]: Array<
      Omit<TeacherTodayTask, 'classes' | 'states' | 'clock' | 'students'> &
        Record<BoardStateName, number> &
        Record<`l_${TodayTaskList}`, TeacherTodayTask['students'][TodayTaskList]>
    > = await this.db.query(
      `${TODAY}, cand as (
         select s.id, s.name, cc.name as class_name, s.needs_shuttle, s.needs_dinner, s.tutoring_type, sd.dinner_at, sd.tutor_started_at,
                sd.tutor_ended_at, ${BOARD} as state, ${RESPONSIBLE('$2')} as own, hs.to_teacher_id as shuttle_to, ht.to_teacher_id as tutor_to
           from students s
           cross join d
           join care_class_students ccs on ccs.student_id = s.id
           join care_classes cc on cc.id = ccs.class_id and cc.deleted_at is null
           left join student_days sd on sd.student_id = s.id and sd.day = d.day
           left join task_handovers hs on hs.student_id = s.id and hs.day = d.day and hs.duty = 'shuttle'
           left join task_handovers ht on ht.student_id = s.id and ht.day = d.day and ht.duty = 'tutor'
          where s.school_id = $1 and s.status = 1
       ),
       mine as (
         -- on the caller's list of a duty as MINE(…, duty) decides: own unless handed over today, or handed to the caller
         select c.*, case when shuttle_to is null then own else shuttle_to = $2 end as on_shuttle,
                case when tutor_to is null then own else tutor_to = $2 end as on_tutor
           from cand c
          where own or shuttle_to = $2 or tutor_to = $2
       )
       select to_char((select day from d), 'YYYY-MM-DD') as day,
              count(*)::int as total,
              count(*) filter (where state = 'expected')::int as expected,
              ${Object.entries(TODAY_COUNTS)
                .map(([k, where]) => `count(*) filter (where ${where})::int as ${k}`)
                .join(',\n              ')},
              ${TODAY_TASK_LISTS.map((k) => `${STUDENTS_OF(TODAY_COUNTS[k])} as l_${k}`).join(',\n              ')}
         from mine`,
      [user.schoolId, user.id],
    );
    const classes: TeacherTodayTask['classes'] = await this.db.query(
      `select c.id, c.name, c.head_teacher_id is not distinct from $2 as head_teacher
         from care_classes c
        where c.school_id = $1 and c.deleted_at is null
          and (c.head_teacher_id = $2 or exists (select 1 from duty_assignments da where da.class_id = c.id and da.teacher_id = $2))
        order by c.name, c.id`,
      [user.schoolId, user.id],
    );
    const clock = await this.clock.today(user);
    const { day, total, expected, picked_up, in_centre, left, on_leave, to_pick_up, to_feed, to_tutor, tutoring, to_hand_over } = counts;
    const students = Object.fromEntries(TODAY_TASK_LISTS.map((k) => [k, counts[`l_${k}`]])) as TeacherTodayTask['students'];
    return {
      day,
      total,
      to_pick_up,
      to_feed,
      to_tutor,
      tutoring,
      to_hand_over,
      classes,
      states: { expected, picked_up, in_centre, left, on_leave },
      students,
      clock,
    };
  }

  /**
   * The caller's students who use the shuttle, grouped by day school and dismissal time: the earliest start of the
   * student's own time slots running today, else of the class's time slot when it runs today.
   */
  async shuttle(user: SessionUser): Promise<ShuttleTask> {
    const rows: Array<ShuttleTaskStudent & { day: string; day_school: string | null; dismissal_time: string | null }> = await this.db.query(
      `${TODAY}
       select to_char(d.day, 'YYYY-MM-DD') as day, s.id, s.name, s.grade, s.class_name, s.day_school, ${CLASS_JSON} as care_class,
              ${BOARD} as state, sd.picked_up_at, sd.picked_up_by, pu.name as picked_up_by_name,
              to_char(coalesce(
                (select min(ct.start_time) from student_class_times sct join class_times ct on ct.id = sct.class_time_id and ct.deleted_at is null
                  where sct.student_id = s.id and d.dow = any(ct.weekdays)),
                (select ct.start_time from class_times ct where ct.id = cc.class_time_id and ct.deleted_at is null and d.dow = any(ct.weekdays))
              ), 'HH24:MI') as dismissal_time, ${HANDED_BY}
         ${MINE('left join users pu on pu.id = sd.picked_up_by', 'shuttle')} and s.needs_shuttle
        order by dismissal_time nulls last, s.day_school nulls last, s.name, s.id`,
      [user.schoolId, user.id],
    );
    return { day: await this.todayOf(user, rows[0]?.day), groups: groupBy(rows) };
  }

  async tutor(user: SessionUser): Promise<TutorTask> {
    const rows: Array<TutorTaskRow & { day: string }> = await this.db.query(
      `${TODAY}
       select to_char(d.day, 'YYYY-MM-DD') as day, s.id, s.name, s.grade, ${CLASS_JSON} as care_class, s.tutoring_type,
              ${BOARD} as state, sd.tutor_started_at, sd.tutor_ended_at, ${HANDED_BY}
         ${MINE('', 'tutor')} and s.tutoring_type is not null
        order by cc.name, cc.id, s.name, s.id`,
      [user.schoolId, user.id],
    );
    return { day: await this.todayOf(user, rows[0]?.day), list: rows.map(({ day: _, ...r }) => r) };
  }

  async tutorInfo(user: SessionUser, studentId: number): Promise<TutorTaskInfo> {
    const [row]: Array<
      Omit<TutorTaskInfo, 'student' | 'events'> & {
        id: number;
        name: string;
        grade: string | null;
        class_name: string | null;
        care_class: TutorTaskInfo['student']['care_class'];
      }
    > = await this.db.query(
      `${TODAY}
         select to_char(d.day, 'YYYY-MM-DD') as day, s.id, s.name, s.grade, s.class_name, ${CLASS_JSON} as care_class, s.tutoring_type,
                ${BOARD} as state, sd.tutor_started_at, sd.tutor_started_by, ts.name as tutor_started_by_name,
                sd.tutor_ended_at, sd.tutor_ended_by, te.name as tutor_ended_by_name
           ${MINE('left join users ts on ts.id = sd.tutor_started_by left join users te on te.id = sd.tutor_ended_by', 'tutor')}
            and s.id = $3`,
      [user.schoolId, user.id, studentId],
    );
    if (!row) throw new AppError('leave.student_not_found');
    const events: TutorTaskInfo['events'] = await this.db.query(
      `select e.type, e.occurred_at as at, e.actor_id as actor, u.name as actor_name, e.payload
         from flow_events e left join users u on u.id = e.actor_id
        where e.student_id = $1 and e.school_id = $2 and e.day = $3
        order by e.version`,
      [studentId, user.schoolId, row.day],
    );
    const homework: TutorTaskInfo['homework'] = await this.db.query(
      `select ${HOMEWORK_COLUMNS}, ${SUBMISSION_COLUMNS}
         from homework_submissions hs join homeworks h on h.id = hs.homework_id ${HOMEWORK_JOINS} ${SUBMISSION_JOINS}
        where hs.student_id = $1 and h.school_id = $2 and h.set_day <= $3::date and h.due_day >= $3::date
        order by h.due_day, h.id limit ${DAY_HOMEWORK_MAX}`,
      [studentId, user.schoolId, row.day],
    );
    const { id, name, grade, class_name, care_class, ...rest } = row;
    return { ...rest, student: { id, name, grade, class_name, care_class }, events, homework };
  }

  /**
   * Hands today's shuttle or tutoring task of a student on the caller's list of that duty to another on-job teacher
   * with the duty (the teacherShuttleTeacher / teacherTutorTeacher pickers): a pick-up before the student is picked
   * up, tutoring before it ended. A second hand-over of the same task replaces the first.
   */
  async handOver(user: SessionUser, input: TeacherHandOverStudentInput): Promise<TeacherHandOverResult> {
    return this.db.transaction(async (em) => {
      const [st]: Array<{ day: string; state: BoardStateName; needs_shuttle: boolean; tutoring_type: string | null; tutor_ended_at: string | null }> =
        await em.query(
          `${TODAY}
         select to_char(d.day, 'YYYY-MM-DD') as day, ${BOARD} as state, s.needs_shuttle, s.tutoring_type, sd.tutor_ended_at
           ${MINE('', input.duty)} and s.id = $3
           for update of s`,
          [user.schoolId, user.id, input.student_id],
        );
      if (!st || (input.duty === 'shuttle' ? !st.needs_shuttle : st.tutoring_type === null)) throw new AppError('flow.handover_not_yours');
      const open =
        input.duty === 'shuttle'
          ? st.state === 'expected'
          : (st.state === 'expected' || st.state === 'picked_up' || st.state === 'in_centre') && st.tutor_ended_at === null;
      if (!open) throw new AppError('flow.handover_too_late');
      const [to]: Array<{ name: string }> = await em.query(
        `select u.name from users u
          where u.id = $1 and u.school_id = $2 and u.id <> $3 and u.deleted_at is null and u.status = 1 and u.job_status = ${JobStatus.OnJob}
            and u.role in (${Role.Teacher}, ${Role.HeadTeacher}) and $4 = any(u.duties)
          for share`,
        [input.teacher_id, user.schoolId, user.id, input.duty],
      );
      if (!to) throw new AppError('flow.handover_teacher_invalid');
      await em.query(
        `insert into task_handovers (school_id, student_id, day, duty, from_teacher_id, to_teacher_id) values ($1, $2, $3::date, $4, $5, $6)
         on conflict (student_id, day, duty) do update set from_teacher_id = excluded.from_teacher_id, to_teacher_id = excluded.to_teacher_id, created_at = now()`,
        [user.schoolId, input.student_id, st.day, input.duty, user.id, input.teacher_id],
      );
      return { student_id: input.student_id, duty: input.duty, day: st.day, teacher_id: input.teacher_id, teacher_name: to.name };
    });
  }

  /** The school's date when no row carried it. */
  private async todayOf(user: SessionUser, known?: string): Promise<string> {
    if (known) return known;
    return schoolToday(this.db, user.schoolId!);
  }
}

function groupBy(rows: Array<ShuttleTaskStudent & { day: string; day_school: string | null; dismissal_time: string | null }>): ShuttleTaskGroup[] {
  const groups = new Map<string, ShuttleTaskGroup>();
  for (const { day: _, day_school, dismissal_time, ...student } of rows) {
    const key = `${dismissal_time ?? ''}\u0000${day_school ?? ''}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { day_school, dismissal_time, students: [] }));
    g.students.push(student);
  }
  return [...groups.values()];
}
