import { Controller, Get, Post, Res, UploadedFile } from '@nestjs/common';
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
import { CurrentUser } from '../../core/auth/current-user.decorator';
import { Input } from '../../core/http/input.decorator';
import { Multipart } from '../../core/http/multipart';
import { sendFile } from '../../core/http/send-file';
import type { SessionUser } from '../../core/http/request-context';
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

  @Get('studentExamList')
  list(@Input(ExamListQuery) q: ExamListQuery, @CurrentUser() user: SessionUser) {
    return this.exams.list(user, ExamsService.filtersOf(q));
  }

  @Post('studentExamList')
  listFiltered(@Input(ExamListFilter) f: ExamListFilter, @CurrentUser() user: SessionUser) {
    return this.exams.list(user, f);
  }

  @Get('teacherStudentExamList')
  teacherList(@Input(ExamListQuery) q: ExamListQuery, @CurrentUser() user: SessionUser) {
    return this.exams.list(user, ExamsService.filtersOf(q));
  }

  @Post('addExam')
  add(@Input(AddExamInput) input: AddExamInput, @CurrentUser() user: SessionUser) {
    return this.exams.add(user, input);
  }

  @Post('teacherAddExam')
  teacherAdd(@Input(AddExamInput) input: AddExamInput, @CurrentUser() user: SessionUser) {
    return this.exams.add(user, input);
  }

  @Post('editExam')
  edit(@Input(EditExamInput) input: EditExamInput, @CurrentUser() user: SessionUser) {
    return this.exams.edit(user, input);
  }

  @Post('teacherEditExam')
  teacherEdit(@Input(EditExamInput) input: EditExamInput, @CurrentUser() user: SessionUser) {
    return this.exams.edit(user, input);
  }

  @Post('delExam')
  remove(@Input(DelExamInput) input: DelExamInput, @CurrentUser() user: SessionUser) {
    return this.exams.remove(user, input);
  }

  @Post('publishExamScores')
  publish(@Input(PublishExamScoresInput) input: PublishExamScoresInput, @CurrentUser() user: SessionUser) {
    return this.exams.publish(user, input);
  }

  @Get('examScore')
  scoresOf(@Input(ExamScoreQuery) q: ExamScoreQuery, @CurrentUser() user: SessionUser) {
    return this.scores.scores(user, q);
  }

  @Get('teacherExamScore')
  teacherScores(@Input(ExamScoreQuery) q: ExamScoreQuery, @CurrentUser() user: SessionUser) {
    return this.scores.scores(user, q);
  }

  @Post('addExamScore')
  addScores(@Input(AddExamScoreInput) input: AddExamScoreInput, @CurrentUser() user: SessionUser) {
    return this.scores.add(user, input);
  }

  @Post('teacherAddExamScore')
  teacherAddScores(@Input(AddExamScoreInput) input: AddExamScoreInput, @CurrentUser() user: SessionUser) {
    return this.scores.add(user, input);
  }

  @Post('delExamScore')
  delScore(@Input(DelExamScoreInput) input: DelExamScoreInput, @CurrentUser() user: SessionUser) {
    return this.scores.remove(user, input);
  }

  @Post('teacherDelExamScore')
  teacherDelScore(@Input(DelExamScoreInput) input: DelExamScoreInput, @CurrentUser() user: SessionUser) {
    return this.scores.remove(user, input);
  }

  @Get('parentExamScores')
  parent(@Input(ParentExamScoresQuery) q: ParentExamScoresQuery, @CurrentUser() user: SessionUser) {
    return this.scores.parent(user, q);
  }

  @Post('examScoreImport')
  @Multipart('file')
  import(@Input(ExamScoreImportInput) input: ExamScoreImportInput, @UploadedFile() file: IncomingFile | undefined, @CurrentUser() user: SessionUser) {
    return this.io.import(user, input.exam_id, file, input.dry_run === '1');
  }

  @Get('examScoreExport')
  async export(@Input(ExamScoreExportQuery) q: ExamScoreExportQuery, @CurrentUser() user: SessionUser, @Res() res: Response) {
    sendFile(res, await this.io.export(user, q.exam_id));
  }
}
