import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { EXAM_MAX_BATCH, readWholeCell, type ExamScoreImportResult } from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { AppError } from '../../core/http/app-error';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { ChildAccessLog } from '../privacy/access-log.service';
import type { FileAnswer } from '../../core/http/send-file';
import { sheet, xlsxFile } from '../../core/http/xlsx-file';
import { isZip, readFirstSheet } from '../students/sheet-read';
import { examOf } from './exam-rules';
import { ExamsRepository } from './exams.repository';
import { ScoresService, type BatchRow } from './scores.service';

/** The columns of the score sheet: the export writes them, the import reads 学生编号 and 成绩 back (others ignored). */
const COLUMNS = ['学生编号', '姓名', '班级', '成绩', '班级排名', '全校排名'] as const;
const REQUIRED = ['学生编号', '成绩'] as const;
const MAX_BYTES = 5 * 1024 * 1024;

/** Scores to and from .xlsx, with the checks of a typed batch (all rows or none). */
@Injectable()
export class ScoresIoService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repo: ExamsRepository,
    private readonly scores: ScoresService,
    private readonly log: ChildAccessLog,
  ) {}

  /**
   * The exam's score sheet (a teacher: own classes), the one the import reads back; absent as 缺考, empty: no entry.
   * Recorded in the access log with the children it names.
   */
  async export(user: SchoolCaller, examId: number): Promise<FileAnswer> {
    const answer = await this.scores.scores(user, { exam_id: examId });
    await this.log.record(
      user,
      answer.list.map((r) => r.student_id),
      ['export', 'profile'],
    );
    const names = new Map(answer.exam.classes.map((c) => [c.id, c.name]));
    const e = answer.exam;
    const safe = e.name.replace(/[\\/:*?"<>|]/g, '_');
    return xlsxFile(`成绩-${safe}-${e.exam_day}.xlsx`, [
      sheet({
        name: '成绩',
        rows: answer.list,
        columns: [
          { header: COLUMNS[0], value: (r) => r.student_id, width: 10 },
          { header: COLUMNS[1], value: (r) => r.student_name, width: 12 },
          { header: COLUMNS[2], value: (r) => (r.class_id === null ? '' : names.get(r.class_id)), width: 14 },
          { header: COLUMNS[3], value: (r) => (r.absent ? '缺考' : r.score), width: 8 },
          { header: COLUMNS[4], value: (r) => r.class_rank, width: 10 },
          { header: COLUMNS[5], value: (r) => r.school_rank, width: 10 },
        ],
      }),
      {
        name: '考试信息',
        rows: [
          ['考试', e.name],
          ['科目', e.subject],
          ['日期', e.exam_day],
          ['满分', e.full_mark],
          ['及格线', e.pass_mark],
          ['平均分', answer.stats.average],
          ['最高分', answer.stats.highest],
          ['最低分', answer.stats.lowest],
          ['及格率', answer.stats.pass_rate === null ? '' : `${answer.stats.pass_rate}%`],
          [],
          ['说明', '导入时按“学生编号”匹配学生，“成绩”填 0 到满分的整数或 .5，缺考填“缺考”，空白表示不录入。'],
        ],
        widths: [10, 60],
      },
    ]);
  }

  /** Checks every row of the sheet (dry run), or saves them all in one transaction when none has a problem. */
  async import(
    user: SchoolCaller,
    examId: number,
    file: { buffer: Buffer; size: number } | undefined,
    dryRun: boolean,
  ): Promise<ExamScoreImportResult> {
    if (!file || file.size === 0) throw new AppError('exams.import_no_file');
    if (file.size > MAX_BYTES) throw new AppError('exams.import_too_large', { max: '5 MB' });
    const raw = await readSheet(file.buffer);
    const header = (raw[0] ?? []).map((h) => h.trim());
    const missing = REQUIRED.filter((c) => !header.includes(c));
    if (missing.length) throw new AppError('exams.import_bad_header', { columns: missing.join('、') });
    const idAt = header.indexOf('学生编号');
    const scoreAt = header.indexOf('成绩');
    const data = raw
      .map((cells, i) => ({ row: i + 1, cells }))
      .slice(1)
      .filter((r) => r.cells.some((c) => c.trim() !== ''));
    if (!data.length) throw new AppError('exams.import_empty');
    if (data.length > EXAM_MAX_BATCH) throw new AppError('exams.import_too_many_rows', { max: EXAM_MAX_BATCH });
    const rows: BatchRow[] = data
      .map(({ row, cells }) => {
        // the id as typed (full-width digits, stray spaces, 12.0 from a number cell); the score parser reads the score so
        const id = readWholeCell(cells[idAt] ?? '');
        const n = id === null ? null : Number(id);
        return { row, student_id: n, score: (cells[scoreAt] ?? '').trim() };
      })
      // a row without a score is no entry (the exported sheet lists every student, scored or not)
      .filter((r) => r.score !== '' || r.student_id === null);
    if (!rows.length) throw new AppError('exams.import_empty');
    return this.db.transaction(async (em) => {
      const exam = await examOf(this.repo, em, user, examId, { lock: !dryRun });
      const { problems, good } = await this.scores.check(em, user, exam, rows);
      const out = problems.map((p) => ({
        row: p.row,
        column: p.student_id === null ? '学生编号' : '成绩',
        message: `${p.student_name}：${p.message}`,
      }));
      if (dryRun || problems.length) return { dry_run: dryRun, rows: rows.length, saved: 0, problems: out };
      const w = await this.scores.write(em, user, exam, good);
      return { dry_run: false, rows: rows.length, saved: w.saved, problems: [] };
    });
  }
}

/**
 * The first sheet's rows as text (an .xlsx only: the sheet the export gives); refused before it is loaded when it
 * unpacks to more than a score sheet could (sheet-read).
 */
async function readSheet(file: Buffer): Promise<string[][]> {
  if (!isZip(file)) throw new AppError('exams.import_bad_file');
  const { rows } = await readFirstSheet(
    file,
    { maxRows: EXAM_MAX_BATCH, columns: COLUMNS.length },
    { badFile: 'exams.import_bad_file', unzippedTooLarge: 'exams.import_unzipped_too_large', tooManyRows: 'exams.import_too_many_rows' },
  );
  return rows;
}
