import { Controller } from '@nestjs/common';
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
import { Action } from '../../core/http/action.decorator';
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

  @Action('POST', 'issueHomeWork')
  issue(@Input() input: IssueHomeWorkInput, @CurrentUser() user: SessionUser) {
    return this.issues.issue(user, input);
  }

  @Action('GET', 'teachingTaskHomeWorks')
  teachingTask(@Input() q: TeachingTaskHomeWorksQuery, @CurrentUser() user: SessionUser) {
    return this.lists.teachingTask(user, q);
  }

  @Action('GET', 'teachingTaskWorkInfo')
  teachingTaskInfo(@Input() q: HomeWorkInfoQuery, @CurrentUser() user: SessionUser) {
    return this.lists.info(user, q);
  }

  @Action('GET', 'wantuoStudentHomeWork')
  studentDay(@Input() q: StudentHomeWorkQuery, @CurrentUser() user: SessionUser) {
    return this.lists.studentDay(user, q);
  }

  @Action('GET', 'wantuoStudentWorkInfo')
  studentWork(@Input() q: StudentWorkInfoQuery, @CurrentUser() user: SessionUser) {
    return this.lists.studentWork(user, q);
  }

  @Action('GET', 'classHomeWorks')
  list(@Input() q: ClassHomeWorksQuery, @CurrentUser() user: SessionUser) {
    return this.lists.list(user, q);
  }

  @Action('GET', 'homeWorkInfo')
  info(@Input() q: HomeWorkInfoQuery, @CurrentUser() user: SessionUser) {
    return this.lists.info(user, q);
  }

  @Action('POST', 'markHomeWork')
  mark(@Input() input: MarkHomeWorkInput, @CurrentUser() user: SessionUser) {
    return this.marking.mark(user, input);
  }

  @Action('POST', 'parentDoneHomeWork')
  parentDone(@Input() input: ParentDoneHomeWorkInput, @CurrentUser() user: SessionUser) {
    return this.marking.parentDone(user, input);
  }
}
