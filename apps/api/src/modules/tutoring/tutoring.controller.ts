import { Controller } from '@nestjs/common';
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
import { SchoolUser, type SchoolCaller } from '../../core/auth/current-user.decorator';
import { Action } from '../../core/http/action.decorator';
import { Input } from '../../core/http/input.decorator';
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

  @Action('GET', 'tutorialType')
  types(@Input() q: TutorialTypeQuery, @SchoolUser() user: SchoolCaller) {
    return this.settings.types(user, q);
  }

  @Action('GET', 'tutorialSettingList')
  settingList(@Input() q: TutorialSettingListQuery, @SchoolUser() user: SchoolCaller) {
    return this.settings.settings(user, q);
  }

  @Action('POST', 'tutorialSetting')
  saveSetting(@Input() input: TutorialSettingInput, @SchoolUser() user: SchoolCaller) {
    return this.settings.save(user, input);
  }

  @Action('POST', 'addTutorialSchoolCare')
  add(@Input() input: AddTutorialSchoolCareInput, @SchoolUser() user: SchoolCaller) {
    return this.classes.add(user, input);
  }

  @Action('GET', 'tutorialInfo')
  info(@Input() q: TutorialInfoQuery, @SchoolUser() user: SchoolCaller) {
    return this.classes.info(user, q.id);
  }

  @Action('GET', 'tutorialList')
  list(@Input() q: TutorialListQuery, @SchoolUser() user: SchoolCaller) {
    return this.classes.list(user, q);
  }

  @Action('GET', 'tutorialScheduling')
  scheduling(@Input() q: TutorialSchedulingQuery, @SchoolUser() user: SchoolCaller) {
    return this.classes.sessions(user, q);
  }

  @Action('POST', 'tutorialChangeScheduling')
  move(@Input() input: TutorialChangeSchedulingInput, @SchoolUser() user: SchoolCaller) {
    return this.classes.move(user, input);
  }

  @Action('POST', 'startAndEndTutorialClass')
  setStatus(@Input() input: TutorialClassStatusInput, @SchoolUser() user: SchoolCaller) {
    return this.classes.setStatus(user, input);
  }

  @Action('POST', 'delTutorialClass')
  remove(@Input() input: DelTutorialClassInput, @SchoolUser() user: SchoolCaller) {
    return this.classes.remove(user, input);
  }

  @Action('POST', 'cancelTutorialSession')
  cancelSession(@Input() input: CancelTutorialSessionInput, @SchoolUser() user: SchoolCaller) {
    return this.classes.cancelSession(user, input);
  }

  @Action('GET', 'tutorialStudent')
  memberList(@Input() q: TutorialStudentQuery, @SchoolUser() user: SchoolCaller) {
    return this.students.students(user, q);
  }

  @Action('GET', 'tutorialStudentInfo')
  studentInfo(@Input() q: TutorialStudentInfoQuery, @SchoolUser() user: SchoolCaller) {
    return this.students.info(user, q);
  }

  @Action('GET', 'selectTutorialStudent')
  selectable(@Input() q: SelectTutorialStudentQuery, @SchoolUser() user: SchoolCaller) {
    return this.students.selectable(user, q);
  }

  @Action('POST', 'addTutorialStudent')
  addStudents(@Input() input: AddTutorialStudentInput, @SchoolUser() user: SchoolCaller) {
    return this.students.add(user, input);
  }

  @Action('POST', 'delTutorialStudent')
  delStudent(@Input() input: DelTutorialStudentInput, @SchoolUser() user: SchoolCaller) {
    return this.students.del(user, input);
  }
}
