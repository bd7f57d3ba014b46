import type { ComponentType } from 'react';

type Page = () => Promise<{ default: ComponentType }>;

/**
 * Each console screen's code, loaded when a route to it is first opened: the one list of screens. A route names its
 * screen by key (route-table.ts), so the keys are derived from here and a screen is declared once.
 */
const pages = {
  home: () => import('../areas/public/home'),
  about: () => import('../areas/public/about'),
  pdf: () => import('../areas/public/pdf-viewer'),
  settings: () => import('../areas/account/settings'),
  parentHome: () => import('../areas/parent/home'),
  operatorSite: () => import('../areas/operator/site'),
  operatorApplications: () => import('../areas/operator/applications'),
  operatorSchools: () => import('../areas/operator/schools'),
  operatorBills: () => import('../areas/operator/bills'),
  // online mall screens
  storeMall: () => import('../areas/store/online-store'),
  storeDetail: () => import('../areas/store/store-detail'),
  storeConfirm: () => import('../areas/store/confirm-order'),
  storeSchoolOrders: () => import('../areas/store/school-orders'),
  storeOperatorGoods: () => import('../areas/store/operator-goods'),
  storeOperatorOrders: () => import('../areas/store/operator-orders'),
  // money screens
  principalHome: () => import('../areas/principal/home'),
  principalUser: () => import('../areas/money/principal-user'),
  payResult: () => import('../areas/money/pay-result'),
  // meals screens
  mealsOrder: () => import('../areas/meals/principal-order'),
  mealsOrderAdd: () => import('../areas/meals/order-add'),
  mealsReservation: () => import('../areas/meals/adviser-reservation'),
  parentMeals: () => import('../areas/meals/parent-meals'),
  // staff screens
  staffAccounts: () => import('../areas/principal/staff-accounts'),
  teacherAdd: () => import('../areas/principal/teacher-add'),
  // students screens
  studentList: () => import('../areas/students/student-list'),
  studentAdd: () => import('../areas/students/student-add'),
  studentEdit: () => import('../areas/students/student-edit'),
  studentRecord: () => import('../areas/students/student-record'),
  teacherStudents: () => import('../areas/students/teacher-students'),
  adviserCare: () => import('../areas/students/adviser-care'),
  // care and timetable screens
  careClasses: () => import('../areas/care/class-list'),
  careClassForm: () => import('../areas/care/class-form'),
  careClassStudents: () => import('../areas/care/class-students'),
  careTeacherClass: () => import('../areas/care/teacher-class'),
  careAdviserClass: () => import('../areas/care/adviser-class'),
  careMentorStudents: () => import('../areas/care/mentor-students'),
  // flow screens
  flowToday: () => import('../areas/flow/teacher-today'),
  flowBoard: () => import('../areas/flow/attendance-board'),
  flowAdviserHome: () => import('../areas/flow/adviser-home'),
  flowTransport: () => import('../areas/flow/transport-board'),
  flowLeaveReview: () => import('../areas/flow/leave-review'),
  flowShuttle: () => import('../areas/flow/teacher-shuttle'),
  flowTutor: () => import('../areas/flow/teacher-tutor'),
  flowData: () => import('../areas/data/data-centre'),
  flowRecords: () => import('../areas/flow/attendance-records'),
  // contracts screens
  principalContracts: () => import('../areas/contracts/principal-contracts'),
  parentContracts: () => import('../areas/contracts/parent-contracts'),
  // points screens
  pointsShop: () => import('../areas/points/principal-shop'),
  pointsGoodsForm: () => import('../areas/points/goods-form'),
  pointsTeacher: () => import('../areas/points/teacher-points'),
  pointsParent: () => import('../areas/points/parent-points'),
  // exams screens
  examsList: () => import('../areas/exams/exams-list'),
  examScores: () => import('../areas/exams/exam-scores'),
  parentScores: () => import('../areas/exams/parent-scores'),
  // courseware screens
  coursewareCatalogue: () => import('../areas/courseware/catalogue'),
  coursewareOwned: () => import('../areas/courseware/owned'),
  coursewareLessonware: () => import('../areas/courseware/lessonware'),
  lessonPlans: () => import('../areas/courseware/lesson-plans'),
  attendClass: () => import('../areas/courseware/attend-class'),
  coursewareOperator: () => import('../areas/courseware/operator-catalogue'),
  coursewareMatching: () => import('../areas/courseware/matching'),
  coursewareRecord: () => import('../areas/courseware/record'),
  // homework screens
  homeworkClassJob: () => import('../areas/homework/principal-class-job'),
  homeworkClassJob1: () => import('../areas/homework/principal-class-job1'),
  homeworkTeacher: () => import('../areas/homework/teacher-homework'),
  homeworkParent: () => import('../areas/homework/parent-homework'),
  // public resources and school materials
  resourcesPublic: () => import('../areas/resources/public-resources'),
  resourcesSchool: () => import('../areas/resources/school-materials'),
  resourcesOperator: () => import('../areas/resources/operator-resources'),
  // notices screens
  noticesStaff: () => import('../areas/notices/staff-notices'),
  noticesParent: () => import('../areas/notices/parent-notices'),
  // teaching screens
  teachingClasses: () => import('../areas/teaching/class-tabs'),
  teachingClassAdd: () => import('../areas/teaching/class-add'),
  teachingClassEditing: () => import('../areas/teaching/class-editing'),
  teachingRollCall: () => import('../areas/teaching/roll-call'),
  teachingTutoring: () => import('../areas/teaching/tutoring'),
  // timetable screens
  scheduleTeacher: () => import('../areas/schedule/teacher-schedule'),
  scheduleAdviser: () => import('../areas/schedule/adviser-schedule'),
  scheduleClass: () => import('../areas/schedule/class-schedule'),
  growthParent: () => import('../areas/parent/growth'),
  teachingTeacherClasses: () => import('../areas/teaching/teacher-classes'),
  scheduleSchool: () => import('../areas/schedule/school-schedule'),
  // QR sign-in
  qrScan: () => import('../areas/auth/qr-scan'),
  // SMS consoles
  smsOperator: () => import('../areas/sms/operator-sms'),
  smsSchool: () => import('../areas/sms/school-sms'),
  // parents in WeChat: the parent's channels and binding, the school's counts, the operator's official account
  wechatParent: () => import('../areas/wechat/parent-messages'),
  pickupParent: () => import('../areas/pickup/parent-pickup'),
  reportParent: () => import('../areas/reports/parent-report'),
  reportClass: () => import('../areas/reports/class-reports'),
  wechatSchool: () => import('../areas/wechat/school-wechat'),
  wechatOperator: () => import('../areas/wechat/operator-wechat'),
  // children's personal information: the documents' public pages, the parent's consent screen
  privacyPolicy: () => import('../areas/privacy/public-policy'),
  parentConsent: () => import('../areas/privacy/desktop-consent'),
  privacyPrincipal: () => import('../areas/privacy/principal-privacy'),
  privacyOperator: () => import('../areas/privacy/operator-privacy'),
  // receipts (issue 40)
  receiptsPrincipal: () => import('../areas/receipts/principal-receipts'),
  // family conversations: the admin's, head teacher's and teacher's console
  conversationsConsole: () => import('../areas/conversations/console'),
} satisfies Record<string, Page>;

/** A console screen, by key. */
export type PageKey = keyof typeof pages;

export const PAGES: Record<PageKey, Page> = pages;
