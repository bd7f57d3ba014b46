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
  type ExamScoreAnswer,
  type ExamScoreQuery,
  type ExamScoreRow,
  type Lang,
  type MessageKey,
  type ParentExamScore,
  type ParentExamScoresAnswer,
  type ParentExamScoresQuery,
} from '@wantuo/shared';
import { DataSource, type EntityManager } from 'typeorm';
import { preparedQuery } from '../../core/database/prepared-query';
import { offsetOf, pageOf, totalOf } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { EXAM_HEAD_COLUMNS, EXAM_JOINS, examOf, schoolOf, toExam, type ExamDbRow, type ExamHead } from './exams-sql';

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

interface RosterRow {
  student_id: number;
  student_name: string;
  class_id: number | null;
  /** set from the exam's classes */
  class_name?: string | null;
  score2: number | null;
  absent: boolean;
  entered: boolean;
}

/** Scores of an exam: the grid with ranks and statistics, batches (all or none), deletions, the guardians' page. */
@Injectable()
export class ScoresService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Every student of the exam's classes (students scored since moved keep their row), with score, class and school
   * rank; statistics, per class and overall, and the distribution in bands over the rows shown. A teacher sees the
   * students of own classes (school ranks still count every score). Two statements, ranks and stats in memory.
   */
  async scores(user: SessionUser, q: ExamScoreQuery): Promise<ExamScoreAnswer> {
    // three statements at once: the caller's access (examOf refuses before anything is answered), the exam, the roster:
    // the scored students, then the students of the classes without a score (a class of the exam keeps its scores:
    // editExam refuses to take it off, so a score's class is always one of the exam's)
    const [head, [examRow], rows]: [ExamHead, ExamDbRow[], RosterRow[]] = await Promise.all([
      examOf(this.db, user, q.exam_id),
      // named prepared statements: planning the roster took longer than running it (5.7 ms against 4.4 at 2,000 scores)
      preparedQuery<ExamDbRow>(
        this.db,
        'exams.score_head',
        `select ${EXAM_HEAD_COLUMNS} from exams e ${EXAM_JOINS} where e.id = $1 and e.school_id = $2`,
        [q.exam_id, schoolOf(user)],
      ),
      preparedQuery<RosterRow>(
        this.db,
        'exams.score_roster',
        `select sc.student_id, s.name as student_name, sc.class_id, sc.score2, sc.absent, true as entered
           from exam_scores sc join students s on s.id = sc.student_id where sc.exam_id = $1 and sc.school_id = $2
         union all
         select ccs.student_id, s.name, ccs.class_id, null, false, false
           from exam_classes ec join care_class_students ccs on ccs.class_id = ec.class_id
           join students s on s.id = ccs.student_id and s.status = 1
          where ec.exam_id = $1 and ec.school_id = $2 and not exists (select 1 from exam_scores sc where sc.exam_id = $1 and sc.student_id = ccs.student_id)`,
        [q.exam_id, schoolOf(user)],
      ),
    ]);
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
    const exam = toExam({ ...examRow, scored, absent, average: scored ? Math.round((sum2 / scored / 2) * 10) / 10 : null });
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
  async add(user: SessionUser, input: AddExamScoreInput): Promise<AddExamScoreResult> {
    return this.db.transaction(async (em) => {
      const exam = await examOf(em, user, input.exam_id, { lock: true });
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
  async check(
    em: Pick<EntityManager, 'query'>,
    user: SessionUser,
    exam: ExamHead,
    rows: BatchRow[],
  ): Promise<{ problems: RowProblem[]; good: GoodRow[] }> {
    const ids = [...new Set(rows.map((r) => r.student_id).filter((id): id is number => id !== null))];
    const found: Array<{ id: number; name: string; class_id: number | null; scored: boolean; active: boolean }> = await em.query(
      `select s.id, s.name, coalesce(sc.class_id, ccs.class_id) as class_id, sc.student_id is not null as scored, s.status = 1 as active
         from students s left join care_class_students ccs on ccs.student_id = s.id
         left join exam_scores sc on sc.exam_id = $1 and sc.student_id = s.id
        where s.id = any($2::int[]) and s.school_id = $3`,
      [exam.id, ids, schoolOf(user)],
    );
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
  async write(em: Pick<EntityManager, 'query'>, user: SessionUser, exam: ExamHead, good: GoodRow[]): Promise<AddExamScoreResult> {
    const [w]: Array<{ n: number }> = await em.query(
      `with v as (select * from unnest($2::int[], $3::int[], $4::bool[], $5::int[]) as v(student_id, score2, absent, class_id)),
       up as (insert into exam_scores (exam_id, student_id, school_id, class_id, score2, absent, entered_by, entered_at)
              select $1, v.student_id, $6, v.class_id, v.score2, v.absent, $7, now() from v
              on conflict (exam_id, student_id) do update set score2 = excluded.score2, absent = excluded.absent, entered_by = excluded.entered_by, entered_at = now()
              returning student_id, score2, absent),
       lg as (insert into exam_score_log (exam_id, student_id, school_id, action, score2, absent, actor_id)
              select $1, up.student_id, $6, 'set', up.score2, up.absent, $7 from up returning 1)
       select (select count(*)::int from up) as n, (select count(*) from lg) as logged`,
      [
        exam.id,
        good.map((g) => g.student_id),
        good.map((g) => g.score2),
        good.map((g) => g.absent),
        good.map((g) => g.class_id),
        schoolOf(user),
        user.id,
      ],
    );
    const [v]: Array<{ scores_version: number }> = await em.query(
      `with u as (update exams set scores_version = scores_version + 1 where id = $1 returning scores_version) select scores_version from u`,
      [exam.id],
    );
    return { saved: w.n, scores_version: v.scores_version };
  }

  /** Deletes one student's score (logged); a teacher: a student of an own class. */
  async remove(user: SessionUser, input: DelExamScoreInput): Promise<AddExamScoreResult> {
    return this.db.transaction(async (em) => {
      const exam = await examOf(em, user, input.exam_id, { lock: true });
      const [sc]: Array<{ class_id: number | null }> = await em.query(`select class_id from exam_scores where exam_id = $1 and student_id = $2`, [
        exam.id,
        input.student_id,
      ]);
      if (!sc) throw new AppError('exams.score_not_found');
      if (sc.class_id === null || !exam.own_ids.includes(sc.class_id)) throw new AppError('exams.not_own_class');
      await em.query(
        `with d as (delete from exam_scores where exam_id = $1 and student_id = $2 returning student_id, score2, absent)
         insert into exam_score_log (exam_id, student_id, school_id, action, score2, absent, actor_id) select $1, d.student_id, $3, 'delete', d.score2, d.absent, $4 from d`,
        [exam.id, input.student_id, schoolOf(user), user.id],
      );
      const [v]: Array<{ scores_version: number }> = await em.query(
        `with u as (update exams set scores_version = scores_version + 1 where id = $1 returning scores_version) select scores_version from u`,
        [exam.id],
      );
      return { saved: 0, scores_version: v.scores_version };
    });
  }

  /** A guardian's child's published scores, newest exam first: score, rank in the class, the class's count and average. */
  async parent(user: SessionUser, q: ParentExamScoresQuery): Promise<ParentExamScoresAnswer> {
    const [st]: Array<{ id: number; name: string }> = await this.db.query(
      `select s.id, s.name from students s join student_guardians g on g.student_id = s.id and g.user_id = $3 where s.id = $1 and s.school_id = $2`,
      [q.student_id, schoolOf(user), user.id],
    );
    if (!st) throw new AppError('exams.student_not_found');
    const rows: Array<ParentExamScore & { total: number; score2: number | null; pass2: number | null }> = await this.db.query(
      `select count(*) over ()::int as total, e.id as exam_id, e.name, e.subject, to_char(e.exam_day, 'YYYY-MM-DD') as exam_day, e.full_mark, e.pass2,
              c.name as class_name, m.score2, m.absent,
              case when m.absent then null else (select count(*)::int + 1 from exam_scores o where o.exam_id = m.exam_id and o.class_id is not distinct from m.class_id
                                                   and not o.absent and o.score2 > m.score2) end as class_rank,
              k.class_count, k.class_average
         from exam_scores m join exams e on e.id = m.exam_id and e.published_at is not null
         left join care_classes c on c.id = m.class_id
         cross join lateral (select count(*)::int as class_count, round(avg(o.score2) / 2.0, 1)::float8 as class_average
                               from exam_scores o where o.exam_id = m.exam_id and o.class_id is not distinct from m.class_id and not o.absent) k
        where m.student_id = $1
        order by e.exam_day desc, e.id desc limit $2 offset $3`,
      [st.id, q.limit, offsetOf(q)],
    );
    let total = totalOf(rows);
    if (!rows.length && q.page > 1) {
      const [c]: Array<{ n: number }> = await this.db.query(
        `select count(*)::int as n from exam_scores m join exams e on e.id = m.exam_id and e.published_at is not null where m.student_id = $1`,
        [st.id],
      );
      total = c.n;
    }
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
