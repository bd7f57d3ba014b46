import { Controller, Get, Post, Res, UploadedFile } from '@nestjs/common';
import {
  EmptyInput,
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
import { Input } from '../../core/http/input.decorator';
import { Multipart } from '../../core/http/multipart';
import { sendFile } from '../../core/http/send-file';
import type { SessionUser } from '../../core/http/request-context';
import type { IncomingFile } from '../site/files.service';
import { StudentGuardiansService } from './student-guardians.service';
import { StudentsIoService } from './students-io.service';
import { StudentsService } from './students.service';

@Controller('api/index')
export class StudentsController {
  constructor(
    private readonly students: StudentsService,
    private readonly io: StudentsIoService,
    private readonly guardians: StudentGuardiansService,
  ) {}

  @Get('studentList')
  list(@Input(StudentListInput) q: StudentListInput, @CurrentUser() user: SessionUser) {
    return this.students.list(user, q);
  }

  @Get('studentInfo')
  info(@Input(StudentInfoInput) q: StudentInfoInput, @CurrentUser() user: SessionUser) {
    return this.students.info(user, q.id);
  }

  @Get('checkStudent')
  check(@Input(CheckStudentInput) q: CheckStudentInput, @CurrentUser() user: SessionUser) {
    return this.students.check(user, q);
  }

  @Post('addStudent')
  add(@Input(AddStudentInput) input: AddStudentInput, @CurrentUser() user: SessionUser) {
    return this.students.add(user, input);
  }

  @Post('delStudent')
  del(@Input(DelStudentInput) input: DelStudentInput, @CurrentUser() user: SessionUser) {
    return this.students.archive(user, input);
  }

  @Post('saveStudentGuardians')
  saveGuardians(@Input(SaveStudentGuardiansInput) input: SaveStudentGuardiansInput, @CurrentUser() user: SessionUser) {
    return this.guardians.save(user, input);
  }

  @Get('studentGuardianLog')
  guardianLog(@Input(StudentGuardianLogInput) q: StudentGuardianLogInput, @CurrentUser() user: SessionUser) {
    return this.guardians.log(user, q);
  }

  @Get('schoolGrade')
  grades(@Input(SchoolGradeInput) _: SchoolGradeInput, @CurrentUser() user: SessionUser) {
    return this.students.grades(user);
  }

  @Get('studentSettingInfo')
  settingInfo(@Input(StudentSettingInfoInput) q: StudentSettingInfoInput, @CurrentUser() user: SessionUser) {
    return this.students.settingInfo(user, q.id);
  }

  @Post('studentSetting')
  setting(@Input(StudentSettingInput) input: StudentSettingInput, @CurrentUser() user: SessionUser) {
    return this.students.saveSetting(user, input);
  }

  @Get('teacherStudentList')
  teacherList(@Input(TeacherStudentListInput) q: TeacherStudentListInput, @CurrentUser() user: SessionUser) {
    return this.students.teacherList(user, q);
  }

  @Get('teacherStudentInfo')
  teacherInfo(@Input(TeacherStudentInfoInput) q: TeacherStudentInfoInput, @CurrentUser() user: SessionUser) {
    return this.students.teacherInfo(user, q.id);
  }

  @Get('teacherStudentGrowth')
  growth(@Input(TeacherStudentGrowthInput) q: TeacherStudentGrowthInput, @CurrentUser() user: SessionUser) {
    return this.students.growth(user, q);
  }

  @Get('parentChildren')
  parentChildren(@Input(EmptyInput) _: unknown, @CurrentUser() user: SessionUser) {
    return this.students.children(user);
  }

  @Get('studentComments')
  comments(@Input(StudentCommentsInput) q: StudentCommentsInput, @CurrentUser() user: SessionUser) {
    return this.students.comments(user, q);
  }

  @Post('overallComment')
  overallComment(@Input(OverallCommentInput) input: OverallCommentInput, @CurrentUser() user: SessionUser) {
    return this.students.overallComment(user, input);
  }

  @Get('studentImportTemplate')
  async template(@Input(StudentImportTemplateInput) q: StudentImportTemplateInput, @Res() res: Response) {
    sendFile(res, await this.io.template(q.format));
  }

  @Post('studentImport')
  @Multipart('file')
  import(
    @Input(StudentImportInput) input: StudentImportInput,
    @UploadedFile() file: IncomingFile | undefined,
    @CurrentUser() user: SessionUser,
    @Caller() caller: CallerInfo,
  ) {
    return this.io.import(user, file, input.dry_run === '1', caller.lang);
  }

  @Get('studentExport')
  async export(@Input(StudentExportInput) q: StudentExportInput, @CurrentUser() user: SessionUser, @Res() res: Response) {
    sendFile(res, await this.io.export(user, q));
  }
}
