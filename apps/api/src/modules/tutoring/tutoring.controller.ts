import { Controller, Get, Post } from '@nestjs/common';
import {
  AddTutorialSchoolCareInput,
  AddTutorialStudentInput,
  CancelTutorialSessionInput,
  DelTutorialClassInput,
  DelTutorialStudentInput,
  SelectTutorialStudentQuery,
  TutorialChangeSchedulingInput,
  TutorialClassStatusInput,
  TutorialInfoQuery,
  TutorialListQuery,
  TutorialSchedulingQuery,
  TutorialSettingInput,
  TutorialSettingListQuery,
  TutorialStudentInfoQuery,
  TutorialStudentQuery,
  TutorialTypeQuery,
} from '@wantuo/shared';
import { CurrentUser } from '../../core/auth/current-user.decorator';
import { Input } from '../../core/http/input.decorator';
import type { SessionUser } from '../../core/http/request-context';
import { TutoringClassesService } from './classes.service';
import { TutoringSettingsService } from './settings.service';
import { TutoringStudentsService } from './students.service';

/** Home tutoring: types and settings, tutoring classes with their sessions, students, moves (module `tutoring`, issue 13). */
@Controller('api/index')
export class TutoringController {
  constructor(
    private readonly settings: TutoringSettingsService,
    private readonly classes: TutoringClassesService,
    private readonly students: TutoringStudentsService,
  ) {}

  @Get('tutorialType')
  types(@Input(TutorialTypeQuery) q: TutorialTypeQuery, @CurrentUser() user: SessionUser) {
    return this.settings.types(user, q);
  }

  @Get('tutorialSettingList')
  settingList(@Input(TutorialSettingListQuery) q: TutorialSettingListQuery, @CurrentUser() user: SessionUser) {
    return this.settings.settings(user, q);
  }

  @Post('tutorialSetting')
  saveSetting(@Input(TutorialSettingInput) input: TutorialSettingInput, @CurrentUser() user: SessionUser) {
    return this.settings.save(user, input);
  }

  @Post('addTutorialSchoolCare')
  add(@Input(AddTutorialSchoolCareInput) input: AddTutorialSchoolCareInput, @CurrentUser() user: SessionUser) {
    return this.classes.add(user, input);
  }

  @Get('tutorialInfo')
  info(@Input(TutorialInfoQuery) q: TutorialInfoQuery, @CurrentUser() user: SessionUser) {
    return this.classes.info(user, q.id);
  }

  @Get('tutorialList')
  list(@Input(TutorialListQuery) q: TutorialListQuery, @CurrentUser() user: SessionUser) {
    return this.classes.list(user, q);
  }

  @Get('tutorialScheduling')
  scheduling(@Input(TutorialSchedulingQuery) q: TutorialSchedulingQuery, @CurrentUser() user: SessionUser) {
    return this.classes.sessions(user, q);
  }

  @Post('tutorialChangeScheduling')
  move(@Input(TutorialChangeSchedulingInput) input: TutorialChangeSchedulingInput, @CurrentUser() user: SessionUser) {
    return this.classes.move(user, input);
  }

  @Post('startAndEndTutorialClass')
  setStatus(@Input(TutorialClassStatusInput) input: TutorialClassStatusInput, @CurrentUser() user: SessionUser) {
    return this.classes.setStatus(user, input);
  }

  @Post('delTutorialClass')
  remove(@Input(DelTutorialClassInput) input: DelTutorialClassInput, @CurrentUser() user: SessionUser) {
    return this.classes.remove(user, input);
  }

  @Post('cancelTutorialSession')
  cancelSession(@Input(CancelTutorialSessionInput) input: CancelTutorialSessionInput, @CurrentUser() user: SessionUser) {
    return this.classes.cancelSession(user, input);
  }

  @Get('tutorialStudent')
  memberList(@Input(TutorialStudentQuery) q: TutorialStudentQuery, @CurrentUser() user: SessionUser) {
    return this.students.students(user, q);
  }

  @Get('tutorialStudentInfo')
  studentInfo(@Input(TutorialStudentInfoQuery) q: TutorialStudentInfoQuery, @CurrentUser() user: SessionUser) {
    return this.students.info(user, q);
  }

  @Get('selectTutorialStudent')
  selectable(@Input(SelectTutorialStudentQuery) q: SelectTutorialStudentQuery, @CurrentUser() user: SessionUser) {
    return this.students.selectable(user, q);
  }

  @Post('addTutorialStudent')
  addStudents(@Input(AddTutorialStudentInput) input: AddTutorialStudentInput, @CurrentUser() user: SessionUser) {
    return this.students.add(user, input);
  }

  @Post('delTutorialStudent')
  delStudent(@Input(DelTutorialStudentInput) input: DelTutorialStudentInput, @CurrentUser() user: SessionUser) {
    return this.students.del(user, input);
  }
}
