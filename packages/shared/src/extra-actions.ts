import type { ActionDef } from './actions';

/**
 * Actions the product needs that actions.tsv does not list (yet). Declared here, like the catalogue,
 * so the one role guard and the OpenAPI document know them. `O` is the platform operator.
 */
export const EXTRA_ACTIONS: readonly ActionDef[] = [
  { method: 'POST', action: 'index', module: 'site', who: ['O'], meaning: 'platform operator saves the start-up page configuration' },
  { method: 'POST', action: 'aboutUs', module: 'site', who: ['O'], meaning: 'platform operator saves the about-us rich text (sanitised)' },
  { method: 'GET', action: 'loginLog', module: 'auth', who: ['any'], meaning: 'recent sign-ins and actions of the signed-in user, paged' },
  { method: 'POST', action: 'applyAccount', module: 'applications', who: ['pub'], meaning: 'sign-in screen "create new account": an institution not yet on the platform applies; rate-limited per mobile and per IP' },
  { method: 'GET', action: 'accountApplications', module: 'applications', who: ['O'], meaning: 'platform operator lists account applications, newest first, paged, filterable by status' },
  { method: 'POST', action: 'handleAccountApplication', module: 'applications', who: ['O'], meaning: 'platform operator approves or rejects a pending account application with a note (optimistic concurrency on version)' },
  { method: 'GET', action: 'studentImportTemplate', module: 'students', who: ['A'], meaning: 'download the student import template (format xlsx or csv, Chinese headers)' },
  { method: 'POST', action: 'studentImport', module: 'students', who: ['A'], meaning: 'import students with guardians from .xlsx/.csv (multipart file, dry_run 1 lists problems, 0 imports all rows or none)' },
  { method: 'GET', action: 'studentExport', module: 'students', who: ['A'], meaning: 'download the filtered student list (filters of studentList, format xlsx or csv)' },
  { method: 'GET', action: 'flowBoard', module: 'flow', who: ['A', 'T', 'H'], meaning: "a day's board: the caller's students (all for the admin) with state, step times, settings and authorised pick-up people" },
  { method: 'GET', action: 'flowAlerts', module: 'flow', who: ['A', 'H'], meaning: "a day's flow alerts (not picked up, not entered, absent without leave, still in the centre after closing), open first" },
  { method: 'GET', action: 'parentChildren', module: 'students', who: ['P'], meaning: "a parent's own children (the students they are a guardian of), with care class and head teacher" },
  { method: 'GET', action: 'studentComments', module: 'students', who: ['A'], meaning: "the admin reads a student's growth record: comments newest first, paged (teacherStudentGrowth is for teachers and parents)" },
  { method: 'POST', action: 'submitLeave', module: 'leave', who: ['P'], meaning: "a parent asks leave for an own child: start_day..end_day (at most 31 days, not before today), reason; overlapping pending/approved requests refused" },
  { method: 'POST', action: 'cancelLeave', module: 'leave', who: ['P'], meaning: 'a parent cancels an own pending or approved leave request (optimistic concurrency on version); approved future days are unmarked' },
  { method: 'GET', action: 'parentLeaveList', module: 'leave', who: ['P'], meaning: "a parent's leave requests for own children, newest first, paged, filterable by child" },
  { method: 'POST', action: 'teacherClockIn', module: 'flow', who: ['T', 'H'], meaning: 'a teacher clocks in for the day (once a day)' },
  { method: 'POST', action: 'teacherClockOut', module: 'flow', who: ['T', 'H'], meaning: 'a teacher clocks out for the day (once a day, after clocking in)' },
  { method: 'POST', action: 'voidFlowEvent', module: 'flow', who: ['H'], meaning: "a head teacher voids a student's latest step of the day with a reason (a compensating event.voided; history is never edited)" },
  { method: 'GET', action: 'principalHome', module: 'home', who: ['A'], meaning: "the admin's landing page: today's flow counts by state, open alerts, pending leave requests, balance and service expiry" },
  { method: 'POST', action: 'editSchoolInfo', module: 'school', who: ['A'], meaning: "the admin edits the school's contact details (contact name and mobile, city, address; optimistic concurrency on version)" },
  { method: 'GET', action: 'schoolList', module: 'school', who: ['O'], meaning: 'platform operator lists schools with balance, service expiry and state, renewal price, students and staff, paged, searchable by name or phone' },
  { method: 'POST', action: 'setSchoolPrice', module: 'school', who: ['O'], meaning: "platform operator sets a school's renewal price per term and per year (fen)" },
  { method: 'POST', action: 'adjustSchoolBalance', module: 'school', who: ['O'], meaning: "platform operator credits or debits a school's balance with a required reason (an adjustment ledger entry; idempotent by request_id; never below zero)" },
  { method: 'GET', action: 'schoolLedger', module: 'school', who: ['O'], meaning: "platform operator reads a school's ledger, newest first, paged" },
  { method: 'GET', action: 'schoolPayments', module: 'school', who: ['O'], meaning: "platform operator lists a school's payments (WeChat and balance) with what was refunded, newest first, paged, filterable by state" },
  { method: 'POST', action: 'refundSchoolPayment', module: 'school', who: ['O'], meaning: "platform operator refunds one of a school's paid payments with a required reason: WeChat payments through WeChat Pay, balance payments back to the balance; amount_fen omitted refunds what is left; idempotent by request_id; a refunded top-up is taken back from the balance (never below zero), a refunded renewal takes back its share of the period" },
  { method: 'GET', action: 'paymentState', module: 'school', who: ['A'], meaning: "the state of one of the school's payments by out_trade_no (pending, paid, closed, refunded): the payment dialog polls it; a pending WeChat payment is asked at the provider" },
  { method: 'GET', action: 'consumeLogExport', module: 'school', who: ['A'], meaning: "download the school's ledger as .xlsx with the filters of consumeLog (type, from, to; school-local times, yuan)" },
];
