import { defaultPass2, Role, type Exam } from '@wantuo/shared';
import type { EntityManager } from 'typeorm';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';

/**
 * "Own classes" of a teacher or head teacher (the rule of the care module's classesOf): the live care classes they
 * head, or have a duty in. An exam covers care classes only (teaching classes have a teacher and a subject of their
 * own but no exams). `c` is a care class, `me` the caller's id parameter.
 */
export const OWN_CLASS = (c: string, me: string) =>
  `(${c}.head_teacher_id = ${me} or exists (select 1 from duty_assignments d where d.class_id = ${c}.id and d.teacher_id = ${me}))`;

/** A teacher or head teacher (limited to own classes); else the admin (the whole school). */
export const isTeacher = (user: SessionUser) => user.role === Role.Teacher || user.role === Role.HeadTeacher;

export const schoolOf = (user: SessionUser): number => user.schoolId ?? -1;

/** The columns of an exam (`e`) as the Exam answer, with its classes (names); EXAM_COLUMNS adds its score counts. */
export const EXAM_HEAD_COLUMNS = `e.id, e.name, e.subject, to_char(e.exam_day, 'YYYY-MM-DD') as exam_day, e.full_mark, e.pass2,
  e.published_at, e.created_at, e.version, e.scores_version, cu.name as created_by_name,
  coalesce((select json_agg(json_build_object('id', c.id, 'name', c.name) order by c.name, c.id)
              from exam_classes ec join care_classes c on c.id = ec.class_id where ec.exam_id = e.id), '[]'::json) as classes`;
/** EXAM_HEAD_COLUMNS with the score counts and average. */
export const EXAM_COLUMNS = `${EXAM_HEAD_COLUMNS},
  (select count(*) filter (where not sc.absent)::int from exam_scores sc where sc.exam_id = e.id) as scored,
  (select count(*) filter (where sc.absent)::int from exam_scores sc where sc.exam_id = e.id) as absent,
  (select round(avg(sc.score2) / 2.0, 1)::float8 from exam_scores sc where sc.exam_id = e.id and not sc.absent) as average`;
export const EXAM_JOINS = `left join users cu on cu.id = e.created_by`;

export interface ExamDbRow extends Omit<Exam, 'pass_mark' | 'pass_mark_given'> {
  pass2: number | null;
}

/** The Exam answer of a row (pass mark in marks, the default one when none was given). */
export function toExam(r: ExamDbRow): Exam {
  const { pass2, ...rest } = r;
  return { ...rest, pass_mark: (pass2 ?? defaultPass2(r.full_mark)) / 2, pass_mark_given: pass2 !== null };
}

export interface ExamHead {
  id: number;
  name: string;
  subject: string;
  full_mark: number;
  pass2: number | null;
  version: number;
  scores_version: number;
  published_at: string | null;
  /** the exam's classes, and those of them that are the caller's (all of them for the admin) */
  class_ids: number[];
  own_ids: number[];
}

/**
 * Reads (with `lock`: locks) an exam of the caller's school. A teacher only finds exams with at least one own class;
 * with `manage`, only exams all of whose classes are theirs (else `exams.not_own_class`).
 */
export async function examOf(
  em: Pick<EntityManager, 'query'>,
  user: SessionUser,
  id: number,
  opts: { lock?: boolean; manage?: boolean } = {},
): Promise<ExamHead> {
  const teacher = isTeacher(user);
  const [row]: ExamHead[] = await em.query(
    `select e.id, e.name, e.subject, e.full_mark, e.pass2, e.version, e.scores_version, e.published_at,
            coalesce(array(select ec.class_id from exam_classes ec where ec.exam_id = e.id order by ec.class_id), '{}') as class_ids,
            coalesce(array(select ec.class_id from exam_classes ec join care_classes c on c.id = ec.class_id
                            where ec.exam_id = e.id and ($3::int is null or ${OWN_CLASS('c', '$3')}) order by ec.class_id), '{}') as own_ids
       from exams e where e.id = $1 and e.school_id = $2 ${opts.lock ? 'for update of e' : ''}`,
    [id, schoolOf(user), teacher ? user.id : null],
  );
  if (!row || row.own_ids.length === 0) throw new AppError('exams.not_found');
  if (opts.manage && row.own_ids.length !== row.class_ids.length) throw new AppError('exams.not_own_class');
  return row;
}

/** Checks that the classes exist in the caller's school, are live and (for a teacher) are own classes. */
export async function checkClasses(em: Pick<EntityManager, 'query'>, user: SessionUser, ids: number[]): Promise<void> {
  const teacher = isTeacher(user);
  const found: Array<{ id: number }> = await em.query(
    `select c.id from care_classes c where c.school_id = $1 and c.id = any($2::int[]) and c.deleted_at is null
        and ($3::int is null or ${OWN_CLASS('c', '$3')})`,
    [schoolOf(user), ids, teacher ? user.id : null],
  );
  if (found.length !== ids.length) {
    const ok = new Set(found.map((r) => r.id));
    throw new AppError('exams.classes_not_found', { ids: ids.filter((id) => !ok.has(id)).join(', ') });
  }
}
