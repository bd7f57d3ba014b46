import type { ChildDataKind } from '@wantuo/shared';

type Ids = (input: Record<string, unknown>, answer: unknown) => unknown[];

const num = (v: unknown): number[] => {
  const n = Number(v);
  return Number.isInteger(n) && n > 0 ? [n] : [];
};
/** the input's field */
const input =
  (key: string): Ids =>
  (i) =>
    num(i[key]);
/** the answer's field */
const answer =
  (key: string): Ids =>
  (_, a) =>
    num((a as Record<string, unknown> | null)?.[key]);
/** a field of each row of one of the answer's lists */
const rows =
  (list: string, key = 'id'): Ids =>
  (_, a) => {
    const l = (a as Record<string, unknown> | null)?.[list];
    return Array.isArray(l) ? l.flatMap((r) => num((r as Record<string, unknown>)?.[key])) : [];
  };

/**
 * The actions whose answers carry children's personal data beyond a name and a class (a profile, guardians' or pick-up
 * people's contacts, health notes, photos), what each carries and where the children's ids are: after a successful
 * answer, ChildReadsInterceptor records one row of the access log per request. child-reads.spec.ts walks every declared
 * answer and fails for one that carries such fields and is neither here nor in NOT_LOGGED.
 */
export const CHILD_READS: Record<string, { what: ChildDataKind[]; ids: Ids }> = {
  studentList: { what: ['profile', 'guardians', 'health', 'photos'], ids: rows('list') },
  studentInfo: { what: ['profile', 'guardians', 'pickup', 'health', 'photos'], ids: input('id') },
  addStudent: { what: ['profile', 'guardians', 'pickup', 'health', 'photos'], ids: answer('id') },
  studentSetting: { what: ['profile', 'guardians', 'pickup', 'health', 'photos'], ids: answer('id') },
  saveStudentGuardians: { what: ['profile', 'guardians', 'pickup', 'health', 'photos'], ids: answer('id') },
  studentSettingInfo: { what: ['pickup', 'health'], ids: input('id') },
  studentGuardianLog: { what: ['guardians'], ids: input('student_id') },
  teacherStudentList: { what: ['profile', 'health'], ids: rows('list') },
  teacherStudentInfo: { what: ['profile', 'guardians', 'pickup', 'health', 'photos'], ids: input('id') },
  flowBoard: { what: ['health', 'pickup', 'photos'], ids: rows('students') },
  pointsStudents: { what: ['photos'], ids: rows('list') },
  tutorTaskInfo: { what: ['photos'], ids: rows('homework', 'student_id') },
  teachingTaskWorkInfo: { what: ['photos'], ids: rows('list', 'student_id') },
  wantuoStudentHomeWork: { what: ['photos'], ids: rows('list', 'student_id') },
  wantuoStudentWorkInfo: { what: ['photos'], ids: input('student_id') },
  homeWorkInfo: { what: ['photos'], ids: rows('list', 'student_id') },
  dailyReport: { what: ['photos'], ids: input('student_id') },
  saveDailyComment: { what: ['photos'], ids: answer('student_id') },
  conversationInfo: { what: ['messages'], ids: input('student_id') },
  pickupVerifyKey: { what: ['pickup'], ids: (_, a) => ((a as { people?: Array<{ students: number[] }> })?.people ?? []).flatMap((p) => p.students) },
};

/** Answers with such fields that are not a read of another child's data, and why. */
export const NOT_LOGGED: Record<string, string> = {
  parentChildren: "a guardian's own children (a guardian's reads of their own child are not logged)",
  schoolWechatStats: 'counts of bound guardians, no one named',
  myConsents: "the guardian's own consents",
  acceptPolicies: "the guardian's own consents",
  setConsent: "the guardian's own consents",
  conversationSend: "the sender's own message echoed back (the conversation's reads are logged by conversationInfo)",
  conversationRetract: "the sender's own message echoed back",
};
