import { Controller, Get, Post } from '@nestjs/common';
import {
  ClassHomeWorksQuery,
  HomeWorkInfoQuery,
  IssueHomeWorkInput,
  MarkHomeWorkInput,
  ParentDoneHomeWorkInput,
  StudentHomeWorkQuery,
  StudentWorkInfoQuery,
  TeachingTaskHomeWorksQuery,
} from '@wantuo/shared';
import { CurrentUser } from '../../core/auth/current-user.decorator';
import { Input } from '../../core/http/input.decorator';
import type { SessionUser } from '../../core/http/request-context';
import { IssueService } from './issue.service';
import { ListsService } from './lists.service';
import { MarkingService } from './marking.service';

/** Homework: set for a care or teaching class, marked during tutoring and at home (module `homework`, issue 14). */
@Controller('api/index')
export class HomeworkController {
  constructor(
    private readonly issues: IssueService,
    private readonly lists: ListsService,
    private readonly marking: MarkingService,
  ) {}

  @Post('issueHomeWork')
  issue(@Input(IssueHomeWorkInput) input: IssueHomeWorkInput, @CurrentUser() user: SessionUser) {
    return this.issues.issue(user, input);
  }

  @Get('teachingTaskHomeWorks')
  teachingTask(@Input(TeachingTaskHomeWorksQuery) q: TeachingTaskHomeWorksQuery, @CurrentUser() user: SessionUser) {
    return this.lists.teachingTask(user, q);
  }

  @Get('teachingTaskWorkInfo')
  teachingTaskInfo(@Input(HomeWorkInfoQuery) q: HomeWorkInfoQuery, @CurrentUser() user: SessionUser) {
    return this.lists.info(user, q);
  }

  @Get('wantuoStudentHomeWork')
  studentDay(@Input(StudentHomeWorkQuery) q: StudentHomeWorkQuery, @CurrentUser() user: SessionUser) {
    return this.lists.studentDay(user, q);
  }

  @Get('wantuoStudentWorkInfo')
  studentWork(@Input(StudentWorkInfoQuery) q: StudentWorkInfoQuery, @CurrentUser() user: SessionUser) {
    return this.lists.studentWork(user, q);
  }

  @Get('classHomeWorks')
  list(@Input(ClassHomeWorksQuery) q: ClassHomeWorksQuery, @CurrentUser() user: SessionUser) {
    return this.lists.list(user, q);
  }

  @Get('homeWorkInfo')
  info(@Input(HomeWorkInfoQuery) q: HomeWorkInfoQuery, @CurrentUser() user: SessionUser) {
    return this.lists.info(user, q);
  }

  @Post('markHomeWork')
  mark(@Input(MarkHomeWorkInput) input: MarkHomeWorkInput, @CurrentUser() user: SessionUser) {
    return this.marking.mark(user, input);
  }

  @Post('parentDoneHomeWork')
  parentDone(@Input(ParentDoneHomeWorkInput) input: ParentDoneHomeWorkInput, @CurrentUser() user: SessionUser) {
    return this.marking.parentDone(user, input);
  }
}
