import { Controller, Get, Post } from '@nestjs/common';
import {
  ShuttleTaskInput,
  TeacherClockingInCountInput,
  TeacherClockInput,
  TeacherHandOverStudentInput,
  TeacherTodayTaskInput,
  TutorTaskInfoInput,
  TutorTaskInput,
} from '@wantuo/shared';
import { CurrentUser } from '../../core/auth/current-user.decorator';
import { Input } from '../../core/http/input.decorator';
import type { SessionUser } from '../../core/http/request-context';
import { ClockService } from './clock.service';
import { TasksService } from './tasks.service';

@Controller('api/index')
export class TasksController {
  constructor(
    private readonly tasks: TasksService,
    private readonly clock: ClockService,
  ) {}

  @Get('teacherTodayTask')
  today(@Input(TeacherTodayTaskInput) _: object, @CurrentUser() user: SessionUser) {
    return this.tasks.today(user);
  }

  @Get('shuttleTask')
  shuttle(@Input(ShuttleTaskInput) _: object, @CurrentUser() user: SessionUser) {
    return this.tasks.shuttle(user);
  }

  @Get('tutorTask')
  tutor(@Input(TutorTaskInput) _: object, @CurrentUser() user: SessionUser) {
    return this.tasks.tutor(user);
  }

  @Get('tutorTaskInfo')
  tutorInfo(@Input(TutorTaskInfoInput) q: TutorTaskInfoInput, @CurrentUser() user: SessionUser) {
    return this.tasks.tutorInfo(user, q.student_id);
  }

  @Post('teacherHandOverStudent')
  handOver(@Input(TeacherHandOverStudentInput) input: TeacherHandOverStudentInput, @CurrentUser() user: SessionUser) {
    return this.tasks.handOver(user, input);
  }

  @Post('teacherClockIn')
  clockIn(@Input(TeacherClockInput) _: object, @CurrentUser() user: SessionUser) {
    return this.clock.clockIn(user);
  }

  @Post('teacherClockOut')
  clockOut(@Input(TeacherClockInput) _: object, @CurrentUser() user: SessionUser) {
    return this.clock.clockOut(user);
  }

  @Get('teacherClockingInCount')
  count(@Input(TeacherClockingInCountInput) q: TeacherClockingInCountInput, @CurrentUser() user: SessionUser) {
    return this.clock.count(user, q);
  }
}
