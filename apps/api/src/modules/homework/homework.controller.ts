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
import { SchoolUser, type SchoolCaller } from '../../core/auth/current-user.decorator';
import { Action } from '../../core/http/action.decorator';
import { Input } from '../../core/http/input.decorator';
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
  issue(@Input() input: IssueHomeWorkInput, @SchoolUser() user: SchoolCaller) {
    return this.issues.issue(user, input);
  }

  @Action('GET', 'teachingTaskHomeWorks')
  teachingTask(@Input() q: TeachingTaskHomeWorksQuery, @SchoolUser() user: SchoolCaller) {
    return this.lists.teachingTask(user, q);
  }

  @Action('GET', 'teachingTaskWorkInfo')
  teachingTaskInfo(@Input() q: HomeWorkInfoQuery, @SchoolUser() user: SchoolCaller) {
    return this.lists.info(user, q);
  }

  @Action('GET', 'wantuoStudentHomeWork')
  studentDay(@Input() q: StudentHomeWorkQuery, @SchoolUser() user: SchoolCaller) {
    return this.lists.studentDay(user, q);
  }

  @Action('GET', 'wantuoStudentWorkInfo')
  studentWork(@Input() q: StudentWorkInfoQuery, @SchoolUser() user: SchoolCaller) {
    return this.lists.studentWork(user, q);
  }

  @Action('GET', 'classHomeWorks')
  list(@Input() q: ClassHomeWorksQuery, @SchoolUser() user: SchoolCaller) {
    return this.lists.list(user, q);
  }

  @Action('GET', 'homeWorkInfo')
  info(@Input() q: HomeWorkInfoQuery, @SchoolUser() user: SchoolCaller) {
    return this.lists.info(user, q);
  }

  @Action('POST', 'markHomeWork')
  mark(@Input() input: MarkHomeWorkInput, @SchoolUser() user: SchoolCaller) {
    return this.marking.mark(user, input);
  }

  @Action('POST', 'parentDoneHomeWork')
  parentDone(@Input() input: ParentDoneHomeWorkInput, @SchoolUser() user: SchoolCaller) {
    return this.marking.parentDone(user, input);
  }
}
