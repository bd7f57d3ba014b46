import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Role, StudentStatus, type ExamListFilter, type Page } from '@wantuo/shared';
import { sql, type Expression, type ExpressionBuilder, type InferResult, type SqlBool } from 'kysely';
import { DataSource } from 'typeorm';
import { anyOf } from '../../core/access/access';
import { kdb, pageRows, type DB } from '../../core/database/kysely';
import { preparedQuery } from '../../core/database/prepared-query';
import { containsPattern, type Queryable } from '../../core/database/sql-kit';

const one = sql.lit(1).as('one');

type C = DB & { c: DB['care_classes'] };
type E = DB & { e: DB['exams'] };

/**
 * "Own classes" of a teacher or head teacher (the rule of the care module's classesOf): the care classes `c` they
 * head, or have a duty in. An exam covers care classes only (teaching classes have a teacher and a subject of their
 * own but no exams).
 */
function ownClass(eb: ExpressionBuilder<C, 'c'>, me: number): Expression<SqlBool> {
  return eb.or([
    eb('c.head_teacher_id', '=', me),
    eb.exists(eb.selectFrom('duty_assignments as d').select(one).whereRef('d.class_id', '=', 'c.id').where('d.teacher_id', '=', me)),
  ]);
}

/** The columns of an exam (`e`) as the Exam answer, with its creator's name and its classes (names). */
const examHead = (on: Queryable) =>
  kdb(on)
    .selectFrom('exams as e')
    .leftJoin('users as cu', 'cu.id', 'e.created_by')
    .select((eb) => [
      'e.id',
      'e.name',
      'e.subject',
      sql<string>`to_char(${eb.ref('e.exam_day')}, 'YYYY-MM-DD')`.as('exam_day'),
      'e.full_mark',
      'e.pass2',
      'e.published_at',
      'e.created_at',
      'e.version',
      'e.scores_version',
      'cu.name as created_by_name',
      eb.fn
        .coalesce(
          eb
            .selectFrom('exam_classes as ec')
            .innerJoin('care_classes as c', 'c.id', 'ec.class_id')
            .select((x) =>
              sql<
                Array<{ id: number; name: string }>
              >`json_agg(json_build_object('id', ${x.ref('c.id')}, 'name', ${x.ref('c.name')}) order by ${x.ref('c.name')}, ${x.ref('c.id')})`.as(
                'classes',
              ),
            )
            .whereRef('ec.exam_id', '=', 'e.id'),
          sql<Array<{ id: number; name: string }>>`'[]'::json`,
        )
        .as('classes'),
    ]);

/** examHead with the score counts and average (as studentExamList answers them). */
const exams = (on: Queryable) =>
  examHead(on).select((eb) => [
    eb
      .selectFrom('exam_scores as sc')
      .select((x) => x.cast<number>(x.fn.countAll().filterWhere(x.not(x.ref('sc.absent'))), 'integer').as('scored'))
      .whereRef('sc.exam_id', '=', 'e.id')
      .$asScalar()
      .as('scored'),
    eb
      .selectFrom('exam_scores as sc')
      .select((x) => x.cast<number>(x.fn.countAll().filterWhere('sc.absent', '=', true), 'integer').as('absent'))
      .whereRef('sc.exam_id', '=', 'e.id')
      .$asScalar()
      .as('absent'),
    eb
      .selectFrom('exam_scores as sc')
      .select((x) => sql<number | null>`round(avg(${x.ref('sc.score2')}) / 2.0, 1)::float8`.as('average'))
      .whereRef('sc.exam_id', '=', 'e.id')
      .where('sc.absent', '=', false)
      .$asScalar()
      .as('average'),
  ]);

/** An exam's head row (examHead's columns). */
export type ExamHeadRow = InferResult<ReturnType<typeof examHead>>[number];
/** An exam row with its counts (the Exam answer but for the pass mark). */
export type ExamRow = InferResult<ReturnType<typeof exams>>[number];

/** The exam's roster: the scored students, then the students of the classes without a score (one statement). */
const roster = (on: Queryable, examId: number, schoolId: number) => {
  const k = kdb(on);
  return k
    .selectFrom('exam_scores as sc')
    .innerJoin('students as s', 's.id', 'sc.student_id')
    .select(['sc.student_id', 's.name as student_name', 'sc.class_id', 'sc.score2', 'sc.absent', sql<boolean>`true`.as('entered')])
    .where('sc.exam_id', '=', examId)
    .where('sc.school_id', '=', schoolId)
    .unionAll(
      k
        .selectFrom('exam_classes as ec')
        .innerJoin('care_class_students as ccs', 'ccs.class_id', 'ec.class_id')
        .innerJoin('students as s', (j) => j.onRef('s.id', '=', 'ccs.student_id').on('s.status', '=', StudentStatus.Active))
        .select([
          'ccs.student_id',
          's.name as student_name',
          (eb) => eb.cast<number | null>('ccs.class_id', 'integer').as('class_id'),
          sql<number | null>`null`.as('score2'),
          sql<boolean>`false`.as('absent'),
          sql<boolean>`false`.as('entered'),
        ])
        .where('ec.exam_id', '=', examId)
        .where('ec.school_id', '=', schoolId)
        .where((eb) =>
          eb.not(
            eb.exists(
              eb.selectFrom('exam_scores as sc').select(one).where('sc.exam_id', '=', examId).whereRef('sc.student_id', '=', 'ccs.student_id'),
            ),
          ),
        ),
    );
};

/** A row of the roster (`class_name` set afterwards from the exam's classes). */
export type RosterRow = InferResult<ReturnType<typeof roster>>[number] & { class_name?: string | null };

/** The filters of the exam list (the POST body's, or the GET query's as filtersOf turns them). */
export type ExamFilters = Omit<ExamListFilter, 'page' | 'limit'>;

/** The SQL of the exams module (issue 38): exams, their classes, scores and the guardians told, typed by the schema. */
@Injectable()
export class ExamsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** A page of the school's exams newest first (exam day, then id); `teacher`: only exams with one of their classes. */
  page(schoolId: number, teacher: number | null, f: ExamListFilter): Promise<Page<ExamRow>> {
    const keyword = containsPattern(f.keyword);
    const matching = (eb: ExpressionBuilder<E, 'e'>) =>
      eb.and([
        eb('e.school_id', '=', schoolId),
        ...(teacher !== null
          ? [
              eb.exists(
                eb
                  .selectFrom('exam_classes as ec')
                  .innerJoin('care_classes as c', 'c.id', 'ec.class_id')
                  .select(one)
                  .whereRef('ec.exam_id', '=', 'e.id')
                  .where((x) => ownClass(x, teacher)),
              ),
            ]
          : []),
        ...(f.class_ids?.length
          ? [
              eb.exists(
                eb
                  .selectFrom('exam_classes as ec')
                  .select(one)
                  .whereRef('ec.exam_id', '=', 'e.id')
                  .where('ec.class_id', '=', sql<number>`any(${f.class_ids}::int[])`),
              ),
            ]
          : []),
        ...(f.subjects?.length ? [eb('e.subject', '=', sql<string>`any(${f.subjects}::text[])`)] : []),
        ...(keyword ? [eb('e.name', 'like', keyword)] : []),
        ...(f.date_from ? [eb('e.exam_day', '>=', sql<string>`${f.date_from}::date`)] : []),
        ...(f.date_to ? [eb('e.exam_day', '<=', sql<string>`${f.date_to}::date`)] : []),
        ...(f.published === undefined ? [] : [eb('e.published_at', f.published ? 'is not' : 'is', null)]),
      ]);
    const total = kdb(this.db)
      .selectFrom('exams as e')
      .select((eb) => eb.cast<number>(eb.fn.countAll(), 'integer').as('total'))
      .where(matching);
    const list = exams(this.db).where(matching).orderBy('e.exam_day', 'desc').orderBy('e.id', 'desc');
    return pageRows(this.db, total, list, f);
  }

  /** One exam with its counts (no school check: the id comes from a checked exam). */
  read(on: Queryable, id: number): Promise<ExamRow> {
    return exams(on).where('e.id', '=', id).executeTakeFirstOrThrow();
  }

  /**
   * The exam's head of the caller's school (with `lock`: locked), its classes and those of them that are the
   * teacher's (`teacher` null: all of them).
   */
  head(on: Queryable, schoolId: number, id: number, teacher: number | null, lock: boolean) {
    return kdb(on)
      .selectFrom('exams as e')
      .select((eb) => [
        'e.id',
        'e.name',
        'e.subject',
        'e.full_mark',
        'e.pass2',
        'e.version',
        'e.scores_version',
        'e.published_at',
        eb.fn
          .coalesce(
            sql<
              number[]
            >`array(${eb.selectFrom('exam_classes as ec').select('ec.class_id').whereRef('ec.exam_id', '=', 'e.id').orderBy('ec.class_id')})`,
            sql<number[]>`'{}'`,
          )
          .as('class_ids'),
        eb.fn
          .coalesce(
            sql<number[]>`array(${eb
              .selectFrom('exam_classes as ec')
              .innerJoin('care_classes as c', 'c.id', 'ec.class_id')
              .select('ec.class_id')
              .whereRef('ec.exam_id', '=', 'e.id')
              .$if(teacher !== null, (q) => q.where((x) => ownClass(x, teacher!)))
              .orderBy('ec.class_id')})`,
            sql<number[]>`'{}'`,
          )
          .as('own_ids'),
      ])
      .where('e.id', '=', id)
      .where('e.school_id', '=', schoolId)
      .$if(lock, (q) => q.forUpdate('e'))
      .executeTakeFirst();
  }

  async insert(
    on: Queryable,
    v: { schoolId: number; name: string; subject: string; examDay: string; fullMark: number; pass2: number | null; createdBy: number },
  ) {
    const r = await kdb(on)
      .insertInto('exams')
      .values({
        school_id: v.schoolId,
        name: v.name,
        subject: v.subject,
        exam_day: v.examDay,
        full_mark: v.fullMark,
        pass2: v.pass2,
        created_by: v.createdBy,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return r.id;
  }

  /** Adds the classes to the exam (`ignoreTaken`: those it has already are kept as they are). */
  async addClasses(on: Queryable, examId: number, schoolId: number, classIds: number[], ignoreTaken: boolean): Promise<void> {
    if (!classIds.length) return;
    await kdb(on)
      .insertInto('exam_classes')
      .values(classIds.map((class_id) => ({ exam_id: examId, class_id, school_id: schoolId })))
      .$if(ignoreTaken, (q) => q.onConflict((oc) => oc.doNothing()))
      .execute();
  }

  async removeClasses(on: Queryable, examId: number, classIds: number[]): Promise<void> {
    await kdb(on).deleteFrom('exam_classes').where('exam_id', '=', examId).where('class_id', '=', anyOf(classIds)).execute();
  }

  /** The highest score entered (in half points), null without any. */
  async maxScore2(on: Queryable, examId: number): Promise<number | null> {
    const r = await kdb(on)
      .selectFrom('exam_scores')
      .select((eb) => eb.fn.max('score2').as('max2'))
      .where('exam_id', '=', examId)
      .executeTakeFirstOrThrow();
    return r.max2;
  }

  /** The name of a class of `classIds` with a score of the exam, if any. */
  async classWithScores(on: Queryable, examId: number, classIds: number[]): Promise<string | undefined> {
    const r = await kdb(on)
      .selectFrom('exam_scores as sc')
      .innerJoin('care_classes as c', 'c.id', 'sc.class_id')
      .select('c.name')
      .where('sc.exam_id', '=', examId)
      .where('sc.class_id', '=', anyOf(classIds))
      .limit(1)
      .executeTakeFirst();
    return r?.name;
  }

  async update(on: Queryable, id: number, v: { name: string; subject: string; examDay: string; fullMark: number; pass2: number | null }) {
    await kdb(on)
      .updateTable('exams')
      .set((eb) => ({
        name: v.name,
        subject: v.subject,
        exam_day: v.examDay,
        full_mark: v.fullMark,
        pass2: v.pass2,
        version: eb('version', '+', 1),
        updated_at: sql`now()`,
      }))
      .where('id', '=', id)
      .execute();
  }

  async scoreCount(on: Queryable, examId: number): Promise<number> {
    const r = await kdb(on)
      .selectFrom('exam_scores')
      .select((eb) => eb.cast<number>(eb.fn.countAll(), 'integer').as('scores'))
      .where('exam_id', '=', examId)
      .executeTakeFirstOrThrow();
    return r.scores;
  }

  async delete(on: Queryable, id: number): Promise<void> {
    await kdb(on).deleteFrom('exams').where('id', '=', id).execute();
  }

  /** Publishes (the first publish's time kept) and moves the version on. */
  publish(on: Queryable, id: number) {
    return kdb(on)
      .updateTable('exams')
      .set((eb) => ({
        published_at: eb.fn.coalesce('published_at', sql<Date>`now()`),
        version: eb('version', '+', 1),
        updated_at: sql`now()`,
      }))
      .where('id', '=', id)
      .returning(['published_at', 'version'])
      .executeTakeFirstOrThrow();
  }

  /**
   * The guardians (parents' live accounts) of the students with a score not told yet of the exam, remembered as told
   * now (exam_texts) in the same statement, with their children's names and the school's name.
   */
  toTell(on: Queryable, examId: number, schoolId: number) {
    return kdb(on)
      .with('g', (db) =>
        db
          .selectFrom('exam_scores as sc')
          .innerJoin('students as s', 's.id', 'sc.student_id')
          .innerJoin('student_guardians as sg', 'sg.student_id', 'sc.student_id')
          .innerJoin('users as u', (j) => j.onRef('u.id', '=', 'sg.user_id').on('u.role', '=', Role.Parent).on('u.deleted_at', 'is', null))
          .select((eb) => ['sg.user_id', sql<string>`string_agg(distinct ${eb.ref('s.name')}, '、')`.as('students')])
          .where('sc.exam_id', '=', examId)
          .groupBy('sg.user_id'),
      )
      .with('ins', (db) =>
        db
          .insertInto('exam_texts')
          .columns(['exam_id', 'guardian_id', 'school_id'])
          .expression(db.selectFrom('g').select((eb) => [eb.val(examId).as('exam_id'), 'g.user_id', eb.val(schoolId).as('school_id')]))
          .onConflict((oc) => oc.doNothing())
          .returning('guardian_id'),
      )
      .selectFrom('g')
      .innerJoin('ins', 'ins.guardian_id', 'g.user_id')
      .innerJoin('schools as sch', (j) => j.on('sch.id', '=', schoolId))
      .select(['g.user_id', 'g.students', 'sch.name as school'])
      .execute();
  }

  // ---------------------------------------------------------------- scores

  /**
   * The exam's head (of the school) and its roster, each a named prepared statement: planning the roster took longer
   * than running it (5.7 ms against 4.4 at 2,000 scores). Built here, run prepared on the pool.
   */
  async scoreSheet(examId: number, schoolId: number): Promise<[ExamHeadRow | undefined, RosterRow[]]> {
    const head = examHead(this.db).where('e.id', '=', examId).where('e.school_id', '=', schoolId).compile();
    const rows = roster(this.db, examId, schoolId).compile();
    const [[h], r] = await Promise.all([
      preparedQuery<ExamHeadRow>(this.db, 'exams.score_head', head.sql, [...head.parameters]),
      preparedQuery<RosterRow>(this.db, 'exams.score_roster', rows.sql, [...rows.parameters]),
    ]);
    return [h, r];
  }

  /** The students of `ids` in the school, with their class (the score's, else their care class's), scored, active. */
  students(on: Queryable, examId: number, schoolId: number, ids: number[]) {
    return kdb(on)
      .selectFrom('students as s')
      .leftJoin('care_class_students as ccs', 'ccs.student_id', 's.id')
      .leftJoin('exam_scores as sc', (j) => j.on('sc.exam_id', '=', examId).onRef('sc.student_id', '=', 's.id'))
      .select((eb) => [
        's.id',
        's.name',
        eb.fn.coalesce('sc.class_id', 'ccs.class_id').as('class_id'),
        eb('sc.student_id', 'is not', null).as('scored'),
        eb('s.status', '=', StudentStatus.Active).as('active'),
      ])
      .where('s.id', '=', sql<number>`any(${ids}::int[])`)
      .where('s.school_id', '=', schoolId)
      .execute();
  }

  /** Writes checked rows with their log lines (one statement); answers how many were written. */
  async writeScores(
    on: Queryable,
    v: {
      examId: number;
      schoolId: number;
      actorId: number;
      rows: Array<{ student_id: number; class_id: number; score2: number | null; absent: boolean }>;
    },
  ): Promise<number> {
    const rows = v.rows;
    const r = await kdb(on)
      .with('v', (db) =>
        db
          .selectFrom(
            sql<{
              student_id: number;
              score2: number | null;
              absent: boolean;
              class_id: number;
            }>`unnest(${rows.map((g) => g.student_id)}::int[], ${rows.map((g) => g.score2)}::int[], ${rows.map((g) => g.absent)}::bool[], ${rows.map((g) => g.class_id)}::int[])`.as<'v'>(
              sql`v(student_id, score2, absent, class_id)`,
            ),
          )
          .selectAll(),
      )
      .with('up', (db) =>
        db
          .insertInto('exam_scores')
          .columns(['exam_id', 'student_id', 'school_id', 'class_id', 'score2', 'absent', 'entered_by', 'entered_at'])
          .expression(
            db
              .selectFrom('v')
              .select((eb) => [
                eb.val(v.examId).as('exam_id'),
                'v.student_id',
                eb.val(v.schoolId).as('school_id'),
                'v.class_id',
                'v.score2',
                'v.absent',
                eb.val(v.actorId).as('entered_by'),
                sql<Date>`now()`.as('entered_at'),
              ]),
          )
          .onConflict((oc) =>
            oc.columns(['exam_id', 'student_id']).doUpdateSet((eb) => ({
              score2: eb.ref('excluded.score2'),
              absent: eb.ref('excluded.absent'),
              entered_by: eb.ref('excluded.entered_by'),
              entered_at: sql<Date>`now()`,
            })),
          )
          .returning(['student_id', 'score2', 'absent']),
      )
      .with('lg', (db) =>
        db
          .insertInto('exam_score_log')
          .columns(['exam_id', 'student_id', 'school_id', 'action', 'score2', 'absent', 'actor_id'])
          .expression(
            db
              .selectFrom('up')
              .select((eb) => [
                eb.val(v.examId).as('exam_id'),
                'up.student_id',
                eb.val(v.schoolId).as('school_id'),
                sql.lit('set').as('action'),
                'up.score2',
                'up.absent',
                eb.val(v.actorId).as('actor_id'),
              ]),
          )
          .returning(sql.lit(1).as('one')),
      )
      .selectNoFrom((eb) => [
        eb
          .selectFrom('up')
          .select((x) => x.cast<number>(x.fn.countAll(), 'integer').as('n'))
          .as('n'),
        eb
          .selectFrom('lg')
          .select((x) => x.fn.countAll().as('logged'))
          .as('logged'),
      ])
      .executeTakeFirstOrThrow();
    return r.n!;
  }

  /** Moves the exam's scores_version on; answers the new one. */
  async bumpScores(on: Queryable, examId: number): Promise<number> {
    const r = await kdb(on)
      .updateTable('exams')
      .set((eb) => ({ scores_version: eb('scores_version', '+', 1) }))
      .where('id', '=', examId)
      .returning('scores_version')
      .executeTakeFirstOrThrow();
    return r.scores_version;
  }

  /** The class of a student's score of the exam (undefined: no score). */
  score(on: Queryable, examId: number, studentId: number) {
    return kdb(on).selectFrom('exam_scores').select('class_id').where('exam_id', '=', examId).where('student_id', '=', studentId).executeTakeFirst();
  }

  /** Deletes a student's score with its log line (one statement). */
  async deleteScore(on: Queryable, v: { examId: number; studentId: number; schoolId: number; actorId: number }): Promise<void> {
    await kdb(on)
      .with('d', (db) =>
        db
          .deleteFrom('exam_scores')
          .where('exam_id', '=', v.examId)
          .where('student_id', '=', v.studentId)
          .returning(['student_id', 'score2', 'absent']),
      )
      .insertInto('exam_score_log')
      .columns(['exam_id', 'student_id', 'school_id', 'action', 'score2', 'absent', 'actor_id'])
      .expression((db) =>
        db
          .selectFrom('d')
          .select((eb) => [
            eb.val(v.examId).as('exam_id'),
            'd.student_id',
            eb.val(v.schoolId).as('school_id'),
            sql.lit('delete').as('action'),
            'd.score2',
            'd.absent',
            eb.val(v.actorId).as('actor_id'),
          ]),
      )
      .execute();
  }

  /** The guardian's child of the school. */
  child(schoolId: number, studentId: number, guardian: number) {
    return kdb(this.db)
      .selectFrom('students as s')
      .innerJoin('student_guardians as g', (j) => j.onRef('g.student_id', '=', 's.id').on('g.user_id', '=', guardian))
      .select(['s.id', 's.name'])
      .where('s.id', '=', studentId)
      .where('s.school_id', '=', schoolId)
      .executeTakeFirst();
  }

  /** A page of the child's published scores, newest exam first: score, rank in the class, the class's count and average. */
  parentScores(studentId: number, limit: number, offset: number) {
    return kdb(this.db)
      .selectFrom('exam_scores as m')
      .innerJoin('exams as e', (j) => j.onRef('e.id', '=', 'm.exam_id').on('e.published_at', 'is not', null))
      .leftJoin('care_classes as c', 'c.id', 'm.class_id')
      .innerJoinLateral(
        (eb) =>
          eb
            .selectFrom('exam_scores as o')
            .select((x) => [
              x.cast<number>(x.fn.countAll(), 'integer').as('class_count'),
              sql<number | null>`round(avg(${x.ref('o.score2')}) / 2.0, 1)::float8`.as('class_average'),
            ])
            .whereRef('o.exam_id', '=', 'm.exam_id')
            .where((x) => x('o.class_id', 'is not distinct from', x.ref('m.class_id')))
            .where('o.absent', '=', false)
            .as('k'),
        (j) => j.onTrue(),
      )
      .select((eb) => [
        sql<number>`count(*) over ()::int`.as('total'),
        'e.id as exam_id',
        'e.name',
        'e.subject',
        sql<string>`to_char(${eb.ref('e.exam_day')}, 'YYYY-MM-DD')`.as('exam_day'),
        'e.full_mark',
        'e.pass2',
        'c.name as class_name',
        'm.score2',
        'm.absent',
        eb
          .case()
          .when('m.absent', '=', true)
          .then(sql<number | null>`null`)
          .else(
            eb
              .selectFrom('exam_scores as o')
              .select(sql<number>`count(*)::int + 1`.as('rank'))
              .whereRef('o.exam_id', '=', 'm.exam_id')
              .where((x) => x('o.class_id', 'is not distinct from', x.ref('m.class_id')))
              .where('o.absent', '=', false)
              .whereRef('o.score2', '>', 'm.score2'),
          )
          .end()
          .as('class_rank'),
        'k.class_count',
        'k.class_average',
      ])
      .where('m.student_id', '=', studentId)
      .orderBy('e.exam_day', 'desc')
      .orderBy('e.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  /** How many published scores the child has. */
  async parentScoreCount(studentId: number): Promise<number> {
    const r = await kdb(this.db)
      .selectFrom('exam_scores as m')
      .innerJoin('exams as e', (j) => j.onRef('e.id', '=', 'm.exam_id').on('e.published_at', 'is not', null))
      .select((eb) => eb.cast<number>(eb.fn.countAll(), 'integer').as('n'))
      .where('m.student_id', '=', studentId)
      .executeTakeFirstOrThrow();
    return r.n;
  }
}
