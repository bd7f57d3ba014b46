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
import { Caller, CurrentUser, type CallerInfo } from '../../core/auth/current-user.decorator';
import { Action } from '../../core/http/action.decorator';
import { Input } from '../../core/http/input.decorator';
import { Multipart } from '../../core/http/multipart';
import { sendFile } from '../../core/http/send-file';
import type { SessionUser } from '../../core/http/request-context';
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
  list(@Input() q: StudentListInput, @CurrentUser() user: SessionUser) {
    return this.students.list(user, q);
  }

  @Action('GET', 'studentInfo')
  info(@Input() q: StudentInfoInput, @CurrentUser() user: SessionUser) {
    return this.students.info(user, q.id);
  }

  @Action('GET', 'checkStudent')
  check(@Input() q: CheckStudentInput, @CurrentUser() user: SessionUser) {
    return this.students.check(user, q);
  }

  @Action('POST', 'addStudent')
  add(@Input() input: AddStudentInput, @CurrentUser() user: SessionUser) {
    return this.students.add(user, input);
  }

  @Action('POST', 'delStudent')
  del(@Input() input: DelStudentInput, @CurrentUser() user: SessionUser) {
    return this.students.archive(user, input);
  }

  @Action('POST', 'saveStudentGuardians')
  saveGuardians(@Input() input: SaveStudentGuardiansInput, @CurrentUser() user: SessionUser) {
    return this.guardians.save(user, input);
  }

  @Action('GET', 'studentGuardianLog')
  guardianLog(@Input() q: StudentGuardianLogInput, @CurrentUser() user: SessionUser) {
    return this.guardians.log(user, q);
  }

  @Action('GET', 'schoolGrade')
  grades(@Input() _: SchoolGradeInput, @CurrentUser() user: SessionUser) {
    return this.students.grades(user);
  }

  @Action('GET', 'studentSettingInfo')
  settingInfo(@Input() q: StudentSettingInfoInput, @CurrentUser() user: SessionUser) {
    return this.students.settingInfo(user, q.id);
  }

  @Action('POST', 'studentSetting')
  setting(@Input() input: StudentSettingInput, @CurrentUser() user: SessionUser) {
    return this.students.saveSetting(user, input);
  }

  @Action('GET', 'teacherStudentList')
  teacherList(@Input() q: TeacherStudentListInput, @CurrentUser() user: SessionUser) {
    return this.students.teacherList(user, q);
  }

  @Action('GET', 'teacherStudentInfo')
  teacherInfo(@Input() q: TeacherStudentInfoInput, @CurrentUser() user: SessionUser) {
    return this.students.teacherInfo(user, q.id);
  }

  @Action('GET', 'teacherStudentGrowth')
  growth(@Input() q: TeacherStudentGrowthInput, @CurrentUser() user: SessionUser) {
    return this.growthRecord.growth(user, q);
  }

  @Action('GET', 'parentChildren')
  parentChildren(@Input() _: unknown, @CurrentUser() user: SessionUser) {
    return this.students.children(user);
  }

  @Action('GET', 'studentComments')
  comments(@Input() q: StudentCommentsInput, @CurrentUser() user: SessionUser) {
    return this.growthRecord.comments(user, q);
  }

  @Action('POST', 'overallComment')
  overallComment(@Input() input: OverallCommentInput, @CurrentUser() user: SessionUser) {
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
    @CurrentUser() user: SessionUser,
    @Caller() caller: CallerInfo,
  ) {
    return this.io.import(user, file, input.dry_run === '1', caller.lang);
  }

  @Action('GET', 'studentExport')
  async export(@Input() q: StudentExportInput, @CurrentUser() user: SessionUser, @Res() res: Response) {
    sendFile(res, await this.io.export(user, q));
  }
}
