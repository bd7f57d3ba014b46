import { Controller } from '@nestjs/common';
import { TeacherClockingInCountInput, TeacherHandOverStudentInput, TutorTaskInfoInput } from '@wantuo/shared';
import { SchoolUser, type SchoolCaller } from '../../core/auth/current-user.decorator';
import { Action } from '../../core/http/action.decorator';
import { Input } from '../../core/http/input.decorator';
import { ClockService } from './clock.service';
import { TasksService } from './tasks.service';

@Controller('api/index')
export class TasksController {
  constructor(
    private readonly tasks: TasksService,
    private readonly clock: ClockService,
  ) {}

  @Action('GET', 'teacherTodayTask')
  today(@Input() _: unknown, @SchoolUser() user: SchoolCaller) {
    return this.tasks.today(user);
  }

  @Action('GET', 'shuttleTask')
  shuttle(@Input() _: unknown, @SchoolUser() user: SchoolCaller) {
    return this.tasks.shuttle(user);
  }

  @Action('GET', 'tutorTask')
  tutor(@Input() _: unknown, @SchoolUser() user: SchoolCaller) {
    return this.tasks.tutor(user);
  }

  @Action('GET', 'tutorTaskInfo')
  tutorInfo(@Input() q: TutorTaskInfoInput, @SchoolUser() user: SchoolCaller) {
    return this.tasks.tutorInfo(user, q.student_id);
  }

  @Action('POST', 'teacherHandOverStudent')
  handOver(@Input() input: TeacherHandOverStudentInput, @SchoolUser() user: SchoolCaller) {
    return this.tasks.handOver(user, input);
  }

  @Action('POST', 'teacherClockIn')
  clockIn(@Input() _: unknown, @SchoolUser() user: SchoolCaller) {
    return this.clock.clockIn(user);
  }

  @Action('POST', 'teacherClockOut')
  clockOut(@Input() _: unknown, @SchoolUser() user: SchoolCaller) {
    return this.clock.clockOut(user);
  }

  @Action('GET', 'teacherClockingInCount')
  count(@Input() q: TeacherClockingInCountInput, @SchoolUser() user: SchoolCaller) {
    return this.clock.count(user, q);
  }
}
