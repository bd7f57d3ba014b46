import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type {
  ShuttleTask,
  ShuttleTaskGroup,
  TeacherHandOverResult,
  TeacherHandOverStudentInput,
  TeacherTodayTask,
  TutorTask,
  TutorTaskInfo,
} from '@wantuo/shared';
import { DataSource } from 'typeorm';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import type { Sendable } from '../../core/database/kysely';
import { AppError } from '../../core/http/app-error';
import { ClockService } from './clock.service';
import { TasksRepository } from './tasks.repository';

/** At most this many homework of one day in a tutoring task (as the homework module's day list). */
const DAY_HOMEWORK_MAX = 100;

/** A shuttle row of the repository (its day, day school and dismissal time besides the student). */
type ShuttleRow = Awaited<ReturnType<TasksRepository['shuttle']>>[number];

/** The teachers' lists of the day, read from the student_days projection. */
@Injectable()
export class TasksService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repo: TasksRepository,
    private readonly clock: ClockService,
  ) {}

  /**
   * The caller's students today: counts per board state, what is left to do, the caller's classes and own clock record.
   * The pick-ups (to_pick_up) are those of the caller's shuttleTask list, the tutoring (to_tutor, tutoring) those of the
   * tutorTask list: a task handed over today (task_handovers) counts for the teacher it was handed to only. The other
   * counts are over the caller's own students and the students handed to the caller today. One statement.
   */
  async today(user: SchoolCaller): Promise<Sendable<TeacherTodayTask>> {
    const counts = await this.repo.todayCounts(user.schoolId, user.id);
    const classes = await this.repo.myClasses(user.schoolId, user.id);
    const clock = await this.clock.today(user);
    const { day, total, expected, picked_up, in_centre, left, on_leave, to_pick_up, to_feed, to_tutor, tutoring, to_hand_over, students } = counts;
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
  async shuttle(user: SchoolCaller): Promise<Sendable<ShuttleTask>> {
    const rows = await this.repo.shuttle(user.schoolId, user.id);
    return { day: await this.todayOf(user, rows[0]?.day), groups: groupBy(rows) };
  }

  async tutor(user: SchoolCaller): Promise<Sendable<TutorTask>> {
    const rows = await this.repo.tutor(user.schoolId, user.id);
    return { day: await this.todayOf(user, rows[0]?.day), list: rows.map(({ day: _, ...r }) => r) };
  }

  async tutorInfo(user: SchoolCaller, studentId: number): Promise<Sendable<TutorTaskInfo>> {
    const row = await this.repo.tutorStudent(user.schoolId, user.id, studentId);
    if (!row) throw new AppError('leave.student_not_found');
    const events = await this.repo.dayEvents(user.schoolId, studentId, row.day);
    const homework = await this.repo.dayHomework(user.schoolId, studentId, row.day, DAY_HOMEWORK_MAX);
    const { id, name, grade, class_name, care_class, ...rest } = row;
    return { ...rest, student: { id, name, grade, class_name, care_class }, events, homework };
  }

  /**
   * Hands today's shuttle or tutoring task of a student on the caller's list of that duty to another on-job teacher
   * with the duty (the teacherShuttleTeacher / teacherTutorTeacher pickers): a pick-up before the student is picked
   * up, tutoring before it ended. A second hand-over of the same task replaces the first.
   */
  async handOver(user: SchoolCaller, input: TeacherHandOverStudentInput): Promise<TeacherHandOverResult> {
    return this.db.transaction(async (em) => {
      const st = await this.repo.lockMine(em, user.schoolId, user.id, input.duty, input.student_id);
      if (!st || (input.duty === 'shuttle' ? !st.needs_shuttle : st.tutoring_type === null)) throw new AppError('flow.handover_not_yours');
      const open =
        input.duty === 'shuttle'
          ? st.state === 'expected'
          : (st.state === 'expected' || st.state === 'picked_up' || st.state === 'in_centre') && st.tutor_ended_at === null;
      if (!open) throw new AppError('flow.handover_too_late');
      const to = await this.repo.handOverTeacher(em, user.schoolId, user.id, input.teacher_id, input.duty);
      if (!to) throw new AppError('flow.handover_teacher_invalid');
      await this.repo.handOver(em, {
        schoolId: user.schoolId,
        studentId: input.student_id,
        day: st.day,
        duty: input.duty,
        from: user.id,
        to: input.teacher_id,
      });
      return { student_id: input.student_id, duty: input.duty, day: st.day, teacher_id: input.teacher_id, teacher_name: to.name };
    });
  }

  /** The school's date when no row carried it. */
  private async todayOf(user: SchoolCaller, known?: string): Promise<string> {
    if (known) return known;
    return this.repo.today(user.schoolId);
  }
}

/** The shuttle rows grouped by dismissal time and day school, in the rows' order. */
function groupBy(rows: ShuttleRow[]): Array<Sendable<ShuttleTaskGroup>> {
  const groups = new Map<string, Sendable<ShuttleTaskGroup>>();
  for (const { day: _, day_school, dismissal_time, ...student } of rows) {
    const key = `${dismissal_time ?? ''}\u0000${day_school ?? ''}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { day_school, dismissal_time, students: [] }));
    g.students.push(student);
  }
  return [...groups.values()];
}
