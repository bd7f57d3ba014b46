import type { ActionDef } from './actions';

/**
 * Actions the product needs that actions.tsv does not list (yet). Declared here, like the catalogue,
 * so the one role guard and the OpenAPI document know them. `O` is the platform operator.
 */
export const EXTRA_ACTIONS: readonly ActionDef[] = [
  {
    method: 'POST',
    action: 'saveCoursewareDict',
    module: 'courseware',
    who: ['O'],
    meaning:
      'platform operator adds or edits an entry of a courseware dictionary (subject, discipline, grade, term, tixi, edition; optimistic concurrency on version)',
  },
  {
    method: 'POST',
    action: 'coursewareUpload',
    module: 'courseware',
    who: ['O', 'A'],
    meaning: 'upload a courseware file (PDF, image, office; multipart `file`): stored privately, never under /uploads; PDFs get their page count',
  },
  {
    method: 'POST',
    action: 'publishCourseware',
    module: 'courseware',
    who: ['O'],
    meaning: 'platform operator publishes a courseware: dictionaries, description, price (fen), sections with their files',
  },
  {
    method: 'POST',
    action: 'editCourseware',
    module: 'courseware',
    who: ['O'],
    meaning:
      'platform operator edits a courseware (title, dictionaries, description, price, on sale or withdrawn; optimistic concurrency on version)',
  },
  {
    method: 'GET',
    action: 'operatorCoursewareList',
    module: 'courseware',
    who: ['O'],
    meaning: "platform operator's courseware list, paged, by keyword and status, with how many schools own each",
  },
  {
    method: 'GET',
    action: 'prepareLessonsList',
    module: 'courseware',
    who: ['T', 'H', 'A'],
    meaning:
      "lesson plans, paged, by class, date range and keyword: the admin sees the school's, a teacher their own and those of the classes they teach",
  },
  {
    method: 'GET',
    action: 'prepareLessonsClasses',
    module: 'courseware',
    who: ['T', 'H', 'A'],
    meaning: 'the classes a lesson plan may be for (care, teaching and tutoring classes; a teacher: the ones they teach), by keyword, at most 50',
  },
  {
    method: 'POST',
    action: 'delPrepareLessons',
    module: 'courseware',
    who: ['T', 'H', 'A'],
    meaning: 'remove a lesson plan (its author or the admin; optimistic concurrency on version; the plan and its history are kept)',
  },
  { method: 'POST', action: 'index', module: 'site', who: ['O'], meaning: 'platform operator saves the start-up page configuration' },
  { method: 'POST', action: 'aboutUs', module: 'site', who: ['O'], meaning: 'platform operator saves the about-us rich text (sanitised)' },
  {
    method: 'GET',
    action: 'resourceAdminList',
    module: 'site',
    who: ['O'],
    meaning: "platform operator's list of public resources and school materials, paged, by audience and keyword",
  },
  {
    method: 'POST',
    action: 'addResource',
    module: 'site',
    who: ['O'],
    meaning: 'platform operator publishes an uploaded file as a public resource or as material for signed-in schools (subject, grade)',
  },
  {
    method: 'POST',
    action: 'delResource',
    module: 'site',
    who: ['O'],
    meaning: 'platform operator removes a resource (kept as removed, by whom and when)',
  },
  { method: 'GET', action: 'loginLog', module: 'auth', who: ['any'], meaning: 'recent sign-ins and actions of the signed-in user, paged' },
  {
    method: 'POST',
    action: 'qrLoginTicket',
    module: 'auth',
    who: ['pub'],
    meaning:
      'QR sign-in, desktop: a new ticket (random id for the QR, a secret only this desktop knows for polling), valid 2 minutes, usable once; rate-limited per IP',
  },
  {
    method: 'POST',
    action: 'qrLoginPoll',
    module: 'auth',
    who: ['pub'],
    meaning:
      "QR sign-in, desktop: the ticket's state (waiting, scanned, confirmed, cancelled, expired) by id and secret; the first poll after the phone confirmed gets the session (as login answers, logged as login.qr), never again; rate-limited per IP",
  },
  {
    method: 'POST',
    action: 'qrLoginScan',
    module: 'auth',
    who: ['any'],
    meaning:
      "QR sign-in, phone: the signed-in account scans a waiting ticket (it is theirs from then on) and learns the desktop's browser, system and address",
  },
  {
    method: 'POST',
    action: 'qrLoginConfirm',
    module: 'auth',
    who: ['any'],
    meaning: 'QR sign-in, phone: the account that scanned the ticket signs the desktop in as itself (before the ticket expires; once)',
  },
  {
    method: 'POST',
    action: 'qrLoginCancel',
    module: 'auth',
    who: ['any'],
    meaning: 'QR sign-in, phone: the account that scanned the ticket refuses it; the desktop shows it cancelled',
  },
  {
    method: 'GET',
    action: 'wechatAuthorize',
    module: 'wechat',
    who: ['pub'],
    meaning:
      "official-account web sign-in (snsapi_base), inside WeChat: a one-use state (10 minutes, where to go after) and the authorisation page's URL with this site's /wechat/callback; rate-limited per IP",
  },
  {
    method: 'POST',
    action: 'wechatOauth',
    module: 'wechat',
    who: ['pub'],
    meaning:
      "the callback's code and state: the state is spent, the code exchanged for the openid (sns/oauth2/access_token); a guardian bound to it is signed in (logged as login.wechat), otherwise a one-use bind ticket (15 minutes) for one SMS-code sign-in; staff are never signed in by openid; rate-limited per IP",
  },
  {
    method: 'POST',
    action: 'wechatBind',
    module: 'wechat',
    who: ['P'],
    meaning:
      "binds a bind ticket's openid to the signed-in guardian (once): one live openid per guardian per app id and one guardian per openid; a binding it replaces is ended as rebound, never deleted, and both are in the account's log (wechat.bind)",
  },
  {
    method: 'POST',
    action: 'applyAccount',
    module: 'applications',
    who: ['pub'],
    meaning: 'sign-in screen "create new account": an institution not yet on the platform applies; rate-limited per mobile and per IP',
  },
  {
    method: 'GET',
    action: 'accountApplications',
    module: 'applications',
    who: ['O'],
    meaning: 'platform operator lists account applications, newest first, paged, filterable by status',
  },
  {
    method: 'POST',
    action: 'handleAccountApplication',
    module: 'applications',
    who: ['O'],
    meaning: 'platform operator approves or rejects a pending account application with a note (optimistic concurrency on version)',
  },
  {
    method: 'GET',
    action: 'studentImportTemplate',
    module: 'students',
    who: ['A'],
    meaning: 'download the student import template (format xlsx or csv, Chinese headers)',
  },
  {
    method: 'POST',
    action: 'studentImport',
    module: 'students',
    who: ['A'],
    meaning: 'import students with guardians from .xlsx/.csv (multipart file, dry_run 1 lists problems, 0 imports all rows or none)',
  },
  {
    method: 'GET',
    action: 'studentExport',
    module: 'students',
    who: ['A'],
    meaning: 'download the filtered student list (filters of studentList, format xlsx or csv)',
  },
  {
    method: 'GET',
    action: 'flowBoard',
    module: 'flow',
    who: ['A', 'T', 'H'],
    meaning: "a day's board: the caller's students (all for the admin) with state, step times, settings and authorised pick-up people",
  },
  {
    method: 'GET',
    action: 'flowAlerts',
    module: 'flow',
    who: ['A', 'H'],
    meaning: "a day's flow alerts (not picked up, not entered, absent without leave, still in the centre after closing), open first",
  },
  {
    method: 'GET',
    action: 'parentChildren',
    module: 'students',
    who: ['P'],
    meaning: "a parent's own children (the students they are a guardian of), with care class and head teacher",
  },
  {
    method: 'GET',
    action: 'studentComments',
    module: 'students',
    who: ['A'],
    meaning: "the admin reads a student's growth record: comments newest first, paged (teacherStudentGrowth is for teachers and parents)",
  },
  {
    method: 'POST',
    action: 'saveStudentGuardians',
    module: 'students',
    who: ['A'],
    meaning:
      "replace an existing student's guardians on the guardians_version read (add, remove, change a relation, choose the primary): a guardian is known by mobile, a parent account of the school is linked, a new mobile gets one as addStudent does; at least one guardian, exactly one primary; every change is appended to the guardian history",
  },
  {
    method: 'GET',
    action: 'studentGuardianLog',
    module: 'students',
    who: ['A'],
    meaning: "a student's guardian history, newest first, paged: who changed what and when (added, removed, relation, made primary)",
  },
  {
    method: 'POST',
    action: 'submitLeave',
    module: 'leave',
    who: ['P'],
    meaning:
      'a parent asks leave for an own child: start_day..end_day (at most 31 days, not before today), reason; overlapping pending/approved requests refused',
  },
  {
    method: 'POST',
    action: 'cancelLeave',
    module: 'leave',
    who: ['P'],
    meaning: 'a parent cancels an own pending or approved leave request (optimistic concurrency on version); approved future days are unmarked',
  },
  {
    method: 'GET',
    action: 'parentLeaveList',
    module: 'leave',
    who: ['P'],
    meaning: "a parent's leave requests for own children, newest first, paged, filterable by child",
  },
  {
    method: 'GET',
    action: 'adminLeaveList',
    module: 'leave',
    who: ['A'],
    meaning:
      "the admin's leave review: every leave request of the school (teacherStudentLeaveList's rows), pending first, paged, filterable by status",
  },
  {
    method: 'GET',
    action: 'adminLeaveInfo',
    module: 'leave',
    who: ['A'],
    meaning: 'the admin reads one leave request of the school (as teacherStudentLeaveInfo), to decide it with auditStudentInfo',
  },
  { method: 'POST', action: 'teacherClockIn', module: 'flow', who: ['T', 'H'], meaning: 'a teacher clocks in for the day (once a day)' },
  {
    method: 'POST',
    action: 'teacherClockOut',
    module: 'flow',
    who: ['T', 'H'],
    meaning: 'a teacher clocks out for the day (once a day, after clocking in)',
  },
  {
    method: 'GET',
    action: 'studentClockingInExport',
    module: 'flow',
    who: ['A', 'H'],
    meaning: 'download the attendance counts of studentClockingInCount (by day, week or month, per class) as .xlsx (data centre)',
  },
  {
    method: 'POST',
    action: 'teacherHandOverStudent',
    module: 'flow',
    who: ['T', 'H'],
    meaning:
      "a teacher hands today's shuttle or tutoring task of one own student to another on-job teacher with that duty (from teacherShuttleTeacher / teacherTutorTeacher): the student leaves the caller's list of that duty and joins theirs for the day, whose flow steps they then record; before the pick-up or the end of tutoring only",
  },
  {
    method: 'POST',
    action: 'voidFlowEvent',
    module: 'flow',
    who: ['H'],
    meaning: "a head teacher voids a student's latest step of the day with a reason (a compensating event.voided; history is never edited)",
  },
  {
    method: 'POST',
    action: 'addContractPackage',
    module: 'contracts',
    who: ['A'],
    meaning:
      'add a contract package: name, kind (term, month, days, sessions), length, valid months for days/sessions, price (fen), includes (care, dinner, tutoring)',
  },
  {
    method: 'POST',
    action: 'editContractPackage',
    module: 'contracts',
    who: ['A'],
    meaning: 'edit a contract package (optimistic concurrency on version); contracts already signed keep their own terms',
  },
  {
    method: 'POST',
    action: 'setContractPackageActive',
    module: 'contracts',
    who: ['A'],
    meaning: 'disable or enable a contract package (a package is never deleted: contracts point at it)',
  },
  {
    method: 'POST',
    action: 'payContractOffline',
    module: 'contracts',
    who: ['A'],
    meaning: 'record the payment of an unpaid contract received at the desk (cash, bank transfer, external WeChat/Alipay with a receipt number)',
  },
  {
    method: 'GET',
    action: 'contractRefundPreview',
    module: 'contracts',
    who: ['A'],
    meaning:
      'the refund a cancellation of this contract would give today (unused days or sessions x unit price, less the discount agreed), shown before confirming',
  },
  {
    method: 'GET',
    action: 'contractExport',
    module: 'contracts',
    who: ['A'],
    meaning: 'download the filtered contract list (filters of contractList) as .xlsx',
  },
  {
    method: 'POST',
    action: 'wechatPayContract',
    module: 'contracts',
    who: ['P'],
    meaning: "a guardian pays an own child's unpaid contract by WeChat Pay (Native QR); the paid notify activates it",
  },
  {
    method: 'GET',
    action: 'mealGoodsPrices',
    module: 'meals',
    who: ['A'],
    meaning: "a meal item's price history, newest first (append-only: who changed it, when, why)",
  },
  {
    method: 'GET',
    action: 'mealSettings',
    module: 'meals',
    who: ['A', 'H', 'P'],
    meaning: "the school's dinner-booking cutoff (HH:MM, the same day or the day before, school-local) with the school's day and time now",
  },
  {
    method: 'POST',
    action: 'setMealSettings',
    module: 'meals',
    who: ['A'],
    meaning:
      "the admin sets the school's dinner-booking cutoff (optimistic concurrency on version); after it only the school changes a day's bookings",
  },
  {
    method: 'POST',
    action: 'bookDinner',
    module: 'meals',
    who: ['A', 'H', 'P'],
    meaning:
      "book one student's dinner of one day with one enabled item at its current price (a guardian: an own child before the cutoff; a head teacher: a student of an own class; the admin: any student); paid from a contract that includes dinner, else by WeChat Pay (guardians: unpaid until paid) or recorded by the school; one booking per student and day (a rebooking changes it), idempotent by request_id",
  },
  {
    method: 'POST',
    action: 'cancelDinner',
    module: 'meals',
    who: ['A', 'H', 'P'],
    meaning: 'cancel a dinner booking (a guardian: own child, before the cutoff) on the version read; a WeChat-paid booking is refunded in full',
  },
  {
    method: 'POST',
    action: 'wechatPayDinner',
    module: 'meals',
    who: ['P'],
    meaning: "a guardian pays an own child's unpaid dinner booking by WeChat Pay (Native QR); the paid notify books it",
  },
  {
    method: 'GET',
    action: 'parentMeals',
    module: 'meals',
    who: ['P'],
    meaning:
      "a guardian's meals page: an own child's bookings over a range (with what was served), the enabled items, the cutoff and the days a contract with dinner covers",
  },
  {
    method: 'GET',
    action: 'schoolDinnerOrderExport',
    module: 'meals',
    who: ['A'],
    meaning: 'download the filtered dinner orders of schoolDinnerOrderList as .xlsx (Chinese headers, yuan)',
  },
  {
    method: 'GET',
    action: 'orderMealCountExport',
    module: 'meals',
    who: ['A', 'H'],
    meaning:
      'download the numbers of orderMealCount (per period and item: booked, cancelled, served, unbooked served; classMealCount for a head teacher) as .xlsx with Chinese headers',
  },
  {
    method: 'GET',
    action: 'classMealCount',
    module: 'meals',
    who: ['H'],
    meaning: "the head teacher's data centre: orderMealCount over the students of their own classes",
  },
  {
    method: 'GET',
    action: 'principalHome',
    module: 'home',
    who: ['A'],
    meaning: "the admin's landing page: today's flow counts by state, open alerts, pending leave requests, balance and service expiry",
  },
  {
    method: 'POST',
    action: 'editSchoolInfo',
    module: 'school',
    who: ['A'],
    meaning: "the admin edits the school's contact details (contact name and mobile, city, address; optimistic concurrency on version)",
  },
  {
    method: 'GET',
    action: 'schoolList',
    module: 'school',
    who: ['O'],
    meaning:
      'platform operator lists schools with balance, service expiry and state, renewal price, students and staff, paged, searchable by name or phone',
  },
  {
    method: 'POST',
    action: 'setSchoolPrice',
    module: 'school',
    who: ['O'],
    meaning: "platform operator sets a school's renewal price per term and per year (fen)",
  },
  {
    method: 'POST',
    action: 'adjustSchoolBalance',
    module: 'school',
    who: ['O'],
    meaning:
      "platform operator credits or debits a school's balance with a required reason (an adjustment ledger entry; idempotent by request_id; never below zero)",
  },
  { method: 'GET', action: 'schoolLedger', module: 'school', who: ['O'], meaning: "platform operator reads a school's ledger, newest first, paged" },
  {
    method: 'GET',
    action: 'schoolPayments',
    module: 'school',
    who: ['O'],
    meaning: "platform operator lists a school's payments (WeChat and balance) with what was refunded, newest first, paged, filterable by state",
  },
  {
    method: 'POST',
    action: 'refundSchoolPayment',
    module: 'school',
    who: ['O'],
    meaning:
      "platform operator refunds one of a school's paid payments with a required reason: WeChat payments through WeChat Pay, balance payments back to the balance; amount_fen omitted refunds what is left; idempotent by request_id; a refunded top-up is taken back from the balance (never below zero), a refunded renewal takes back its share of the period",
  },
  {
    method: 'GET',
    action: 'paymentState',
    module: 'school',
    who: ['A', 'P'],
    meaning:
      "the state of one of the school's payments by out_trade_no (pending, paid, closed, refunded): the payment dialog polls it; a pending WeChat payment is asked at the provider; a parent sees only the payments they started",
  },
  {
    method: 'GET',
    action: 'consumeLogExport',
    module: 'school',
    who: ['A'],
    meaning: "download the school's ledger as .xlsx with the filters of consumeLog (type, from, to; school-local times, yuan)",
  },
  {
    method: 'GET',
    action: 'parentInformList',
    module: 'notices',
    who: ['P'],
    meaning:
      "a guardian's notices (one per notice, however many children it reached), newest first, paged, with when each was read and the unread count",
  },
  {
    method: 'POST',
    action: 'readInform',
    module: 'notices',
    who: ['T', 'H', 'P'],
    meaning: 'a recipient (guardian or staff) opens a notice: answers it with content and attachments and marks it read (the first time only)',
  },
  {
    method: 'POST',
    action: 'remindInform',
    module: 'notices',
    who: ['A', 'T', 'H'],
    meaning:
      "the notice's author (the admin: any notice of the school) reminds its unread recipients (guardians by WeChat, else SMS; staff by SMS), at most once per notice per hour (held to 07:00 in the quiet hours)",
  },
  {
    method: 'GET',
    action: 'adminInformList',
    module: 'notices',
    who: ['A'],
    meaning: "the admin's list of every notice of the school with read counts, newest first, paged, filterable by class, keyword, importance",
  },
  {
    method: 'GET',
    action: 'adminInformInfo',
    module: 'notices',
    who: ['A'],
    meaning: 'the admin reads one notice of the school with its read receipts (as headTeacherInformInfo)',
  },
  {
    method: 'GET',
    action: 'pointsStudents',
    module: 'points',
    who: ['A', 'T', 'H'],
    meaning:
      "students whose points the caller may change (a teacher's or head teacher's own students, the admin's whole school) with their balances, paged, by keyword or class",
  },
  {
    method: 'POST',
    action: 'awardPoints',
    module: 'points',
    who: ['A', 'T', 'H'],
    meaning:
      'award (points > 0) or deduct (points < 0) the same points to several students at once with a reason: one ledger entry each, all or none, never a negative balance (refused with the numbers); idempotent by request_id',
  },
  {
    method: 'GET',
    action: 'studentPoints',
    module: 'points',
    who: ['A', 'T', 'H', 'P'],
    meaning: "one student's points balance and ledger, newest first, paged (a guardian: an own child; a teacher: an own student)",
  },
  { method: 'GET', action: 'scoreGoodsInfo', module: 'points', who: ['A'], meaning: 'one points good with its price history and stock moves' },
  {
    method: 'GET',
    action: 'pointsShop',
    module: 'points',
    who: ['A', 'T', 'H', 'P'],
    meaning: 'the points goods on sale (listed), in-stock first, paged',
  },
  {
    method: 'POST',
    action: 'exchangeScoreGoods',
    module: 'points',
    who: ['A', 'T', 'H', 'P'],
    meaning:
      'exchange a points good for a student (a guardian: an own child; a teacher: an own student): the points and one unit of stock in one atomic step, never a negative balance or more than the stock; creates a pending exchange order; idempotent by request_id',
  },
  {
    method: 'GET',
    action: 'scoreOrderList',
    module: 'points',
    who: ['A', 'T', 'H', 'P'],
    meaning:
      "exchange orders, newest first, paged, by state or student, with counts by state (the admin: the school's; a guardian: own children's; a teacher: own students')",
  },
  { method: 'POST', action: 'handOverScoreOrder', module: 'points', who: ['A'], meaning: 'mark a pending exchange order handed over to the student' },
  {
    method: 'POST',
    action: 'cancelScoreOrder',
    module: 'points',
    who: ['A'],
    meaning:
      'cancel a pending exchange order with a reason: the points and the unit of stock go back once (a refund ledger entry and a stock move), however often it is repeated',
  },
  {
    method: 'GET',
    action: 'classScoreCount',
    module: 'points',
    who: ['H'],
    meaning: "the head teacher's data centre: scoreOrderCount over their own students",
  },
  {
    method: 'GET',
    action: 'scoreOrderCountExport',
    module: 'points',
    who: ['A', 'H'],
    meaning: 'download the numbers of scoreOrderCount (or classScoreCount for a head teacher) as .xlsx with Chinese headers',
  },
  {
    method: 'GET',
    action: 'schoolCalendar',
    module: 'teaching',
    who: ['A', 'T', 'H'],
    meaning: 'the school calendar over a range (at most 400 days): holidays and 调休 make-up days (a weekend day that works as a given weekday)',
  },
  {
    method: 'POST',
    action: 'setSchoolCalendarDay',
    module: 'teaching',
    who: ['A'],
    meaning:
      'set a day of the school calendar: a holiday (no sessions generated) or a make-up day (a Saturday or Sunday running the timetable of works_as, Monday..Friday); answers the sessions already on that day',
  },
  {
    method: 'POST',
    action: 'delSchoolCalendarDay',
    module: 'teaching',
    who: ['A'],
    meaning: 'remove a day from the school calendar (it runs as its own weekday again)',
  },
  {
    method: 'GET',
    action: 'holidayYears',
    module: 'teaching',
    who: ['A'],
    meaning:
      "the years of the State Council's holiday table that 导入法定节假日 can apply, each with its notice's number and date and whether it came from the NATIONAL_HOLIDAYS_FILE the API was started with",
  },
  {
    method: 'GET',
    action: 'holidayImportPreview',
    module: 'teaching',
    who: ['A'],
    meaning:
      "what importing the State Council's holiday and 调休 arrangement of a year would do: the days to set, the school's own days kept, and from today on the sessions cancelled, the make-up days' classes, the dinner bookings cancelled and the day contracts concerned; with a fingerprint",
  },
  {
    method: 'POST',
    action: 'importHolidays',
    module: 'teaching',
    who: ['A'],
    meaning:
      "apply a year's national holidays to the school calendar as previewed (refused when the plan changed since): writes the days the school has not set, cancels the planned sessions and (after the commit) the dinner bookings on the closed days from today on; a second import changes nothing",
  },
  {
    method: 'GET',
    action: 'roomList',
    module: 'teaching',
    who: ['A'],
    meaning: "the school's rooms with the teaching classes using each, paged, searchable by name",
  },
  { method: 'POST', action: 'addRoom', module: 'teaching', who: ['A'], meaning: 'add a room (name unique in the school, optional capacity)' },
  {
    method: 'GET',
    action: 'teachingClassList',
    module: 'teaching',
    who: ['A', 'T'],
    meaning: 'teaching classes newest first, paged, by name or status (a teacher: own classes), with students and sessions scheduled and held',
  },
  {
    method: 'POST',
    action: 'startAndEndTeachingClass',
    module: 'teaching',
    who: ['A'],
    meaning:
      'start (1) or stop (0) a teaching class on the version read, as startAndEnd does for care classes: a stopped class takes no new students and no schedule generation; its sessions stay (move or cancel them)',
  },
  {
    method: 'POST',
    action: 'moveTeachingSession',
    module: 'teaching',
    who: ['A'],
    meaning:
      'move one planned session of a teaching class to another day, time or room on the version read: refused with the clash list when the teacher, the room or a student is busy then (other sessions, care time slots) or the day is a holiday',
  },
  {
    method: 'POST',
    action: 'cancelTeachingSession',
    module: 'teaching',
    who: ['A'],
    meaning: 'cancel one planned session with a reason (on the version read); it frees its teacher and room',
  },
  {
    method: 'GET',
    action: 'rollCall',
    module: 'teaching',
    who: ['A', 'T', 'H'],
    meaning:
      "a session's roll call: its class's students with the status saved, or leave pre-filled for an approved leave that day (the session's teacher or the admin)",
  },
  {
    method: 'POST',
    action: 'rollCall',
    module: 'teaching',
    who: ['A', 'T', 'H'],
    meaning:
      "save a session's roll call for several students at once (present, late, absent, leave), from its day on; the session becomes held (the session's teacher or the admin)",
  },
  {
    method: 'POST',
    action: 'teachingTermScheduling',
    module: 'teaching',
    who: ['A'],
    meaning:
      "generate a term: several teaching classes' sessions at once (each as teachingClassCourseScheduling: weekly pattern, range, holidays skipped), each checked against the stored sessions and the classes before it; preview, or all written or none, refused with every clash and its class",
  },
  {
    method: 'GET',
    action: 'rollCallCount',
    module: 'teaching',
    who: ['A', 'T', 'H'],
    meaning:
      "the data centre's roll-call counts: present, late, absent and leave saved for the sessions (teaching and tutoring) of a range by day, week or month (the admin all, a teacher or head teacher the sessions they teach)",
  },
  {
    method: 'GET',
    action: 'rollCallExport',
    module: 'teaching',
    who: ['A', 'T', 'H'],
    meaning: 'the roll-call counts of rollCallCount as an .xlsx, with a total row',
  },
  {
    method: 'GET',
    action: 'tutorialList',
    module: 'tutoring',
    who: ['A'],
    meaning: 'home-tutoring classes newest first, paged, by name or type, with students and sessions scheduled and held',
  },
  {
    method: 'GET',
    action: 'tutorialScheduling',
    module: 'tutoring',
    who: ['A'],
    meaning:
      "a tutoring class's sessions in day order with their lesson number and version (what tutorialChangeScheduling moves), paged, by range and state",
  },
  {
    method: 'POST',
    action: 'startAndEndTutorialClass',
    module: 'tutoring',
    who: ['A'],
    meaning:
      'start (1) or stop (0) a tutoring class on the version read: a stopped class takes no new students; its sessions stay (move or cancel them)',
  },
  {
    method: 'POST',
    action: 'delTutorialClass',
    module: 'tutoring',
    who: ['A'],
    meaning:
      'delete a tutoring class with no held session on the version read (soft delete; its planned sessions are cancelled, its name is free again)',
  },
  {
    method: 'POST',
    action: 'cancelTutorialSession',
    module: 'tutoring',
    who: ['A'],
    meaning: 'cancel one planned tutoring session with a reason on the version read; it frees its teacher and room',
  },
  {
    method: 'POST',
    action: 'editTeachingClass',
    module: 'teaching',
    who: ['A'],
    meaning:
      "edit a teaching class's name, subject, teacher, room, capacity, sessions count and fee on the version read: the planned sessions from today follow a new teacher or room, refused with the clash list when they are busy then; capacity not below the students, sessions count not below the sessions scheduled",
  },
  {
    method: 'POST',
    action: 'markHomeWork',
    module: 'homework',
    who: ['T', 'H'],
    meaning:
      'a teacher marks one homework of an own class done, checked or back to not done for several students at once (during tutoring, from the phone) with an optional note: all or none, the state machine of homework.ts, every change appended to the history; idempotent by request_id (a repeat changes nothing)',
  },
  {
    method: 'POST',
    action: 'parentDoneHomeWork',
    module: 'homework',
    who: ['P'],
    meaning:
      "a guardian marks an own child's homework done at home with a photo (upload) and an optional note; homework the teacher checked stays checked; idempotent by request_id",
  },
  {
    method: 'GET',
    action: 'classHomeWorks',
    module: 'homework',
    who: ['A', 'T', 'H'],
    meaning:
      'homework list with counts (not done, done, checked): the admin the whole school, a teacher or head teacher the own classes; by kind, class, the day it is open on and title, newest first, paged',
  },
  {
    method: 'GET',
    action: 'homeWorkInfo',
    module: 'homework',
    who: ['A', 'T', 'H'],
    meaning:
      "one homework with each student's state, the teacher's note and the guardian's photo, paged, filterable by state (the admin any of the school, a teacher or head teacher one of an own class)",
  },
  {
    method: 'POST',
    action: 'publishExamScores',
    module: 'exams',
    who: ['A', 'T', 'H'],
    meaning:
      "publish an exam's scores to the guardians on the version read (a teacher: an exam all of whose classes are theirs): guardians see them from then on (parentExamScores), and each guardian of a student with a score gets one message per exam (WeChat, else SMS), written in bulk (a second publish tells only guardians not told yet)",
  },
  {
    method: 'GET',
    action: 'parentExamScores',
    module: 'exams',
    who: ['P'],
    meaning:
      "a guardian's child's published exam scores, newest exam first, paged: score (or absent), rank in the class, the class's number of scores and average",
  },
  {
    method: 'POST',
    action: 'examScoreImport',
    module: 'exams',
    who: ['A', 'T', 'H'],
    meaning:
      "import an exam's scores from .xlsx (multipart file; the sheet of examScoreExport: student number, name, score or 缺考): dry_run 1 lists every bad row, 0 saves all rows or none with the checks of addExamScore (a teacher: own classes' students)",
  },
  {
    method: 'GET',
    action: 'examScoreExport',
    module: 'exams',
    who: ['A', 'T', 'H'],
    meaning:
      "download an exam's scores as .xlsx (student number, name, class, score or 缺考, class and school rank), the sheet examScoreImport reads back (a teacher: own classes)",
  },
  {
    method: 'GET',
    action: 'storeGoodsList',
    module: 'store',
    who: ['O'],
    meaning: 'platform operator lists the online-mall goods, listed or not, paged, by category, keyword and listed',
  },
  {
    method: 'POST',
    action: 'addStoreGoods',
    module: 'store',
    who: ['O'],
    meaning: 'platform operator adds an online-mall good: category, name, pictures, description, price (fen), first stock (a stock move)',
  },
  {
    method: 'POST',
    action: 'editStoreGoods',
    module: 'store',
    who: ['O'],
    meaning: 'platform operator edits a good (optimistic concurrency on version); orders placed keep their own prices',
  },
  {
    method: 'POST',
    action: 'addStoreGoodsStock',
    module: 'store',
    who: ['O'],
    meaning: 'platform operator adds stock to a good (a stock move; idempotent by request_id)',
  },
  {
    method: 'POST',
    action: 'unmountStoreGoods',
    module: 'store',
    who: ['O'],
    meaning: 'platform operator lists or unlists a good (optimistic concurrency on version)',
  },
  {
    method: 'GET',
    action: 'storeOrderList',
    module: 'store',
    who: ['O'],
    meaning: "platform operator lists every school's mall orders, newest first, paged, by state and keyword (order no, school)",
  },
  {
    method: 'POST',
    action: 'shipGoodsOrder',
    module: 'store',
    who: ['O'],
    meaning: 'platform operator ships a paid order with carrier and tracking number (paid -> shipped)',
  },
  {
    method: 'POST',
    action: 'confirmGoodsOrder',
    module: 'store',
    who: ['A'],
    meaning: 'the school confirms receipt of a shipped order (shipped -> done)',
  },
  {
    method: 'POST',
    action: 'cancelGoodsOrder',
    module: 'store',
    who: ['A', 'O'],
    meaning:
      'the school (its own) or the operator cancels an unpaid or paid order with a reason: stock released, a paid order refunded (balance back to the wallet, WeChat Pay through the provider)',
  },
  {
    method: 'GET',
    action: 'smsOverview',
    module: 'sms',
    who: ['O'],
    meaning:
      "platform operator's view of the SMS gateways: the provider and its fallback, each gateway's template per message kind (which have none), the report callback paths, today's counts",
  },
  {
    method: 'GET',
    action: 'smsUsage',
    module: 'sms',
    who: ['O', 'A'],
    meaning:
      'texts per school and school-local day (sent, delivered, failed, waiting, units), paged, newest first, with the totals of the range; the operator sees every school (or one), an admin their own',
  },
  {
    method: 'GET',
    action: 'smsMessages',
    module: 'sms',
    who: ['O', 'A'],
    meaning:
      "the texts themselves, paged, newest first, by day range, state, kind, provider and mobile: their provider, template, state and the provider's code when refused; the operator every school's (or one), an admin their own",
  },
  {
    method: 'GET',
    action: 'messagePrefs',
    module: 'wechat',
    who: ['P'],
    meaning:
      "the guardian's message settings: every kind of message to guardians with its label, the channel chosen (WeChat, SMS, both, none; the default when unset) and whether it may be turned off, and the account's WeChat binding (bound at, masked openid)",
  },
  {
    method: 'POST',
    action: 'saveMessagePrefs',
    module: 'wechat',
    who: ['P'],
    meaning: 'the guardian chooses the channel of some message kinds (set-based upsert); alerts cannot be turned off',
  },
  {
    method: 'POST',
    action: 'wechatUnbind',
    module: 'wechat',
    who: ['P'],
    meaning:
      "the guardian ends their account's live WeChat binding (kept in the bindings' history and the account's activity); messages then go by SMS",
  },
  {
    method: 'GET',
    action: 'schoolWechatStats',
    module: 'wechat',
    who: ['A'],
    meaning:
      "the school's guardians bound to the official account of all, and message delivery per school-local day and kind (WeChat sent, delivered, failed, SMS fallbacks, SMS sent directly), paged, newest first; default the last 7 school days",
  },
  {
    method: 'GET',
    action: 'wechatAccount',
    module: 'wechat',
    who: ['O'],
    meaning:
      "platform operator's view of the official account: app id, sandbox or real, whether its access token is fresh, guardians bound across schools, and the template id of each message kind",
  },
  {
    method: 'POST',
    action: 'saveWechatTemplates',
    module: 'wechat',
    who: ['O'],
    meaning: "platform operator sets the official account's template id of some message kinds (set-based upsert, who and when kept)",
  },
  {
    method: 'GET',
    action: 'wechatJsConfig',
    module: 'wechat',
    who: ['T', 'H', 'P'],
    meaning:
      "the JS-SDK's wx.config inside WeChat for a page of this site (its URL without the #fragment): the official account's app id, a timestamp, a random nonceStr and the sha1 signature with the account's jsapi_ticket (kept in Redis, fetched by one process, refreshed 5 minutes early)",
  },
  {
    method: 'GET',
    action: 'dailyReport',
    module: 'reports',
    who: ['P', 'T', 'H', 'A'],
    meaning:
      "a child's daily report (每日反馈) of a day: arrival and departure with who (verified code or manual), dinner, tutoring start/end, the homework of the day (done, checked, the teacher's note, photos), points earned, the teacher's comment, whether it went out; a guardian their own child, a teacher a student they are responsible for or teach, the admin any",
  },
  {
    method: 'GET',
    action: 'dailyReportDays',
    module: 'reports',
    who: ['P', 'T', 'H', 'A'],
    meaning: "a child's report history, paged, newest day first (the days with a report: times, homework count, points, comment or not, sent or not)",
  },
  {
    method: 'GET',
    action: 'classReportStatus',
    module: 'reports',
    who: ['T', 'H', 'A'],
    meaning:
      "a care class's children on a day: whose daily report went out and who still lacks the teacher's comment (a head teacher their classes, a teacher the classes they have a duty in, the admin any)",
  },
  {
    method: 'POST',
    action: 'saveDailyComment',
    module: 'reports',
    who: ['T', 'H'],
    meaning:
      "the teacher's comment of a child's day (quick-comment presets by 表现/作业/情绪, free text of at most 200 characters, photos taken during tutoring) for a student of a class they teach or head; optimistic concurrency on version, every version kept",
  },
  // issue 27: verified pick-up codes (接送码); the departure with a code is studentLiyuan's pickup_code / verified_at
  {
    method: 'GET',
    action: 'pickupCode',
    module: 'pickup',
    who: ['P'],
    meaning:
      "the guardian's own pick-up code (PK1, Ed25519-signed by the school's key) for all their children: good for its 30 s window and the next; answers when the window ends (the page shows a new one then)",
  },
  {
    method: 'GET',
    action: 'pickupShareLinks',
    module: 'pickup',
    who: ['P'],
    meaning: "the guardian's children's authorised pick-up people with their live share link (no token: it is shown once)",
  },
  {
    method: 'POST',
    action: 'pickupShareLink',
    module: 'pickup',
    who: ['P'],
    meaning:
      "a share link /pickup/<token> for one of the guardian's children's pick-up people (replaces their previous link; only the token's hash is kept): answered to copy and send",
  },
  {
    method: 'POST',
    action: 'pickupRevoke',
    module: 'pickup',
    who: ['P'],
    meaning:
      "revoke a share link of the guardian's children's pick-up people: the link shows nothing more and the person's codes are refused at once",
  },
  {
    method: 'GET',
    action: 'pickupCodeByLink',
    module: 'pickup',
    who: ['pub'],
    meaning:
      "a pick-up person without an account: their own code by their share link's token (refused once revoked or the person removed); rate-limited per IP",
  },
  {
    method: 'GET',
    action: 'pickupVerifyKey',
    module: 'pickup',
    who: ['T', 'H', 'A'],
    meaning:
      "the school's public key for checking pick-up codes offline on a staff phone, with the names of the people a code may name (a teacher's and head teacher's own students; the admin's whole school) and the revoked ones",
  },
  {
    method: 'POST',
    action: 'reportPickupAttempt',
    module: 'pickup',
    who: ['T', 'H', 'A'],
    meaning:
      "a pick-up code the teacher's phone refused on its own (another child's, a revoked person's): checked by the API as at 离园, logged, and when unauthorised the head teacher and the children's guardians are alerted at once; never records a departure (refused with the code's reason)",
  },
  {
    method: 'GET',
    action: 'schoolSubMerchant',
    module: 'school',
    who: ['O', 'A'],
    meaning:
      "a school's WeChat Pay sub-merchant (特约商户号, issue 36): whether parents can pay it online, the current record and its history (the operator: any school by school_id; the admin: their own)",
  },
  {
    method: 'POST',
    action: 'setSchoolSubMerchant',
    module: 'school',
    who: ['O'],
    meaning:
      "platform operator records, changes or withdraws (sub_mchid null) the sub_mchid WeChat gave a school after its onboarding, and its own official account's sub_appid if any; the current record is ended and a new one added (history kept; expected_id guards concurrent changes); open payments and refunds keep the merchant they were made with",
  },
  {
    method: 'GET',
    action: 'parentPayOptions',
    module: 'school',
    who: ['P'],
    meaning:
      "whether the guardian's school takes online payments (it has a sub-merchant), and its name and contact phone to pay at the desk otherwise",
  },
  {
    method: 'GET',
    action: 'billChecks',
    module: 'school',
    who: ['O'],
    meaning:
      "platform operator's daily reconciliations: each merchant's WeChat trade bill of a day against the payments and refunds recorded, paged, newest first",
  },
  {
    method: 'GET',
    action: 'billDifferences',
    module: 'school',
    who: ['O'],
    meaning:
      'the differences the reconciliations found (a payment or refund WeChat has and we do not, or the reverse, or an amount that differs), paged, open ones first',
  },
  {
    method: 'POST',
    action: 'resolveBillDifference',
    module: 'school',
    who: ['O'],
    meaning: 'platform operator marks a reconciliation difference resolved with what was done (who and when kept; a resolved one stays resolved)',
  },
  {
    method: 'POST',
    action: 'checkBill',
    module: 'school',
    who: ['O'],
    meaning:
      "platform operator reconciles one merchant's trade bill of one past day now (a school's sub-merchant, or the platform's own without school_id); differences found again are not listed twice",
  },
  {
    method: 'GET',
    action: 'privacyPolicies',
    module: 'privacy',
    who: ['pub'],
    meaning:
      "the current privacy policy and children's personal-information rules (issue 37), in the caller's language with the platform's and the school's names filled in (the signed-in caller's school, or school_id on a public page)",
  },
  {
    method: 'GET',
    action: 'privacyPolicyHistory',
    module: 'privacy',
    who: ['O'],
    meaning: 'platform operator reads every version of one document, newest first, both languages unfilled',
  },
  {
    method: 'POST',
    action: 'publishPrivacyPolicy',
    module: 'privacy',
    who: ['O'],
    meaning:
      "platform operator publishes a new version of the privacy policy or the children's rules (expected_version guards concurrent edits; earlier versions are kept); every guardian is asked to accept again",
  },
  {
    method: 'GET',
    action: 'myConsents',
    module: 'privacy',
    who: ['P'],
    meaning:
      "the guardian's consents per child: the documents' versions accepted, photos, health notes; and whether they must accept before seeing any child's data",
  },
  {
    method: 'POST',
    action: 'acceptPolicies',
    module: 'privacy',
    who: ['P'],
    meaning:
      'guardian accepts the current versions they read for every child of theirs (a consent row per child with the versions, time, ip and user agent); refused when a newer version has been published since they read',
  },
  {
    method: 'POST',
    action: 'setConsent',
    module: 'privacy',
    who: ['P'],
    meaning:
      'guardian grants or withdraws the separate consent for photos or health notes of one child, or withdraws the documents; at once (a withdrawn health consent erases the stored note), appended to the consent history',
  },
  {
    method: 'GET',
    action: 'childAccessLog',
    module: 'privacy',
    who: ['A', 'P'],
    meaning:
      "who read or exported children's data (who, role, which children, what, when, from where), paged, newest first: the admin's whole school or one child, a guardian their own child",
  },
  {
    method: 'POST',
    action: 'callGuardian',
    module: 'privacy',
    who: ['T', 'H', 'A'],
    meaning: "staff about to call a child's guardian or pick-up person: the whole mobile (masked elsewhere outside their duty), logged as a call",
  },
  {
    method: 'GET',
    action: 'childDataExport',
    module: 'privacy',
    who: ['P', 'A'],
    meaning:
      "everything held about one child as a zip (a readable sheet per kind of data and the child's photos): a guardian their own child, the admin any child of the school; logged as an export",
  },
  {
    method: 'POST',
    action: 'privacyRequest',
    module: 'privacy',
    who: ['P'],
    meaning:
      "guardian asks the school to correct (saying what) or delete their child's personal data; due within the set days; one open request per kind and child",
  },
  {
    method: 'GET',
    action: 'myPrivacyRequests',
    module: 'privacy',
    who: ['P'],
    meaning: "the guardian's own correction and deletion requests, newest first, paged",
  },
  {
    method: 'GET',
    action: 'privacyRequests',
    module: 'privacy',
    who: ['A'],
    meaning: "the school's correction and deletion requests, open ones first by due time, paged",
  },
  {
    method: 'POST',
    action: 'handlePrivacyRequest',
    module: 'privacy',
    who: ['A'],
    meaning:
      "admin completes or refuses a request with a note; completing a deletion erases or anonymises the child's personal data everywhere (money records kept with the child anonymised), once",
  },
  // conversations (issue 40): family messages between a child's guardians and the school, staff office hours
  {
    method: 'GET',
    action: 'conversationList',
    module: 'conversations',
    who: ['A', 'H', 'T', 'P'],
    meaning:
      "the caller's family conversations, newest message first, with unread counts: a guardian's children, a teacher's or head teacher's responsible children, the admin's whole school; paged",
  },
  {
    method: 'GET',
    action: 'conversationInfo',
    module: 'conversations',
    who: ['A', 'H', 'T', 'P'],
    meaning:
      "one child's conversation: its members, when the school answers (office hours), how far each side has read and a page of messages (before a message id); a staff read is logged",
  },
  {
    method: 'GET',
    action: 'conversationUnread',
    module: 'conversations',
    who: ['A', 'H', 'T', 'P'],
    meaning: "how many messages and conversations the caller has not read (the tab's badge)",
  },
  {
    method: 'POST',
    action: 'conversationSend',
    module: 'conversations',
    who: ['A', 'H', 'T', 'P'],
    meaning:
      "send a text, a photo (the child's photo consent needed) or a quick reply to a child's conversation; idempotent by request_id; a guardian at most N a minute; live to the other side, a guardian who does not read it told by WeChat/SMS once per quiet period (never the text), staff only in office hours, urgent ones to the head teacher on duty",
  },
  {
    method: 'POST',
    action: 'conversationRead',
    module: 'conversations',
    who: ['A', 'H', 'T', 'P'],
    meaning: 'the caller has read a conversation up to a message (read receipts per side; never moves back)',
  },
  {
    method: 'POST',
    action: 'conversationRetract',
    module: 'conversations',
    who: ['A', 'H', 'T', 'P'],
    meaning: 'the sender retracts their own message within 2 minutes; the message stays with a mark (nothing is edited or deleted)',
  },
  {
    method: 'GET',
    action: 'officeHoursInfo',
    module: 'conversations',
    who: ['A', 'H', 'T'],
    meaning: "the caller's weekly office hours for family messages (the default when not set) and whether they are open now",
  },
  {
    method: 'POST',
    action: 'officeHoursSave',
    module: 'conversations',
    who: ['A', 'H', 'T'],
    meaning: "set the caller's weekly office hours (weekdays and a daily window): outside them they are not notified of family messages",
  },
  // receipts (issue 40)
  {
    method: 'GET',
    action: 'parentReceiptList',
    module: 'receipts',
    who: ['P'],
    meaning: "the receipts (收据) of the caller's children, newest first; optionally one child's, one contract's or one dinner booking's; paged",
  },
  {
    method: 'GET',
    action: 'receiptDownload',
    module: 'receipts',
    who: ['P', 'A'],
    meaning:
      "one receipt as its PDF (the school's name and stamp, the child, the item, the amount in figures and capitals); the same bytes every time",
  },
  {
    method: 'GET',
    action: 'adminReceiptList',
    module: 'receipts',
    who: ['A'],
    meaning: "the school's receipts of a school-local month, by kind and by the child's name or the receipt number; paged",
  },
  {
    method: 'GET',
    action: 'adminReceiptExport',
    module: 'receipts',
    who: ['A'],
    meaning: "a school-local month's receipts as .xlsx (money in yuan, local times, a totals row)",
  },
  {
    method: 'POST',
    action: 'adminReceiptStampUpload',
    module: 'receipts',
    who: ['A'],
    meaning:
      "upload the school's stamp (印章) for receipts issued from now on: a PNG or JPEG image within the image upload limit (multipart field file)",
  },
  {
    method: 'GET',
    action: 'adminReceiptStampInfo',
    module: 'receipts',
    who: ['A'],
    meaning: "the school's stamp for receipts (null when none is uploaded: receipts are issued without it)",
  },
];
