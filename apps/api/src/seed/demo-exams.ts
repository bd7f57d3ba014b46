import { addDays, defaultPass2, parseScoreCell } from '@wantuo/shared';
import type { ShowcaseContext, ShowcaseStudent } from './demo-showcase';
import { spread } from './demo-showcase';

interface DemoExam {
  name: string;
  subject: string;
  /** the exam is on the n-th school day before today */
  daysAgo: number;
  /** published this many school days after the exam; null: not published yet */
  publishedAfter: number | null;
  classes: Array<'running' | 'second'>;
  /** the typical score and its spread, in points out of full_mark 100 */
  base: number;
}

const EXAMS: DemoExam[] = [
  { name: '第三单元测验', subject: '数学', daysAgo: 8, publishedAfter: 2, classes: ['running', 'second'], base: 78 },
  { name: '阅读理解小测', subject: '语文', daysAgo: 4, publishedAfter: 1, classes: ['running'], base: 82 },
  { name: '单词听写', subject: '英语', daysAgo: 1, publishedAfter: null, classes: ['running', 'second'], base: 85 },
];

/**
 * Exams of the demo's care classes: two with scores published to the guardians (the parent sees score, rank and class
 * average, which the exams module computes from the scores when read: competitionRanks) and one scored and not yet
 * published. Scores are whole or half points checked by the module's own cell rule (parseScoreCell), one student
 * absent; every score is in the score log, and the guardians of the published exams are remembered as texted.
 */
export async function seedDemoExams(c: ShowcaseContext): Promise<number> {
  const { em, schoolId, users } = c;
  const past = c.schoolDays(addDays(c.today, -30), addDays(c.today, -1)).reverse();
  for (const [n, x] of EXAMS.entries()) {
    const day = past[x.daysAgo - 1];
    const published = x.publishedAfter === null ? null : c.at(past[x.daysAgo - 1 - x.publishedAfter] ?? c.today, '17:30');
    const classIds = x.classes.map((k) => c.classes[k]);
    const [e]: Array<{ id: number }> = await em.query(
      `insert into exams (school_id, name, subject, exam_day, full_mark, pass2, published_at, version, scores_version, created_by, created_at, updated_at)
       values ($1, $2, $3, $4, 100, $5, $6::timestamptz, $7, 1, $8, $9::timestamptz, coalesce($6::timestamptz, $9::timestamptz)) returning id`,
      [schoolId, x.name, x.subject, day, defaultPass2(100), published, published ? 2 : 1, users.admin, c.at(addDays(day, -3), '09:00')],
    );
    await em.query(`insert into exam_classes (exam_id, class_id, school_id) select $1, unnest($2::int[]), $3`, [e.id, classIds, schoolId]);
    const rows: Array<{ student_id: number; class_id: number; score2: number | null; absent: boolean }> = [];
    for (const k of x.classes) {
      for (const st of c[k] as ShowcaseStudent[]) {
        const absent = n === 0 && st === c[k][c[k].length - 1] && k === 'second';
        // a score near the exam's base, in half points, never above full mark
        const raw = Math.min(100, x.base - 18 + spread(st.id, n + 3, 37) + (spread(st.id, n, 2) ? 0.5 : 0));
        const cell = parseScoreCell(absent ? '缺考' : raw, 100);
        if (!cell?.ok) throw new Error(`demo exam score ${raw} refused: ${cell ? cell.error : 'empty'}`);
        rows.push({ student_id: st.id, class_id: c.classes[k], score2: cell.score2, absent: cell.absent });
      }
    }
    const entered = c.at(addDays(day, 1), '19:00');
    await em.query(
      `with v as (select * from unnest($2::int[], $3::int[], $4::int[], $5::bool[]) as v(student_id, class_id, score2, absent)),
       up as (insert into exam_scores (exam_id, student_id, school_id, class_id, score2, absent, entered_by, entered_at)
              select $1, v.student_id, $6, v.class_id, v.score2, v.absent, $7, $8 from v returning student_id, score2, absent)
       insert into exam_score_log (exam_id, student_id, school_id, action, score2, absent, actor_id, at)
       select $1, up.student_id, $6, 'set', up.score2, up.absent, $7, $8 from up`,
      [
        e.id,
        rows.map((r) => r.student_id),
        rows.map((r) => r.class_id),
        rows.map((r) => r.score2),
        rows.map((r) => r.absent),
        schoolId,
        users.admin,
        entered,
      ],
    );
    if (published) {
      await em.query(
        `insert into exam_texts (exam_id, guardian_id, school_id, texted_at)
         select distinct $1::int, sg.user_id, $2::int, $3::timestamptz from exam_scores sc join student_guardians sg on sg.student_id = sc.student_id
          join users u on u.id = sg.user_id where sc.exam_id = $1 and u.mobile is not null and u.mobile <> ''`,
        [e.id, schoolId, published],
      );
    }
  }
  return EXAMS.length;
}
