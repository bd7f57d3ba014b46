// The answer schemas of module `courseware` (what `data` carries, as JSON), declared in api/courseware.ts.
import { z } from 'zod';
import { pageOf } from '../api/define';
import { LESSON_CLASS_KINDS } from '../lesson-plans';

/** An entry of one of the catalogue's six dictionaries. */
export const CoursewareDictEntry = z.object({
  id: z.number().int(),
  name: z.string(),
  sort: z.number().int(),
  active: z.boolean(),
  version: z.number().int(),
});
export type CoursewareDictEntry = z.infer<typeof CoursewareDictEntry>;

export const CoursewareDictAnswer = z.array(CoursewareDictEntry);
export type CoursewareDictAnswer = z.infer<typeof CoursewareDictAnswer>;

/** A courseware as lists show it, for the caller's school. */
export const CoursewareRow = z.object({
  id: z.number().int(),
  title: z.string(),
  subject: z.string().nullable(),
  discipline: z.string().nullable(),
  grade: z.string().nullable(),
  term: z.string().nullable(),
  tixi: z.string().nullable(),
  edition: z.string().nullable(),
  price_fen: z.number().int(),
  sections: z.number().int(),
  owned: z.boolean(),
  /** the school's own courseware (not the platform's) */
  own: z.boolean(),
});
export type CoursewareRow = z.infer<typeof CoursewareRow>;

export const CoursewareCenterAnswer = pageOf(CoursewareRow);
export type CoursewareCenterAnswer = z.infer<typeof CoursewareCenterAnswer>;

/** A section of a courseware (the publisher's or the caller's school's). */
export const CoursewareSectionRow = z.object({
  id: z.number().int(),
  title: z.string(),
  sort: z.number().int(),
  files: z.number().int(),
  /** added by the caller's school */
  own: z.boolean(),
  version: z.number().int(),
});
export type CoursewareSectionRow = z.infer<typeof CoursewareSectionRow>;

/** The dictionary ids of a courseware (subject required, the others optional). */
const dictIds = {
  subject_id: z.number().int(),
  discipline_id: z.number().int().nullable(),
  grade_id: z.number().int().nullable(),
  term_id: z.number().int().nullable(),
  tixi_id: z.number().int().nullable(),
  edition_id: z.number().int().nullable(),
};

/** coursewareData: one courseware with its sections. */
export const CoursewareDetail = CoursewareRow.extend({
  description: z.string(),
  ...dictIds,
  /** 1 on sale, 0 withdrawn */
  status: z.number().int(),
  version: z.number().int(),
  sections_list: z.array(CoursewareSectionRow),
});
export type CoursewareDetail = z.infer<typeof CoursewareDetail>;

export const COURSEWARE_FILE_KINDS = ['pdf', 'image', 'video', 'other'] as const;

/** A file of a section, with a signed URL (stored files) or its link (videos). */
export const CoursewareFileRow = z.object({
  id: z.number().int(),
  kind: z.enum(COURSEWARE_FILE_KINDS),
  /** the stored file (preview, a school's own sections); null for a video link */
  file_id: z.string().nullable(),
  name: z.string(),
  mime: z.string().nullable(),
  size: z.number().int().nullable(),
  pages: z.number().int().nullable(),
  section_id: z.number().int(),
  section_title: z.string(),
  /** a signed URL valid until expires_at (stored files), or the video link */
  url: z.string(),
  expires_at: z.string().nullable(),
});
export type CoursewareFileRow = z.infer<typeof CoursewareFileRow>;

export const CoursewareFilesAnswer = z.array(CoursewareFileRow);
export type CoursewareFilesAnswer = z.infer<typeof CoursewareFilesAnswer>;

/** A courseware the school owns (bought and not refunded) or its own. */
export const OwnedCoursewareRow = CoursewareRow.extend({
  bought_at: z.string().nullable(),
  method: z.enum(['balance', 'wechat']).nullable(),
});
export type OwnedCoursewareRow = z.infer<typeof OwnedCoursewareRow>;

export const OwnedCoursewareListAnswer = pageOf(OwnedCoursewareRow);
export type OwnedCoursewareListAnswer = z.infer<typeof OwnedCoursewareListAnswer>;

/** balancePayCourseware: the courseware is the school's now. */
export const CoursewareBought = z.object({
  id: z.number().int(),
  owned: z.literal(true),
  /** false: it was owned already, nothing was charged */
  charged: z.boolean(),
  balance_fen: z.number().int(),
});
export type CoursewareBought = z.infer<typeof CoursewareBought>;

/** A courseware in the operator's list. */
export const OperatorCoursewareRow = CoursewareRow.extend({
  status: z.number().int(),
  description: z.string(),
  ...dictIds,
  buyers: z.number().int(),
  version: z.number().int(),
  created_at: z.string(),
});
export type OperatorCoursewareRow = z.infer<typeof OperatorCoursewareRow>;

export const OperatorCoursewareListAnswer = pageOf(OperatorCoursewareRow);
export type OperatorCoursewareListAnswer = z.infer<typeof OperatorCoursewareListAnswer>;

/** editCourseware: the courseware's new version. */
export const CoursewareEdited = z.object({ id: z.number().int(), version: z.number().int() });
export type CoursewareEdited = z.infer<typeof CoursewareEdited>;

/** coursewareUpload: the stored file. */
export const CoursewareUploaded = z.object({
  id: z.string(),
  name: z.string(),
  mime: z.string(),
  size: z.number().int(),
  pages: z.number().int().nullable(),
});
export type CoursewareUploaded = z.infer<typeof CoursewareUploaded>;

/** A class a plan may be for: a care class, a teaching class or a tutoring class of the school. */
export const LessonClassOption = z.object({
  kind: z.enum(LESSON_CLASS_KINDS),
  id: z.number().int(),
  name: z.string(),
});
export type LessonClassOption = z.infer<typeof LessonClassOption>;

/** A lesson plan as lists show it. */
export const LessonPlanRow = z.object({
  id: z.number().int(),
  title: z.string(),
  class_kind: z.enum(LESSON_CLASS_KINDS),
  class_id: z.number().int(),
  class_name: z.string().nullable(),
  lesson_date: z.string(),
  author_id: z.number().int(),
  author_name: z.string(),
  items: z.number().int(),
  slides: z.number().int(),
  /** the caller may edit it (the author or the admin) */
  editable: z.boolean(),
  version: z.number().int(),
  updated_at: z.string(),
});
export type LessonPlanRow = z.infer<typeof LessonPlanRow>;

export const LessonPlanListAnswer = pageOf(LessonPlanRow);
export type LessonPlanListAnswer = z.infer<typeof LessonPlanListAnswer>;

/** One file of a plan, checked again when the plan is opened. */
export const LessonPlanItem = z.object({
  position: z.number().int(),
  /** courseware_files.id */
  file_id: z.number().int(),
  courseware_id: z.number().int(),
  courseware_title: z.string(),
  section_id: z.number().int(),
  section_title: z.string(),
  name: z.string(),
  kind: z.enum(COURSEWARE_FILE_KINDS),
  /** the pages chosen (PDF); null: every page */
  pages: z.array(z.number().int()).nullable(),
  /** the file's page count (PDF) */
  total_pages: z.number().int().nullable(),
  note: z.string(),
  /** the school may still open the file (a refund locks it: no url then) */
  open: z.boolean(),
  /** a signed URL valid until expires_at (stored files), the video link, or null when locked */
  url: z.string().nullable(),
  expires_at: z.string().nullable(),
});
export type LessonPlanItem = z.infer<typeof LessonPlanItem>;

/** A step of a plan as saved. */
export const LessonPlanStepAnswer = z.object({
  title: z.string(),
  minutes: z.number().int().nullable().optional(),
  content: z.string().optional(),
});

/** prepareLessonsInfo: one plan with its steps and items. */
export const LessonPlanDetail = LessonPlanRow.extend({
  objectives: z.string(),
  steps: z.array(LessonPlanStepAnswer),
  items_list: z.array(LessonPlanItem),
  created_at: z.string(),
});
export type LessonPlanDetail = z.infer<typeof LessonPlanDetail>;

/** prepareLessons: the plan saved, its new version and its slides. */
export const LessonPlanSaved = z.object({ id: z.number().int(), version: z.number().int(), slides: z.number().int() });
export type LessonPlanSaved = z.infer<typeof LessonPlanSaved>;
