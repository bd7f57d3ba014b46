import { Role } from '@wantuo/shared';
import type { Bilingual } from '../i18n/messages';
import type { PageKey } from './pages';

/** The console areas and who may enter them (the identity rule of spec §4). */
export type Area = 'public' | 'principal' | 'center' | 'adviser' | 'teacher' | 'parent' | 'operator' | 'account';

export const AREA_ROLES: Record<Area, Role[] | 'all' | 'signed-in'> = {
  public: 'all',
  principal: [Role.Admin],
  center: [Role.Admin],
  adviser: [Role.HeadTeacher],
  teacher: [Role.Teacher, Role.HeadTeacher],
  parent: [Role.Parent],
  operator: [Role.Operator],
  account: 'signed-in',
};

/** Where each role lands after sign-in. */
export const HOME_OF: Record<Role, string> = {
  [Role.Admin]: '/principalIndex',
  [Role.Teacher]: '/teacher_today',
  [Role.HeadTeacher]: '/AAccountManagement',
  [Role.Parent]: '/parent',
  [Role.Operator]: '/operator',
};

/** Pages the API serves outside this app that sign-in may return to, with who may open them (Bull Board). */
export const SERVER_PAGES: ReadonlyArray<{ path: string; roles: readonly Role[] }> = [{ path: '/admin/queues', roles: [Role.Operator] }];

/** The screen a route shows: a key of the screens' list (pages.ts). */
export type { PageKey } from './pages';

export interface RouteDef {
  path: string;
  area: Area;
  /** null: no title (spec: PDF viewer, /principal wrapper) */
  title: Bilingual | null;
  /** the screen */
  page: PageKey;
  /** menu group (side menu of the area); absent: not in the menu */
  menu?: Bilingual;
  /** the menu entry's label when it is not the title (several spec paths share the title 班级管理) */
  menuTitle?: Bilingual;
  /** public layout variants (spec: header hidden, footer shown) */
  hideHeader?: boolean;
}

const b = (zh: string, en: string): Bilingual => ({ zh, en });

const G = {
  home: b('首页', 'Home'),
  teaching: b('教学备课', 'Teaching'),
  classes: b('班级管理', 'Classes'),
  school: b('学校管理', 'School'),
  services: b('餐食与商城', 'Meals and shop'),
  data: b('数据中心', 'Data'),
  daily: b('每日接送', 'Daily'),
  me: b('我的', 'Me'),
  site: b('平台运营', 'Platform'),
};

/** Menu groups in the order the side menus show them. */
export const MENU_ORDER: Bilingual[] = [G.home, G.daily, G.school, G.classes, G.teaching, G.services, G.data, G.site, G.me];

/** Every path of spec §2 (plus sign-in, settings, parent and operator areas), with its title and screen. */
export const ROUTES: RouteDef[] = [
  // public layout
  { path: '/home', area: 'public', title: b('首页', 'Home'), page: 'home' },
  { path: '/about', area: 'public', title: b('关于我们', 'About us'), page: 'about' },
  { path: '/richText', area: 'public', title: b('关于我们', 'About us'), page: 'about' },
  { path: '/pdf-viewer', area: 'public', title: null, page: 'pdf' },
  { path: '/resource', area: 'public', title: b('资源下载', 'Resource download'), page: 'resourcesPublic' },
  { path: '/attendClass', area: 'public', title: b('上课', 'Attend class'), page: 'attendClass', hideHeader: true },
  // issue 37: the documents, public (linked from the sign-in page and the footer)
  { path: '/privacy', area: 'public', title: b('隐私政策', 'Privacy policy'), page: 'privacyPolicy' },
  { path: '/children_privacy', area: 'public', title: b('儿童个人信息保护规则', "Children's personal-information rules"), page: 'privacyPolicy' },

  // /principal (admin)
  { path: '/principalIndex', area: 'principal', title: b('校长首页', 'Principal home'), page: 'principalHome', menu: G.home },
  { path: '/principal_downloads', area: 'principal', title: b('资料下载', 'Materials'), page: 'resourcesSchool', menu: G.teaching },
  { path: '/sparePart', area: 'principal', title: b('备课', 'Lesson preparation'), page: 'lessonPlans', menu: G.teaching },
  { path: '/CoursewareResource', area: 'principal', title: b('课件资源中心', 'Courseware resources'), page: 'coursewareCatalogue', menu: G.teaching },
  { path: '/principal_user', area: 'principal', title: b('个人中心', 'Personal centre'), page: 'principalUser', menu: G.me },
  { path: '/onlineStore', area: 'principal', title: b('在线商城', 'Online mall'), page: 'storeMall', menu: G.services },
  { path: '/onlineStore_detail', area: 'principal', title: b('商城详情', 'Mall detail'), page: 'storeDetail' },
  { path: '/confirmOrder', area: 'principal', title: b('确认订单', 'Confirm order'), page: 'storeConfirm' },
  { path: '/principal_store_orders', area: 'principal', title: b('商城订单', 'Mall orders'), page: 'storeSchoolOrders', menu: G.services },
  { path: '/principal_class_Job', area: 'principal', title: b('查看作业', 'View homework'), page: 'homeworkClassJob', menu: G.classes },
  { path: '/principal_class_Job1', area: 'principal', title: b('查看作业2', 'View homework 2'), page: 'homeworkClassJob1' },
  { path: '/principal_class_family', area: 'principal', title: b('辅导班', 'Tutoring class'), page: 'teachingTutoring', menu: G.classes },
  { path: '/principal_add_class', area: 'principal', title: b('新建班级', 'New class'), page: 'teachingClassAdd' },
  { path: '/principal_class_Editing', area: 'principal', title: b('编辑班级', 'Edit class'), page: 'teachingClassEditing' },

  // /principalCenter (header hidden, footer shown)
  { path: '/principalCenter_lessonware', area: 'center', title: b('课件', 'Courseware'), page: 'coursewareLessonware' },
  { path: '/principalCenter_matching', area: 'center', title: b('配套资料', 'Supporting materials'), page: 'coursewareMatching' },
  { path: '/principalCenter_record', area: 'center', title: b('录播', 'Recordings'), page: 'coursewareRecord' },

  // /prexy (school management, admin)
  { path: '/principal_account', area: 'principal', title: b('账户管理', 'Account management'), page: 'staffAccounts', menu: G.school },
  { path: '/principal_courseware', area: 'principal', title: b('课件中心', 'Courseware centre'), page: 'coursewareOwned', menu: G.teaching },
  { path: '/principal_teaching', area: 'principal', title: b('课件中心', 'Courseware centre'), page: 'coursewareOwned' },
  { path: '/principal_class', area: 'principal', title: b('班级管理', 'Class management'), page: 'teachingClasses', menu: G.classes },
  { path: '/principal_schedule', area: 'principal', title: b('全校课表', 'School timetable'), page: 'scheduleSchool', menu: G.classes },
  // issue 34: the admin's screens of actions actions.tsv allows the admin (leave review, attendance records, a class's week)
  { path: '/principal_class_schedule', area: 'principal', title: b('班级课表', 'Class timetable'), page: 'scheduleClass', menu: G.classes },
  { path: '/principal_leave', area: 'principal', title: b('请假审核', 'Leave review'), page: 'flowLeaveReview', menu: G.classes },
  { path: '/principal_attendance', area: 'principal', title: b('考勤记录', 'Attendance records'), page: 'flowRecords', menu: G.data },
  { path: '/principal_exams', area: 'principal', title: b('考试成绩', 'Exams and scores'), page: 'examsList', menu: G.classes },
  { path: '/principal_exam_scores', area: 'principal', title: b('成绩录入与分析', 'Score entry and analysis'), page: 'examScores' },
  { path: '/principal_classCompile', area: 'principal', title: b('编辑班级管理', 'Edit class management'), page: 'careClassStudents' },
  { path: '/principal_educationals', area: 'principal', title: b('教务中心', 'Academic affairs centre'), page: 'studentList', menu: G.school },
  { path: '/principal_educationalsTeacher_add', area: 'principal', title: b('添加教师账号', 'Add teacher account'), page: 'teacherAdd' },
  { path: '/principal_educationalsStudent_add', area: 'principal', title: b('添加学生账号', 'Add student account'), page: 'studentAdd' },
  { path: '/principal_educationals_student', area: 'principal', title: b('编辑学生信息', 'Edit student info'), page: 'studentEdit' },
  { path: '/principal_educationals_studentrecord', area: 'principal', title: b('编辑学生信息', 'Edit student info'), page: 'studentRecord' },
  { path: '/principal_contract', area: 'principal', title: b('晚托合同', 'After-school care contracts'), page: 'principalContracts', menu: G.school },
  { path: '/principal_data', area: 'principal', title: b('数据中心', 'Data centre'), page: 'flowData', menu: G.data },
  { path: '/principal_shop', area: 'principal', title: b('积分商城', 'Points mall'), page: 'pointsShop', menu: G.services },
  { path: '/principal_notices', area: 'principal', title: b('通知公告', 'Notices'), page: 'noticesStaff', menu: G.school },
  { path: '/principal_sms', area: 'principal', title: b('短信记录', 'Text messages'), page: 'smsSchool', menu: G.school },
  { path: '/principal_wechat', area: 'principal', title: b('微信消息', 'WeChat messages'), page: 'wechatSchool', menu: G.school },
  // issue 37: who read which child's data, and the guardians' correction and deletion requests
  {
    path: '/principal_privacy',
    area: 'principal',
    title: b('隐私与儿童数据', "Privacy and children's data"),
    page: 'privacyPrincipal',
    menu: G.school,
  },
  // issue 40: the school's family conversations (an admin's read is logged), and the admin's own office hours
  { path: '/principal_chats', area: 'principal', title: b('家长消息', 'Family messages'), page: 'conversationsConsole', menu: G.school },
  // issue 40: every payment's and refund's receipt (收据), the month's export and the school's stamp
  { path: '/principal_receipts', area: 'principal', title: b('收据管理', 'Receipts'), page: 'receiptsPrincipal', menu: G.school },
  { path: '/principal_shop_add', area: 'principal', title: b('添加积分商城商品', 'Add points-mall product'), page: 'pointsGoodsForm' },
  { path: '/principal_order', area: 'principal', title: b('订餐管理', 'Meal-order management'), page: 'mealsOrder', menu: G.services },
  { path: '/principal_order_add', area: 'principal', title: b('添加订餐', 'Add meal order'), page: 'mealsOrderAdd' },

  // teacher screens (teachers and head teachers)
  { path: '/teacher_today', area: 'teacher', title: b('今日接送', "Today's flow"), page: 'flowToday', menu: G.daily },
  { path: '/teacher_shuttle', area: 'teacher', title: b('接送名单', 'Pick-up list'), page: 'flowShuttle', menu: G.daily },
  { path: '/teacher_tutor', area: 'teacher', title: b('辅导名单', 'Tutoring list'), page: 'flowTutor', menu: G.daily },
  { path: '/teacher_points', area: 'teacher', title: b('积分奖惩', 'Award points'), page: 'pointsTeacher', menu: G.daily },
  { path: '/teacher_notices', area: 'teacher', title: b('通知', 'Notices'), page: 'noticesStaff', menu: G.classes },
  { path: '/teacher_comments', area: 'teacher', title: b('每日评语', 'Daily comments'), page: 'reportClass', menu: G.daily },
  { path: '/teacher_homework', area: 'teacher', title: b('作业', 'Homework'), page: 'homeworkTeacher', menu: G.daily },
  { path: '/teacher_rollcall', area: 'teacher', title: b('课堂点名', 'Roll call'), page: 'teachingRollCall', menu: G.daily },
  { path: '/TeacherClass', area: 'teacher', title: b('教师班级管理', 'Teacher class management'), page: 'careTeacherClass', menu: G.daily },
  { path: '/Teacher_educationals', area: 'teacher', title: b('教务中心', 'Academic affairs centre'), page: 'teacherStudents', menu: G.classes },
  { path: '/Teacher_classSchedule', area: 'teacher', title: b('班级课表', 'Class timetable'), page: 'scheduleTeacher', menu: G.classes },
  { path: '/teacher_exams', area: 'teacher', title: b('考试成绩', 'Exams and scores'), page: 'examsList', menu: G.classes },
  { path: '/teacher_lessons', area: 'teacher', title: b('备课', 'Lesson preparation'), page: 'lessonPlans', menu: G.teaching },
  { path: '/teacher_exam_scores', area: 'teacher', title: b('录入成绩', 'Enter scores'), page: 'examScores' },
  // issue 34: the leave requests of the teacher's students (read only) and the teaching classes they teach
  { path: '/teacher_leave', area: 'teacher', title: b('学生请假', 'Leave requests'), page: 'flowLeaveReview', menu: G.classes },
  // issue 40: the family conversations of the teacher's children and their office hours
  { path: '/teacher_chats', area: 'teacher', title: b('家长消息', 'Family messages'), page: 'conversationsConsole', menu: G.daily },
  { path: '/teacher_classes', area: 'teacher', title: b('我的兴趣班', 'My classes'), page: 'teachingTeacherClasses', menu: G.classes },

  // /ClassAdviser (head teacher)
  { path: '/AAccountManagement', area: 'adviser', title: b('班主任首页', 'Adviser home'), page: 'flowAdviserHome', menu: G.home },
  { path: '/AClassSchedule', area: 'adviser', title: b('班级课表', 'Class timetable'), page: 'scheduleAdviser', menu: G.classes },
  { path: '/AStudentTransport', area: 'adviser', title: b('学生接送', 'Student pick-up and drop-off'), page: 'flowTransport', menu: G.daily },
  { path: '/AMentorStudent', area: 'adviser', title: b('辅导学生', 'Tutored students'), page: 'careMentorStudents', menu: G.daily },
  { path: '/AStudentAttendance', area: 'adviser', title: b('学生考勤', 'Student attendance'), page: 'flowBoard', menu: G.daily },
  { path: '/ALeaveReview', area: 'adviser', title: b('请假审核', 'Leave review'), page: 'flowLeaveReview', menu: G.daily },
  { path: '/AOrderReservation', area: 'adviser', title: b('订餐预约', 'Meal reservation'), page: 'mealsReservation', menu: G.daily },
  { path: '/AClassList', area: 'adviser', title: b('班级管理', 'Class management'), page: 'careAdviserClass', menu: G.classes },
  { path: '/Astudentmanagement', area: 'adviser', title: b('班级管理', 'Class management'), page: 'adviserCare' },
  {
    path: '/AClassNotice',
    area: 'adviser',
    title: b('班级管理', 'Class management'),
    page: 'noticesStaff',
    menu: G.classes,
    menuTitle: b('班级通知', 'Class notices'),
  },
  { path: '/A_points', area: 'adviser', title: b('积分奖惩', 'Award points'), page: 'pointsTeacher', menu: G.classes },
  { path: '/A_reports', area: 'adviser', title: b('每日反馈', 'Daily reports'), page: 'reportClass', menu: G.daily },
  { path: '/A_homework', area: 'adviser', title: b('班级作业', 'Class homework'), page: 'homeworkTeacher', menu: G.classes },
  { path: '/A_exams', area: 'adviser', title: b('考试成绩', 'Exams and scores'), page: 'examsList', menu: G.classes },
  { path: '/A_exam_scores', area: 'adviser', title: b('录入成绩', 'Enter scores'), page: 'examScores' },
  { path: '/A_lessons', area: 'adviser', title: b('备课', 'Lesson preparation'), page: 'lessonPlans', menu: G.teaching },
  { path: '/A_chats', area: 'adviser', title: b('家长消息', 'Family messages'), page: 'conversationsConsole', menu: G.daily },
  { path: '/A_data', area: 'adviser', title: b('数据中心', 'Data centre'), page: 'flowData', menu: G.data },

  // parent, operator, account
  { path: '/parent', area: 'parent', title: b('家长首页', 'Parent home'), page: 'parentHome', menu: G.home },
  { path: '/parent_meals', area: 'parent', title: b('晚餐预订', 'Dinner'), page: 'parentMeals', menu: G.home },
  { path: '/parent_contracts', area: 'parent', title: b('合同与缴费', 'Contracts and payments'), page: 'parentContracts', menu: G.me },
  { path: '/parent_report', area: 'parent', title: b('每日反馈', 'Daily report'), page: 'reportParent', menu: G.home },
  { path: '/parent_homework', area: 'parent', title: b('作业', 'Homework'), page: 'homeworkParent', menu: G.home },
  { path: '/parent_points', area: 'parent', title: b('积分', 'Points'), page: 'pointsParent', menu: G.me },
  { path: '/parent_scores', area: 'parent', title: b('考试成绩', 'Exam scores'), page: 'parentScores', menu: G.me },
  // issue 34: the child's growth record (teacherStudentGrowth) and teaching classes (studentTeachingClassList)
  { path: '/parent_growth', area: 'parent', title: b('成长记录', 'Growth record'), page: 'growthParent', menu: G.me },
  { path: '/parent_notices', area: 'parent', title: b('通知', 'Notices'), page: 'noticesParent', menu: G.home },
  { path: '/parent_messages', area: 'parent', title: b('消息通知', 'Notifications'), page: 'wechatParent', menu: G.me },
  // verified pick-up (issue 27): the guardian's rotating code and the share links of the pick-up people
  { path: '/parent_pickup', area: 'parent', title: b('接送码', 'Pick-up code'), page: 'pickupParent', menu: G.home },
  // issue 37: where every parent page sends a guardian who has not accepted the current documents
  { path: '/parent_consent', area: 'parent', title: b('请阅读并同意', 'Please read and accept'), page: 'parentConsent' },
  { path: '/operator', area: 'operator', title: b('站点配置', 'Site configuration'), page: 'operatorSite', menu: G.site },
  { path: '/operator_applications', area: 'operator', title: b('入驻申请', 'Applications'), page: 'operatorApplications', menu: G.site },
  { path: '/operator_resources', area: 'operator', title: b('资源管理', 'Resources'), page: 'resourcesOperator', menu: G.site },
  { path: '/operator_courseware', area: 'operator', title: b('课件目录', 'Courseware catalogue'), page: 'coursewareOperator', menu: G.site },
  { path: '/operator_schools', area: 'operator', title: b('机构管理', 'Schools'), page: 'operatorSchools', menu: G.site },
  // issue 36: each merchant's daily WeChat Pay bill against the payments recorded (对账), and the differences
  { path: '/operator_bills', area: 'operator', title: b('对账', 'Reconciliation'), page: 'operatorBills', menu: G.site },
  { path: '/operator_store_goods', area: 'operator', title: b('商城商品', 'Mall goods'), page: 'storeOperatorGoods', menu: G.site },
  { path: '/operator_store_orders', area: 'operator', title: b('商城订单', 'Mall orders'), page: 'storeOperatorOrders', menu: G.site },
  { path: '/operator_sms', area: 'operator', title: b('短信通道', 'SMS gateways'), page: 'smsOperator', menu: G.site },
  { path: '/operator_wechat', area: 'operator', title: b('公众号', 'Official account'), page: 'wechatOperator', menu: G.site },
  // issue 37: the privacy policy's and the children's rules' versions, and publishing a new one
  { path: '/operator_privacy', area: 'operator', title: b('隐私政策管理', 'Privacy documents'), page: 'privacyOperator', menu: G.site },
  { path: '/settings', area: 'account', title: b('用户设置', 'Settings'), page: 'settings' },
  // where an H5 payment (a phone browser outside WeChat) comes back from WeChat's cashier page (issue 24)
  { path: '/pay/result', area: 'account', title: b('支付结果', 'Payment result'), page: 'payResult' },
  // QR sign-in: the phone's scan page (the code points at /qr_scan; the teacher's, head teacher's and parent's menus list it)
  { path: '/qr_scan', area: 'account', title: b('扫码登录', 'Scan to sign in'), page: 'qrScan' },
  { path: '/teacher_scan', area: 'teacher', title: b('扫码登录', 'Scan to sign in'), page: 'qrScan', menu: G.me },
  { path: '/A_scan', area: 'adviser', title: b('扫码登录', 'Scan to sign in'), page: 'qrScan', menu: G.me },
  { path: '/parent_scan', area: 'parent', title: b('扫码登录', 'Scan to sign in'), page: 'qrScan', menu: G.me },
];

/** Redirects of spec §2. */
export const REDIRECTS: Record<string, string> = {
  '/': '/home',
  '/principal': '/principalIndex',
  '/prexy': '/principal_account',
  '/principalCenter': '/principalCenter_lessonware',
  '/ClassAdviser': '/AAccountManagement',
};

export const LOGIN_TITLE = b('登录', 'Sign in');
