import { FileAnswer, GET, POST, extraOf } from './define';
import {
  CheckStudentResult,
  DelStudentResult,
  ParentChildrenAnswer,
  SchoolGradeResult,
  StudentComment,
  StudentCommentsAnswer,
  StudentDetail,
  StudentGuardianLogAnswer,
  StudentImportResult,
  StudentInfo,
  StudentListAnswer,
  TeacherStudentListAnswer,
  StudentSettingInfo,
  TeacherStudentGrowthAnswer,
} from '../answers/students';
import {
  AddStudentInput,
  CheckStudentInput,
  DelStudentInput,
  OverallCommentInput,
  SaveStudentGuardiansInput,
  SchoolGradeInput,
  StudentCommentsInput,
  StudentExportInput,
  StudentGuardianLogInput,
  StudentImportInput,
  StudentImportTemplateInput,
  StudentInfoInput,
  StudentListInput,
  StudentSettingInfoInput,
  StudentSettingInput,
  TeacherStudentGrowthInput,
  TeacherStudentInfoInput,
  TeacherStudentListInput,
} from '../schemas/students';
import { EmptyInput } from '../schemas/auth';

/** The access and meaning of this module's actions that actions.tsv does not list. */
const extra = extraOf('students');

/** The actions of module `students` (docs/modules/students.md). */
export const studentsActions = [
  GET('studentList', StudentListInput, StudentListAnswer),
  GET('studentInfo', StudentInfoInput, StudentInfo),
  GET('checkStudent', CheckStudentInput, CheckStudentResult),
  POST('addStudent', AddStudentInput, StudentDetail),
  POST('delStudent', DelStudentInput, DelStudentResult),
  GET('schoolGrade', SchoolGradeInput, SchoolGradeResult),
  GET('studentSettingInfo', StudentSettingInfoInput, StudentSettingInfo),
  POST('studentSetting', StudentSettingInput, StudentDetail),
  GET('teacherStudentList', TeacherStudentListInput, TeacherStudentListAnswer),
  GET('teacherStudentInfo', TeacherStudentInfoInput, StudentDetail),
  GET('teacherStudentGrowth', TeacherStudentGrowthInput, TeacherStudentGrowthAnswer),
  POST('overallComment', OverallCommentInput, StudentComment),
  GET(
    'studentImportTemplate',
    StudentImportTemplateInput,
    FileAnswer,
    extra(['A'], 'download the student import template (format xlsx or csv, Chinese headers)'),
  ),
  POST(
    'studentImport',
    StudentImportInput,
    StudentImportResult,
    extra(['A'], 'import students with guardians from .xlsx/.csv (multipart file, dry_run 1 lists problems, 0 imports all rows or none)'),
  ),
  GET(
    'studentExport',
    StudentExportInput,
    FileAnswer,
    extra(['A'], 'download the filtered student list (filters of studentList, format xlsx or csv)'),
  ),
  GET(
    'parentChildren',
    EmptyInput,
    ParentChildrenAnswer,
    extra(['P'], "a parent's own children (the students they are a guardian of), with care class and head teacher"),
  ),
  GET(
    'studentComments',
    StudentCommentsInput,
    StudentCommentsAnswer,
    extra(['A'], "the admin reads a student's growth record: comments newest first, paged (teacherStudentGrowth is for teachers and parents)"),
  ),
  POST(
    'saveStudentGuardians',
    SaveStudentGuardiansInput,
    StudentDetail,
    extra(
      ['A'],
      "replace an existing student's guardians on the guardians_version read (add, remove, change a relation, choose the primary): a guardian is known by mobile, a parent account of the school is linked, a new mobile gets one as addStudent does; at least one guardian, exactly one primary; every change is appended to the guardian history",
    ),
  ),
  GET(
    'studentGuardianLog',
    StudentGuardianLogInput,
    StudentGuardianLogAnswer,
    extra(['A'], "a student's guardian history, newest first, paged: who changed what and when (added, removed, relation, made primary)"),
  ),
] as const;
