import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  Code,
  competitionRanks,
  defaultPass2,
  parseScoreCell,
  scoreBands,
  scoreStats,
  t,
  type AddExamScoreInput,
  type AddExamScoreResult,
  type DelExamScoreInput,
  type ExamClassStats,
  type ExamScoreQuery,
  type ExamScoreRow,
  type Lang,
  type MessageKey,
  type ParentExamScoresQuery,
} from '@wantuo/shared';
import { DataSource } from 'typeorm';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { offsetOf, pageOf, type Queryable } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import { examOf, toExam, type ExamHead } from './exam-rules';
import { ExamsRepository, type RosterRow } from './exams.repository';

/** Names in Chinese order (pinyin); one collator, not one per comparison. */
const ZH = new Intl.Collator('zh-CN');

/** One row of a batch as typed or imported: `row` is what the message names (the grid's line, the sheet's row). */
export interface BatchRow {
  row: number;
  student_id: number | null;
  score: string | number | null | undefined;
  absent?: boolean;
}

export interface RowProblem {
  row: number;
  student_id: number | null;
  student_name: string;
  message: string;
}

interface GoodRow {
  student_id: number;
  class_id: number;
  score2: number | null;
  absent: boolean;
}

/** Scores of an exam: the grid with ranks and statistics, batches (all or none), deletions, the guardians' page. */
@Injectable()
export class ScoresService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repo: ExamsRepository,
  ) {}

  /**
   * Every student of the exam's classes (students scored since moved keep their row), with score, class and school
   * rank; statistics, per class and overall, and the distribution in bands over the rows shown. A teacher sees the
   * students of own classes (school ranks still count every score). Two statements, ranks and stats in memory.
   */
  async scores(user: SchoolCaller, q: ExamScoreQuery) {
    // three statements at once: the caller's access (examOf refuses before anything is answered), the exam, the roster:
    // the scored students, then the students of the classes without a score (a class of the exam keeps its scores:
    // editExam refuses to take it off, so a score's class is always one of the exam's)
    const [head, [examRow, rows]] = await Promise.all([examOf(this.repo, this.db, user, q.exam_id), this.repo.scoreSheet(q.exam_id, user.schoolId)]);
    // the exam's counts over all its scores (as studentExamList answers them)
    let sum2 = 0;
    let scored = 0;
    let absent = 0;
    for (const r of rows) {
      if (!r.entered) continue;
      if (r.absent) absent++;
      else {
        scored++;
        sum2 += r.score2!;
      }
    }
    const exam = toExam({ ...examRow!, scored, absent, average: scored ? Math.round((sum2 / scored / 2) * 10) / 10 : null });
    const names = new Map(exam.classes.map((c) => [c.id, c.name]));
    for (const r of rows) r.class_name = r.class_id === null ? null : (names.get(r.class_id) ?? null);
    const pass2 = head.pass2 ?? defaultPass2(head.full_mark);
    const value = (r: RosterRow) => (r.entered && !r.absent ? r.score2 : null);
    const schoolRanks = competitionRanks(rows.map(value));
    const byClass = new Map<number | null, number[]>();
    rows.forEach((r, i) => {
      const list = byClass.get(r.class_id) ?? [];
      list.push(i);
      byClass.set(r.class_id, list);
    });
    const classRanks = new Array<number | null>(rows.length).fill(null);
    for (const idx of byClass.values()) {
      const ranks = competitionRanks(idx.map((i) => value(rows[i])));
      idx.forEach((i, k) => (classRanks[i] = ranks[k]));
    }
    const own = new Set(head.own_ids);
    const shown: number[] = [];
    rows.forEach((r, i) => {
      if (r.class_id !== null && !own.has(r.class_id)) return;
      if (q.class_id !== undefined && r.class_id !== q.class_id) return;
      shown.push(i);
    });
    shown.sort(
      (a, b) =>
        ZH.compare(rows[a].class_name ?? '', rows[b].class_name ?? '') ||
        ZH.compare(rows[a].student_name, rows[b].student_name) ||
        rows[a].student_id - rows[b].student_id,
    );
    const list: ExamScoreRow[] = shown.map((i) => {
      const r = rows[i];
      return {
        student_id: r.student_id,
        student_name: r.student_name,
        class_id: r.class_id,
        score: r.score2 === null ? null : r.score2 / 2,
        absent: r.absent,
        class_rank: classRanks[i],
        school_rank: schoolRanks[i],
      };
    });
    // statistics of the rows shown, over the students with an entry (absent counted apart)
    const entered = shown.filter((i) => rows[i].entered);
    const classes: ExamClassStats[] = [];
    for (const [classId, idx] of byClass) {
      if (classId === null || !own.has(classId) || (q.class_id !== undefined && classId !== q.class_id)) continue;
      const e = idx.filter((i) => rows[i].entered);
      classes.push({
        class_id: classId,
        class_name: names.get(classId) ?? rows[idx[0]].class_name ?? '',
        students: idx.length,
        ...scoreStats(
          e.map((i) => value(rows[i])),
          pass2,
        ),
      });
    }
    classes.sort((a, b) => ZH.compare(a.class_name, b.class_name));
    return {
      exam,
      list,
      stats: {
        students: shown.length,
        ...scoreStats(
          entered.map((i) => value(rows[i])),
          pass2,
        ),
      },
      classes,
      bands: scoreBands(
        entered.map((i) => value(rows[i])),
        head.full_mark,
      ),
      can_manage: head.own_ids.length === head.class_ids.length,
    };
  }

  /** A batch of scores, all or none: every bad row is named (line and student) and nothing is written. */
  async add(user: SchoolCaller, input: AddExamScoreInput): Promise<AddExamScoreResult> {
    return this.db.transaction(async (em) => {
      const exam = await examOf(this.repo, em, user, input.exam_id, { lock: true });
      if (input.scores_version !== undefined && input.scores_version !== exam.scores_version) throw new AppError('exams.scores_changed');
      const rows: BatchRow[] = input.rows.map((r, i) => ({ row: i + 1, student_id: r.student_id, score: r.score, absent: r.absent }));
      const { problems, good } = await this.check(em, user, exam, rows);
      if (problems.length) throw badRows(user.lang, problems);
      return this.write(em, user, exam, good);
    });
  }

  /**
   * Checks a batch: each student once, in one of the exam's classes (a teacher: own classes), with a score 0..full
   * mark in half points or absent. Answers every problem, and the rows to write when there is none.
   */
  async check(em: Queryable, user: SchoolCaller, exam: ExamHead, rows: BatchRow[]): Promise<{ problems: RowProblem[]; good: GoodRow[] }> {
    const ids = [...new Set(rows.map((r) => r.student_id).filter((id): id is number => id !== null))];
    const found = await this.repo.students(em, exam.id, user.schoolId, ids);
    const byId = new Map(found.map((s) => [s.id, s]));
    const own = new Set(exam.own_ids);
    const seen = new Set<number>();
    const problems: RowProblem[] = [];
    const good: GoodRow[] = [];
    const lang = user.lang;
    for (const r of rows) {
      const st = r.student_id === null ? undefined : byId.get(r.student_id);
      const name = st?.name ?? (r.student_id === null ? '-' : `#${r.student_id}`);
      const bad = (key: MessageKey) => problems.push({ row: r.row, student_id: r.student_id, student_name: name, message: t(lang, key) });
      if (!st) {
        bad(r.student_id === null ? 'exams.import_unknown_student' : 'exams.row_not_in_exam');
        continue;
      }
      if (seen.has(st.id)) {
        bad('exams.row_duplicate');
        continue;
      }
      seen.add(st.id);
      if (st.class_id === null || !own.has(st.class_id) || (!st.scored && !st.active)) {
        bad(st.class_id !== null && exam.class_ids.includes(st.class_id) ? 'exams.not_own_class' : 'exams.row_not_in_exam');
        continue;
      }
      const cell = r.absent ? { ok: true as const, absent: true as const, score2: null } : parseScoreCell(r.score, exam.full_mark);
      if (cell === null) bad('exams.row_empty');
      else if (!cell.ok) bad(cell.error);
      else good.push({ student_id: st.id, class_id: st.class_id, score2: cell.score2, absent: cell.absent });
    }
    return { problems, good };
  }

  /** Writes checked rows (one statement with the log), and moves the exam's scores_version on. */
  async write(em: Queryable, user: SchoolCaller, exam: ExamHead, good: GoodRow[]): Promise<AddExamScoreResult> {
    const saved = await this.repo.writeScores(em, { examId: exam.id, schoolId: user.schoolId, actorId: user.id, rows: good });
    const scores_version = await this.repo.bumpScores(em, exam.id);
    return { saved, scores_version };
  }

  /** Deletes one student's score (logged); a teacher: a student of an own class. */
  async remove(user: SchoolCaller, input: DelExamScoreInput): Promise<AddExamScoreResult> {
    return this.db.transaction(async (em) => {
      const exam = await examOf(this.repo, em, user, input.exam_id, { lock: true });
      const sc = await this.repo.score(em, exam.id, input.student_id);
      if (!sc) throw new AppError('exams.score_not_found');
      if (sc.class_id === null || !exam.own_ids.includes(sc.class_id)) throw new AppError('exams.not_own_class');
      await this.repo.deleteScore(em, { examId: exam.id, studentId: input.student_id, schoolId: user.schoolId, actorId: user.id });
      const scores_version = await this.repo.bumpScores(em, exam.id);
      return { saved: 0, scores_version };
    });
  }

  /** A guardian's child's published scores, newest exam first: score, rank in the class, the class's count and average. */
  async parent(user: SchoolCaller, q: ParentExamScoresQuery) {
    const st = await this.repo.child(user.schoolId, q.student_id, user.id);
    if (!st) throw new AppError('exams.student_not_found');
    const rows = await this.repo.parentScores(st.id, q.limit, offsetOf(q));
    let total = Number(rows[0]?.total ?? 0);
    if (!rows.length && q.page > 1) total = await this.repo.parentScoreCount(st.id);
    const list = rows.map(({ total: _, score2, pass2, ...r }) => ({
      ...r,
      score: score2 === null ? null : score2 / 2,
      pass_mark: (pass2 ?? defaultPass2(r.full_mark)) / 2,
    }));
    return { student_id: st.id, student_name: st.name, ...pageOf(list, total, q) };
  }
}

/** The error of a batch with bad rows: every row named in the message (the first 10) and all of them in data.rows. */
export function badRows(lang: Lang, problems: RowProblem[]): AppError {
  const named = problems.slice(0, 10).map((p) => t(lang, 'exams.row_problem', { row: p.row, student: p.student_name, problem: p.message }));
  const more = problems.length > 10 ? (lang === 'en' ? ` (+${problems.length - 10} more)` : `（另有 ${problems.length - 10} 行）`) : '';
  return new AppError('exams.bad_rows', { rows: named.join(lang === 'en' ? '; ' : '；') + more }, Code.Error, { rows: problems });
}
