import { Controller, Res, UploadedFile } from '@nestjs/common';
import type { Response } from 'express';
import {
  AddExamInput,
  AddExamScoreInput,
  DelExamInput,
  DelExamScoreInput,
  EditExamInput,
  ExamListFilter,
  ExamListQuery,
  ExamScoreExportQuery,
  ExamScoreImportInput,
  ExamScoreQuery,
  ParentExamScoresQuery,
  PublishExamScoresInput,
} from '@wantuo/shared';
import { SchoolUser, type SchoolCaller } from '../../core/auth/current-user.decorator';
import { Action } from '../../core/http/action.decorator';
import { Input } from '../../core/http/input.decorator';
import { Multipart } from '../../core/http/multipart';
import { sendFile } from '../../core/http/send-file';
import type { IncomingFile } from '../site/files.service';
import { ExamsService } from './exams.service';
import { ScoresIoService } from './scores-io.service';
import { ScoresService } from './scores.service';

/**
 * Exams and scores (module `exams`, issue 14). The admin's actions cover the school; the teacher's ones (T, H) run
 * the same services, which limit a teacher to own classes (headed, or on duty in) and their students.
 */
@Controller('api/index')
export class ExamsController {
  constructor(
    private readonly exams: ExamsService,
    private readonly scores: ScoresService,
    private readonly io: ScoresIoService,
  ) {}

  @Action('GET', 'studentExamList')
  list(@Input() q: ExamListQuery, @SchoolUser() user: SchoolCaller) {
    return this.exams.list(user, ExamsService.filtersOf(q));
  }

  @Action('POST', 'studentExamList')
  listFiltered(@Input() f: ExamListFilter, @SchoolUser() user: SchoolCaller) {
    return this.exams.list(user, f);
  }

  @Action('GET', 'teacherStudentExamList')
  teacherList(@Input() q: ExamListQuery, @SchoolUser() user: SchoolCaller) {
    return this.exams.list(user, ExamsService.filtersOf(q));
  }

  @Action('POST', 'addExam')
  add(@Input() input: AddExamInput, @SchoolUser() user: SchoolCaller) {
    return this.exams.add(user, input);
  }

  @Action('POST', 'teacherAddExam')
  teacherAdd(@Input() input: AddExamInput, @SchoolUser() user: SchoolCaller) {
    return this.exams.add(user, input);
  }

  @Action('POST', 'editExam')
  edit(@Input() input: EditExamInput, @SchoolUser() user: SchoolCaller) {
    return this.exams.edit(user, input);
  }

  @Action('POST', 'teacherEditExam')
  teacherEdit(@Input() input: EditExamInput, @SchoolUser() user: SchoolCaller) {
    return this.exams.edit(user, input);
  }

  @Action('POST', 'delExam')
  remove(@Input() input: DelExamInput, @SchoolUser() user: SchoolCaller) {
    return this.exams.remove(user, input);
  }

  @Action('POST', 'publishExamScores')
  publish(@Input() input: PublishExamScoresInput, @SchoolUser() user: SchoolCaller) {
    return this.exams.publish(user, input);
  }

  @Action('GET', 'examScore')
  scoresOf(@Input() q: ExamScoreQuery, @SchoolUser() user: SchoolCaller) {
    return this.scores.scores(user, q);
  }

  @Action('GET', 'teacherExamScore')
  teacherScores(@Input() q: ExamScoreQuery, @SchoolUser() user: SchoolCaller) {
    return this.scores.scores(user, q);
  }

  @Action('POST', 'addExamScore')
  addScores(@Input() input: AddExamScoreInput, @SchoolUser() user: SchoolCaller) {
    return this.scores.add(user, input);
  }

  @Action('POST', 'teacherAddExamScore')
  teacherAddScores(@Input() input: AddExamScoreInput, @SchoolUser() user: SchoolCaller) {
    return this.scores.add(user, input);
  }

  @Action('POST', 'delExamScore')
  delScore(@Input() input: DelExamScoreInput, @SchoolUser() user: SchoolCaller) {
    return this.scores.remove(user, input);
  }

  @Action('POST', 'teacherDelExamScore')
  teacherDelScore(@Input() input: DelExamScoreInput, @SchoolUser() user: SchoolCaller) {
    return this.scores.remove(user, input);
  }

  @Action('GET', 'parentExamScores')
  parent(@Input() q: ParentExamScoresQuery, @SchoolUser() user: SchoolCaller) {
    return this.scores.parent(user, q);
  }

  @Action('POST', 'examScoreImport')
  @Multipart('file')
  import(@Input() input: ExamScoreImportInput, @UploadedFile() file: IncomingFile | undefined, @SchoolUser() user: SchoolCaller) {
    return this.io.import(user, input.exam_id, file, input.dry_run === '1');
  }

  @Action('GET', 'examScoreExport')
  async export(@Input() q: ExamScoreExportQuery, @SchoolUser() user: SchoolCaller, @Res() res: Response) {
    sendFile(res, await this.io.export(user, q.exam_id));
  }
}
