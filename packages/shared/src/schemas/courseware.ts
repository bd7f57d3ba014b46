import { z } from 'zod';
import { LESSON_CLASS_KINDS, LESSON_PLAN_MAX_ITEM_PAGES, LESSON_PLAN_MAX_ITEMS, LESSON_PLAN_MAX_PAGE, LESSON_PLAN_MAX_STEPS } from '../lesson-plans';
import { flag, lineText, pageQuery, plainText } from './common';
import { isCalendarDay } from '../school-time';

/**
 * Courseware (issue 15, module `courseware`): the catalogue's dictionaries, courseware with sections and files, its
 * purchase by a school, and the files behind it (served only to schools that own it, through short-lived signed URLs).
 */

export const COURSEWARE_DICT_KINDS = ['subject', 'discipline', 'grade', 'term', 'tixi', 'edition'] as const;
export type CoursewareDictKind = (typeof COURSEWARE_DICT_KINDS)[number];
/** The filter of coursewareCenter for each dictionary. */
export const COURSEWARE_FILTERS = ['subject_id', 'discipline_id', 'grade_id', 'term_id', 'tixi_id', 'edition_id'] as const;
/** The highest price of one courseware: 100,000 yuan. */
export const COURSEWARE_MAX_PRICE_FEN = 10_000_000;
export const COURSEWARE_MAX_SECTIONS = 100;
export const COURSEWARE_MAX_FILES = 30;
/** How long a signed file URL stays valid. */
export const COURSEWARE_URL_TTL_SECONDS = 600;

const blank = (v: unknown) => (v === '' ? undefined : v);
const intOf = (error: string, min: number, max: number) => z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
const idOf = (error: string) => intOf(error, 1, 2_147_483_647);
const queryIdOf = (error: string) => z.coerce.number({ error }).int({ error }).min(1, { error }).max(2_147_483_647, { error });
const optionalQueryId = (error: string) => z.preprocess(blank, queryIdOf(error).optional());
const optionalId = (error: string) => z.preprocess((v) => (v === '' || v === 0 ? null : v), idOf(error).nullable().optional());
const version = idOf('courseware.v.version_invalid');
const requestId = z.string({ error: 'courseware.v.request_id_invalid' }).regex(/^[A-Za-z0-9_-]{8,64}$/, { error: 'courseware.v.request_id_invalid' });
const dealPwd = z.string({ error: 'courseware.v.deal_pwd_invalid' }).regex(/^\d{6}$/, { error: 'courseware.v.deal_pwd_invalid' });
const fileId = z.string({ error: 'courseware.v.file_invalid' }).uuid({ error: 'courseware.v.file_invalid' });
const title = (max: number) => lineText(max).min(1, { error: 'courseware.v.title_required' });
const VIDEO_RE = /^https:\/\/[^\s<>"'`\\]+$/;

// ---------------------------------------------------------------- dictionaries

/** Any dictionary: its active entries in order (the operator may ask for the inactive ones too). */
export const CoursewareDictQuery = z.strictObject({ all: z.preprocess(blank, flag.optional()) });
export type CoursewareDictQuery = z.infer<typeof CoursewareDictQuery>;

/** The operator adds (no id) or edits (id and version) an entry of one dictionary. */
export const SaveCoursewareDictInput = z.strictObject({
  kind: z.enum(COURSEWARE_DICT_KINDS, { error: 'courseware.v.kind_invalid' }),
  id: idOf('courseware.v.dict_invalid').optional(),
  name: lineText(30).min(1, { error: 'courseware.v.name_required' }),
  sort: intOf('courseware.v.sort_invalid', 0, 9999).optional(),
  active: z.boolean({ error: 'courseware.v.active_invalid' }).optional(),
  version: version.optional(),
});
export type SaveCoursewareDictInput = z.infer<typeof SaveCoursewareDictInput>;

// ---------------------------------------------------------------- the catalogue

export const CoursewareCenterQuery = z.strictObject({
  ...pageQuery,
  subject_id: optionalQueryId('courseware.v.dict_invalid'),
  discipline_id: optionalQueryId('courseware.v.dict_invalid'),
  grade_id: optionalQueryId('courseware.v.dict_invalid'),
  term_id: optionalQueryId('courseware.v.dict_invalid'),
  tixi_id: optionalQueryId('courseware.v.dict_invalid'),
  edition_id: optionalQueryId('courseware.v.dict_invalid'),
  keyword: z.preprocess(blank, lineText(32).optional()),
  /** only what the school owns (true) or does not own (false) */
  owned: z.preprocess(blank, flag.optional()),
});
export type CoursewareCenterQuery = z.infer<typeof CoursewareCenterQuery>;

export const CoursewareIdQuery = z.strictObject({ id: queryIdOf('courseware.v.courseware_invalid') });
export type CoursewareIdQuery = z.infer<typeof CoursewareIdQuery>;

export const CoursewareSectionQuery = z.strictObject({ courseware_id: queryIdOf('courseware.v.courseware_invalid') });
export type CoursewareSectionQuery = z.infer<typeof CoursewareSectionQuery>;

/** A file of a section as written: a stored courseware file (coursewareUpload) or a video link. */
const sectionFile = z
  .strictObject({
    file_id: fileId.optional(),
    video_url: z
      .string({ error: 'courseware.v.video_invalid' })
      .trim()
      .max(500, { error: 'courseware.v.video_invalid' })
      .regex(VIDEO_RE, { error: 'courseware.v.video_invalid' })
      .optional(),
    name: title(100),
  })
  .refine((f) => (f.file_id === undefined) !== (f.video_url === undefined), { error: 'courseware.v.file_or_video' });
export type CoursewareSectionFileInput = z.infer<typeof sectionFile>;

const sectionFiles = z.array(sectionFile, { error: 'courseware.v.files_invalid' }).max(COURSEWARE_MAX_FILES, { error: 'courseware.v.files_invalid' });

/** A school adds a section (no id) to a courseware it owns or its own, or edits its own section (id and version). */
export const SaveCoursewareSectionInput = z.strictObject({
  courseware_id: idOf('courseware.v.courseware_invalid'),
  id: idOf('courseware.v.section_invalid').optional(),
  title: title(60),
  sort: intOf('courseware.v.sort_invalid', 0, 9999).optional(),
  files: sectionFiles,
  version: version.optional(),
});
export type SaveCoursewareSectionInput = z.infer<typeof SaveCoursewareSectionInput>;

/**
 * The files of one section, or of a whole courseware (every section the school sees, in order; `kind` narrows them:
 * the supporting materials and the recordings screens).
 */
export const CoursewareFileQuery = z
  .strictObject({
    section_id: optionalQueryId('courseware.v.section_invalid'),
    courseware_id: optionalQueryId('courseware.v.courseware_invalid'),
    kind: z.preprocess(blank, z.enum(['pdf', 'image', 'video', 'other'], { error: 'courseware.v.file_kind_invalid' }).optional()),
  })
  .refine((q) => (q.section_id === undefined) !== (q.courseware_id === undefined), { error: 'courseware.v.section_or_courseware' });
export type CoursewareFileQuery = z.infer<typeof CoursewareFileQuery>;

export type CoursewareFileKind = 'pdf' | 'image' | 'video' | 'other';

/** The PDF of a section: its first PDF, or the one asked for. */
export const CoursewarePdfQuery = z.strictObject({
  section_id: queryIdOf('courseware.v.section_invalid'),
  file_id: optionalQueryId('courseware.v.file_invalid'),
});
export type CoursewarePdfQuery = z.infer<typeof CoursewarePdfQuery>;

export const SchoolCoursewareListQuery = z.strictObject({ ...pageQuery, keyword: z.preprocess(blank, lineText(32).optional()) });
export type SchoolCoursewareListQuery = z.infer<typeof SchoolCoursewareListQuery>;

// ---------------------------------------------------------------- purchase

export const BalancePayCoursewareInput = z.strictObject({
  id: idOf('courseware.v.courseware_invalid'),
  deal_pwd: dealPwd,
  /** the client's key for this payment: a retry with the same key is answered, never charged twice */
  request_id: requestId.optional(),
});
export type BalancePayCoursewareInput = z.infer<typeof BalancePayCoursewareInput>;

export const WechatPayCoursewareInput = z.strictObject({ id: idOf('courseware.v.courseware_invalid') });
export type WechatPayCoursewareInput = z.infer<typeof WechatPayCoursewareInput>;

// ---------------------------------------------------------------- the operator's catalogue

const dictRefs = {
  subject_id: idOf('courseware.v.dict_invalid'),
  discipline_id: optionalId('courseware.v.dict_invalid'),
  grade_id: optionalId('courseware.v.dict_invalid'),
  term_id: optionalId('courseware.v.dict_invalid'),
  tixi_id: optionalId('courseware.v.dict_invalid'),
  edition_id: optionalId('courseware.v.dict_invalid'),
};

/** The operator publishes a courseware with its sections and their files. */
export const PublishCoursewareInput = z.strictObject({
  title: title(60),
  ...dictRefs,
  description: plainText(2000).optional(),
  price_fen: intOf('courseware.v.price_invalid', 1, COURSEWARE_MAX_PRICE_FEN),
  sections: z
    .array(z.strictObject({ title: title(60), files: sectionFiles }), { error: 'courseware.v.sections_invalid' })
    .min(1, { error: 'courseware.v.sections_invalid' })
    .max(COURSEWARE_MAX_SECTIONS, { error: 'courseware.v.sections_invalid' }),
});
export type PublishCoursewareInput = z.infer<typeof PublishCoursewareInput>;

/** The operator edits a courseware's description, price and state (schools that bought it keep it). */
export const EditCoursewareInput = z.strictObject({
  id: idOf('courseware.v.courseware_invalid'),
  version,
  title: title(60),
  ...dictRefs,
  description: plainText(2000).optional(),
  price_fen: intOf('courseware.v.price_invalid', 1, COURSEWARE_MAX_PRICE_FEN),
  /** 1 on sale, 0 withdrawn */
  status: z.union([z.literal(0), z.literal(1)], { error: 'courseware.v.status_invalid' }),
});
export type EditCoursewareInput = z.infer<typeof EditCoursewareInput>;

export const OperatorCoursewareQuery = z.strictObject({
  ...pageQuery,
  keyword: z.preprocess(blank, lineText(32).optional()),
  status: z.preprocess(
    blank,
    z.coerce
      .number()
      .pipe(z.union([z.literal(0), z.literal(1)], { error: 'courseware.v.status_invalid' }))
      .optional(),
  ),
});
export type OperatorCoursewareQuery = z.infer<typeof OperatorCoursewareQuery>;

// ---------------------------------------------------------------- preview (site)

export const PreviewQuery = z.strictObject({ id: fileId });
export type PreviewQuery = z.infer<typeof PreviewQuery>;

// ---------------------------------------------------------------- lesson plans (prepareLessons)

const planDay = z
  .string({ error: 'courseware.v.plan_date_invalid' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'courseware.v.plan_date_invalid' })
  .refine((v) => isCalendarDay(v), { error: 'courseware.v.plan_date_invalid' });
const classKind = z.enum(LESSON_CLASS_KINDS, { error: 'courseware.v.plan_class_invalid' });

const planStep = z.strictObject({
  title: title(60),
  minutes: intOf('courseware.v.plan_minutes_invalid', 0, 240).nullable().optional(),
  content: plainText(1000).optional(),
});
export type LessonPlanStep = z.infer<typeof planStep>;

const planItem = z.strictObject({
  /** a courseware file (courseware_files.id) of a section the school may open */
  file_id: idOf('courseware.v.plan_file_invalid'),
  /** a PDF's pages in the order shown (parsePages); null or absent: every page */
  pages: z
    .array(intOf('courseware.v.plan_pages_invalid', 1, LESSON_PLAN_MAX_PAGE), { error: 'courseware.v.plan_pages_invalid' })
    .min(1, { error: 'courseware.v.plan_pages_invalid' })
    .max(LESSON_PLAN_MAX_ITEM_PAGES, { error: 'courseware.v.plan_pages_invalid' })
    .refine((p) => new Set(p).size === p.length, { error: 'courseware.v.plan_pages_invalid' })
    .nullable()
    .optional(),
  note: lineText(100).optional(),
});
export type LessonPlanItemInput = z.infer<typeof planItem>;

/** Saves a lesson plan: a new one (no id) or an edit of one (id and the version read). */
export const PrepareLessonsInput = z
  .strictObject({
    id: idOf('courseware.v.plan_invalid').optional(),
    version: version.optional(),
    title: title(60),
    class_kind: classKind,
    class_id: idOf('courseware.v.plan_class_invalid'),
    lesson_date: planDay,
    objectives: plainText(2000).optional(),
    steps: z.array(planStep, { error: 'courseware.v.plan_steps_invalid' }).max(LESSON_PLAN_MAX_STEPS, { error: 'courseware.v.plan_steps_invalid' }),
    items: z.array(planItem, { error: 'courseware.v.plan_items_invalid' }).max(LESSON_PLAN_MAX_ITEMS, { error: 'courseware.v.plan_items_invalid' }),
  })
  .refine((v) => (v.id === undefined) === (v.version === undefined), { error: 'courseware.v.plan_version_required' });
export type PrepareLessonsInput = z.infer<typeof PrepareLessonsInput>;

export const PrepareLessonsInfoQuery = z.strictObject({ id: queryIdOf('courseware.v.plan_invalid') });
export type PrepareLessonsInfoQuery = z.infer<typeof PrepareLessonsInfoQuery>;

const queryDay = z.preprocess(blank, planDay.optional());

export const PrepareLessonsListQuery = z.strictObject({
  ...pageQuery,
  class_kind: z.preprocess(blank, classKind.optional()),
  class_id: optionalQueryId('courseware.v.plan_class_invalid'),
  from: queryDay,
  to: queryDay,
  keyword: z.preprocess(blank, lineText(32).optional()),
  /** only the caller's own plans */
  mine: z.preprocess(blank, flag.optional()),
});
export type PrepareLessonsListQuery = z.infer<typeof PrepareLessonsListQuery>;

export const DelPrepareLessonsInput = z.strictObject({ id: idOf('courseware.v.plan_invalid'), version });
export type DelPrepareLessonsInput = z.infer<typeof DelPrepareLessonsInput>;

export const PrepareLessonsClassesQuery = z.strictObject({ keyword: z.preprocess(blank, lineText(32).optional()) });
export type PrepareLessonsClassesQuery = z.infer<typeof PrepareLessonsClassesQuery>;
