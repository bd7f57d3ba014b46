import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  itemSlides,
  LESSON_PLAN_MAX_SLIDES,
  Role,
  type DelPrepareLessonsInput,
  type LessonClassOption,
  type LessonPlanDetail,
  type LessonPlanItem,
  type LessonPlanRow,
  type LessonPlanSaved,
  type Page,
  type PrepareLessonsClassesQuery,
  type PrepareLessonsInput,
  type PrepareLessonsListQuery,
} from '@wantuo/shared';
import { DataSource, type EntityManager } from 'typeorm';
import { containsPattern, offsetOf, pageOf } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { CoursewareFilesService } from './courseware-files.service';
import { FILES_OPEN } from './courseware-sql';

/**
 * Whether user `me` teaches the class of row `x` (its class_kind and class_id): the head teacher or a teacher on duty
 * of a care class, the teacher of a teaching or tutoring class.
 */
const teaches = (x: string, me: string) => `(case ${x}.class_kind
  when 'care' then exists (select 1 from care_classes k where k.id = ${x}.class_id
                             and (k.head_teacher_id = ${me} or exists (select 1 from duty_assignments d where d.class_id = k.id and d.teacher_id = ${me})))
  when 'teaching' then exists (select 1 from teaching_classes k where k.id = ${x}.class_id and k.teacher_id = ${me})
  else exists (select 1 from tutoring_classes k where k.id = ${x}.class_id and k.teacher_id = ${me}) end)`;

/**
 * The classes of school $1 a plan may be for, with whether user $2 teaches each (`mine`): care, teaching and tutoring
 * classes that are not deleted.
 */
const CLASSES = `
  select 'care'::text as kind, k.id, k.name, k.status,
         (k.head_teacher_id = $2 or exists (select 1 from duty_assignments d where d.class_id = k.id and d.teacher_id = $2)) as mine
    from care_classes k where k.school_id = $1 and k.deleted_at is null
  union all
  select 'teaching', k.id, k.name, k.status, k.teacher_id = $2 from teaching_classes k where k.school_id = $1 and k.deleted_at is null
  union all
  select 'tutoring', k.id, k.name, k.status, k.teacher_id = $2 from tutoring_classes k where k.school_id = $1 and k.deleted_at is null`;

/** The class name of a plan `p`. */
const CLASS_JOINS = `
  left join care_classes kc on p.class_kind = 'care' and kc.id = p.class_id
  left join teaching_classes kt on p.class_kind = 'teaching' and kt.id = p.class_id
  left join tutoring_classes ku on p.class_kind = 'tutoring' and ku.id = p.class_id`;

/** A plan `p` as lists show it, for user $me who is the admin when $admin (with CLASS_JOINS and the author `u`). */
const rowColumns = (admin: string, me: string) => `p.id, p.title, p.class_kind, p.class_id, coalesce(kc.name, kt.name, ku.name) as class_name,
  to_char(p.lesson_date, 'YYYY-MM-DD') as lesson_date, p.author_id, u.name as author_name, p.items, p.slides,
  (${admin} or p.author_id = ${me}) as editable, p.version, p.updated_at`;

/** Whether user $me (the admin when $admin) may read plan `p`: the admin, its author, a teacher of its class. */
const mayRead = (admin: string, me: string) => `(${admin} or p.author_id = ${me} or ${teaches('p', me)})`;

/** Appends plan $1 as it now is (with its items) to its history: one statement. */
const APPEND_REVISION = `
  insert into lesson_plan_revisions (plan_id, version, action, saved_by, plan)
  select p.id, p.version, $2, $3, jsonb_build_object(
           'title', p.title, 'class_kind', p.class_kind, 'class_id', p.class_id, 'lesson_date', p.lesson_date, 'objectives', p.objectives,
           'steps', p.steps, 'items', coalesce((select jsonb_agg(jsonb_build_object('file_id', i.courseware_file_id, 'pages', i.pages, 'note', i.note) order by i.position)
                                                  from lesson_plan_items i where i.plan_id = p.id), '[]'::jsonb))
    from lesson_plans p where p.id = $1`;

interface ItemRow extends Omit<LessonPlanItem, 'url' | 'expires_at'> {
  stored_id: string | null;
  video_url: string | null;
}

/**
 * Lesson preparation (`prepareLessons`, `prepareLessonsInfo`, the list, the class picker, removal). A plan is for a
 * class of the school on a day, with objectives, steps and the courseware files it uses (a PDF's chosen pages): every
 * file must be one the school may open when the plan is saved, and is checked again whenever the plan is opened, so a
 * refunded courseware shows as locked. The admin plans for any class and edits any plan; a teacher or head teacher plans
 * for the classes they teach, reads their own plans and those of their classes, and edits their own. Edits carry the
 * version read (a concurrent edit is refused, never overwritten); every saved version is appended to
 * lesson_plan_revisions.
 */
@Injectable()
export class LessonPlansService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly files: CoursewareFilesService,
  ) {}

  async classes(user: SchoolCaller, q: PrepareLessonsClassesQuery): Promise<LessonClassOption[]> {
    return this.db.query(
      `select kind, id, name from (${CLASSES}) k
        where k.status = 1 and ($3 or k.mine) and ($4::text is null or k.name ilike $4)
        order by array_position(array['care', 'teaching', 'tutoring'], k.kind), k.id limit 50`,
      [user.schoolId, user.id, user.role === Role.Admin, containsPattern(q.keyword)],
    );
  }

  async list(user: SchoolCaller, q: PrepareLessonsListQuery): Promise<Page<LessonPlanRow>> {
    const conds = ['p.school_id = $1', 'p.deleted_at is null', mayRead('$3', '$2')];
    const values: unknown[] = [user.schoolId, user.id, user.role === Role.Admin];
    const at = (v: unknown) => `$${values.push(v)}`;
    if (q.mine) conds.push('p.author_id = $2');
    if (q.class_kind) conds.push(`p.class_kind = ${at(q.class_kind)}`);
    if (q.class_id) conds.push(`p.class_id = ${at(q.class_id)}`);
    if (q.from) conds.push(`p.lesson_date >= ${at(q.from)}::date`);
    if (q.to) conds.push(`p.lesson_date <= ${at(q.to)}::date`);
    const keyword = containsPattern(q.keyword);
    if (keyword) conds.push(`p.title ilike ${at(keyword)}`);
    const where = conds.join(' and ');
    const n = values.length;
    const [list, [{ total }]] = await Promise.all([
      this.db.query(
        `select ${rowColumns('$3', '$2')} from lesson_plans p join users u on u.id = p.author_id ${CLASS_JOINS}
          where ${where} order by p.lesson_date desc, p.id desc limit $${n + 1} offset $${n + 2}`,
        [...values, q.limit, offsetOf(q)],
      ) as Promise<LessonPlanRow[]>,
      this.db.query(`select count(*)::int as total from lesson_plans p where ${where}`, values) as Promise<Array<{ total: number }>>,
    ]);
    return pageOf(list, total, q);
  }

  /** One plan with its items, each checked again (a refund locks it) and, when open, with a signed URL. */
  async info(user: SchoolCaller, id: number): Promise<LessonPlanDetail> {
    const [p]: Array<Omit<LessonPlanDetail, 'items_list'> & { items_list: ItemRow[] }> = await this.db.query(
      `select ${rowColumns('$3', '$2')}, p.objectives, p.steps, p.created_at,
              coalesce((select json_agg(json_build_object(
                         'position', i.position, 'file_id', cf.id, 'courseware_id', c.id, 'courseware_title', c.title, 'section_id', s.id,
                         'section_title', s.title, 'name', cf.name, 'kind', cf.kind, 'pages', i.pages, 'total_pages', cf.pages, 'note', i.note,
                         'open', coalesce(${FILES_OPEN}, false), 'stored_id', cf.file_id, 'video_url', cf.video_url) order by i.position)
                  from lesson_plan_items i
                  join courseware_files cf on cf.id = i.courseware_file_id
                  join courseware_sections s on s.id = cf.section_id
                  join coursewares c on c.id = s.courseware_id
                 where i.plan_id = p.id), '[]') as items_list
         from lesson_plans p join users u on u.id = p.author_id ${CLASS_JOINS}
        where p.id = $4 and p.school_id = $1 and p.deleted_at is null and ${mayRead('$3', '$2')}`,
      [user.schoolId, user.id, user.role === Role.Admin, id],
    );
    if (!p) throw new AppError('courseware.plan_not_found');
    const items = await Promise.all(
      p.items_list.map(async ({ stored_id, video_url, ...item }): Promise<LessonPlanItem> => {
        if (!item.open) return { ...item, url: null, expires_at: null };
        if (!stored_id) return { ...item, url: video_url, expires_at: null };
        const signed = await this.files.sign(stored_id, user.schoolId);
        return { ...item, url: signed.url, expires_at: signed.expires_at };
      }),
    );
    return { ...p, items_list: items };
  }

  async save(user: SchoolCaller, input: PrepareLessonsInput): Promise<LessonPlanSaved> {
    const admin = user.role === Role.Admin;
    return this.db.transaction(async (m) => {
      // a running class the caller may plan for (a plan of a class stopped since keeps its class when edited)
      const [cls] = await m.query(
        `select 1 from (${CLASSES}) k
          where k.kind = $3 and k.id = $4 and ($5 or k.mine)
            and (k.status = 1 or exists (select 1 from lesson_plans p where p.id = $6 and p.school_id = $1 and p.class_kind = k.kind and p.class_id = k.id))`,
        [user.schoolId, user.id, input.class_kind, input.class_id, admin, input.id ?? 0],
      );
      if (!cls) throw new AppError('courseware.plan_class_not_found');
      const slides = await this.checkItems(m, user.schoolId, input.items);
      const fields = [
        input.title,
        input.class_kind,
        input.class_id,
        input.lesson_date,
        input.objectives ?? '',
        JSON.stringify(input.steps),
        input.items.length,
        slides,
      ];
      let saved: { id: number; version: number } | undefined;
      if (input.id === undefined) {
        [saved] = await m.query(
          `insert into lesson_plans (school_id, author_id, title, class_kind, class_id, lesson_date, objectives, steps, items, slides)
           values ($1, $2, $3, $4, $5, $6::date, $7, $8::jsonb, $9, $10) returning id, version`,
          [user.schoolId, user.id, ...fields],
        );
      } else {
        [saved] = await m.query(
          `with u as (
             update lesson_plans set title = $3, class_kind = $4, class_id = $5, lesson_date = $6::date, objectives = $7, steps = $8::jsonb, items = $9,
                    slides = $10, version = version + 1, updated_at = now()
              where id = $11 and school_id = $1 and deleted_at is null and version = $12 and ($13 or author_id = $2)
              returning id, version)
           select * from u`,
          [user.schoolId, user.id, ...fields, input.id, input.version, admin],
        );
        if (!saved) await this.refuse(m, user, input.id);
        await m.query(`with d as (delete from lesson_plan_items where plan_id = $1 returning 1) select count(*) from d`, [input.id]);
      }
      const plan = saved!;
      await m.query(
        `insert into lesson_plan_items (plan_id, position, courseware_file_id, pages, note)
         select $1, e.ord - 1, (e.v->>'file_id')::int,
                case when jsonb_typeof(e.v->'pages') = 'array' then array(select jsonb_array_elements_text(e.v->'pages')::int) end,
                coalesce(e.v->>'note', '')
           from jsonb_array_elements($2::jsonb) with ordinality e(v, ord)`,
        [plan.id, JSON.stringify(input.items)],
      );
      await m.query(APPEND_REVISION, [plan.id, input.id === undefined ? 'create' : 'edit', user.id]);
      return { id: plan.id, version: plan.version, slides };
    });
  }

  async remove(user: SchoolCaller, input: DelPrepareLessonsInput): Promise<{ id: number }> {
    return this.db.transaction(async (m) => {
      const [done] = await m.query(
        `with u as (
           update lesson_plans set deleted_at = now(), deleted_by = $2, version = version + 1, updated_at = now()
            where id = $4 and school_id = $1 and deleted_at is null and version = $5 and ($3 or author_id = $2)
            returning id)
         select * from u`,
        [user.schoolId, user.id, user.role === Role.Admin, input.id, input.version],
      );
      if (!done) await this.refuse(m, user, input.id);
      await m.query(APPEND_REVISION, [input.id, 'delete', user.id]);
      return { id: input.id };
    });
  }

  /**
   * The files of a plan, in order: each a file the school may open; a PDF's pages within it (other kinds take no
   * pages); the plan's slides within the bound. Answers the slides. One query.
   */
  private async checkItems(m: EntityManager, schoolId: number, items: PrepareLessonsInput['items']): Promise<number> {
    if (!items.length) return 0;
    const rows: Array<{ id: number; kind: LessonPlanItem['kind']; pages: number | null; open: boolean }> = await m.query(
      `select cf.id, cf.kind, cf.pages, ${FILES_OPEN} as open
         from courseware_files cf
         join courseware_sections s on s.id = cf.section_id
         join coursewares c on c.id = s.courseware_id
        where cf.id = any($2::int[]) and (s.school_id is null or s.school_id = $1) and (c.school_id is null or c.school_id = $1)`,
      [schoolId, [...new Set(items.map((i) => i.file_id))]],
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    let slides = 0;
    items.forEach((item, i) => {
      const n = i + 1;
      const f = byId.get(item.file_id);
      if (!f?.open) throw new AppError('courseware.plan_file_locked', { n });
      const pages = item.pages ?? null;
      if (pages && f.kind !== 'pdf') throw new AppError('courseware.plan_pages_pdf_only', { n });
      if (pages && f.pages !== null && pages.some((p) => p > f.pages!)) throw new AppError('courseware.plan_pages_out_of_range', { n, max: f.pages });
      slides += itemSlides({ kind: f.kind, pages, total: f.pages });
    });
    if (slides > LESSON_PLAN_MAX_SLIDES) throw new AppError('courseware.plan_too_many_slides', { n: slides, max: LESSON_PLAN_MAX_SLIDES });
    return slides;
  }

  /** Why an edit or removal of plan `id` changed nothing: not there (or not the caller's to see), not theirs, or stale. */
  private async refuse(m: EntityManager, user: SchoolCaller, id: number): Promise<never> {
    const admin = user.role === Role.Admin;
    const [p]: Array<{ editable: boolean }> = await m.query(
      `select ($3 or p.author_id = $2) as editable from lesson_plans p where p.id = $4 and p.school_id = $1 and p.deleted_at is null and ${mayRead('$3', '$2')}`,
      [user.schoolId, user.id, admin, id],
    );
    if (!p) throw new AppError('courseware.plan_not_found');
    throw new AppError(p.editable ? 'courseware.plan_stale' : 'courseware.plan_not_editable');
  }
}
