import { Controller, Res, UploadedFile } from '@nestjs/common';
import {
  AddStudentInput,
  CheckStudentInput,
  DelStudentInput,
  OverallCommentInput,
  SaveStudentGuardiansInput,
  SchoolGradeInput,
  StudentCommentsInput,
  StudentExportInput,
  StudentGuardianLogInput,
  StudentImportInput,
  StudentImportTemplateInput,
  StudentInfoInput,
  StudentListInput,
  StudentSettingInfoInput,
  StudentSettingInput,
  TeacherStudentGrowthInput,
  TeacherStudentInfoInput,
  TeacherStudentListInput,
} from '@wantuo/shared';
import type { Response } from 'express';
import { Caller, SchoolUser, type CallerInfo, type SchoolCaller } from '../../core/auth/current-user.decorator';
import { Action } from '../../core/http/action.decorator';
import { Input } from '../../core/http/input.decorator';
import { Multipart } from '../../core/http/multipart';
import { sendFile } from '../../core/http/send-file';
import type { IncomingFile } from '../site/files.service';
import { StudentGuardiansService } from './student-guardians.service';
import { StudentsIoService } from './students-io.service';
import { StudentGrowthService } from './student-growth.service';
import { StudentsService } from './students.service';

@Controller('api/index')
export class StudentsController {
  constructor(
    private readonly students: StudentsService,
    private readonly growthRecord: StudentGrowthService,
    private readonly io: StudentsIoService,
    private readonly guardians: StudentGuardiansService,
  ) {}

  @Action('GET', 'studentList')
  list(@Input() q: StudentListInput, @SchoolUser() user: SchoolCaller) {
    return this.students.list(user, q);
  }

  @Action('GET', 'studentInfo')
  info(@Input() q: StudentInfoInput, @SchoolUser() user: SchoolCaller) {
    return this.students.info(user, q.id);
  }

  @Action('GET', 'checkStudent')
  check(@Input() q: CheckStudentInput, @SchoolUser() user: SchoolCaller) {
    return this.students.check(user, q);
  }

  @Action('POST', 'addStudent')
  add(@Input() input: AddStudentInput, @SchoolUser() user: SchoolCaller) {
    return this.students.add(user, input);
  }

  @Action('POST', 'delStudent')
  del(@Input() input: DelStudentInput, @SchoolUser() user: SchoolCaller) {
    return this.students.archive(user, input);
  }

  @Action('POST', 'saveStudentGuardians')
  saveGuardians(@Input() input: SaveStudentGuardiansInput, @SchoolUser() user: SchoolCaller) {
    return this.guardians.save(user, input);
  }

  @Action('GET', 'studentGuardianLog')
  guardianLog(@Input() q: StudentGuardianLogInput, @SchoolUser() user: SchoolCaller) {
    return this.guardians.log(user, q);
  }

  @Action('GET', 'schoolGrade')
  grades(@Input() _: SchoolGradeInput, @SchoolUser() user: SchoolCaller) {
    return this.students.grades(user);
  }

  @Action('GET', 'studentSettingInfo')
  settingInfo(@Input() q: StudentSettingInfoInput, @SchoolUser() user: SchoolCaller) {
    return this.students.settingInfo(user, q.id);
  }

  @Action('POST', 'studentSetting')
  setting(@Input() input: StudentSettingInput, @SchoolUser() user: SchoolCaller) {
    return this.students.saveSetting(user, input);
  }

  @Action('GET', 'teacherStudentList')
  teacherList(@Input() q: TeacherStudentListInput, @SchoolUser() user: SchoolCaller) {
    return this.students.teacherList(user, q);
  }

  @Action('GET', 'teacherStudentInfo')
  teacherInfo(@Input() q: TeacherStudentInfoInput, @SchoolUser() user: SchoolCaller) {
    return this.students.teacherInfo(user, q.id);
  }

  @Action('GET', 'teacherStudentGrowth')
  growth(@Input() q: TeacherStudentGrowthInput, @SchoolUser() user: SchoolCaller) {
    return this.growthRecord.growth(user, q);
  }

  @Action('GET', 'parentChildren')
  parentChildren(@Input() _: unknown, @SchoolUser() user: SchoolCaller) {
    return this.students.children(user);
  }

  @Action('GET', 'studentComments')
  comments(@Input() q: StudentCommentsInput, @SchoolUser() user: SchoolCaller) {
    return this.growthRecord.comments(user, q);
  }

  @Action('POST', 'overallComment')
  overallComment(@Input() input: OverallCommentInput, @SchoolUser() user: SchoolCaller) {
    return this.growthRecord.overallComment(user, input);
  }

  @Action('GET', 'studentImportTemplate')
  async template(@Input() q: StudentImportTemplateInput, @Res() res: Response) {
    sendFile(res, await this.io.template(q.format));
  }

  @Action('POST', 'studentImport')
  @Multipart('file')
  import(
    @Input() input: StudentImportInput,
    @UploadedFile() file: IncomingFile | undefined,
    @SchoolUser() user: SchoolCaller,
    @Caller() caller: CallerInfo,
  ) {
    return this.io.import(user, file, input.dry_run === '1', caller.lang);
  }

  @Action('GET', 'studentExport')
  async export(@Input() q: StudentExportInput, @SchoolUser() user: SchoolCaller, @Res() res: Response) {
    sendFile(res, await this.io.export(user, q));
  }
}
