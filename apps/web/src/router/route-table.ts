import { Role } from '@wantuo/shared';
import type { ComponentType } from 'react';
import type { Bilingual } from '../i18n/messages';

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

/** The console each role works in (its home is there; the account pages show that console's menu). */
export const AREA_OF: Record<Role, Area> = {
  [Role.Admin]: 'principal',
  [Role.Teacher]: 'teacher',
  [Role.HeadTeacher]: 'adviser',
  [Role.Parent]: 'parent',
  [Role.Operator]: 'operator',
};

/** Pages the API serves outside this app that sign-in may return to, with who may open them (Bull Board). */
export const SERVER_PAGES: ReadonlyArray<{ path: string; roles: readonly Role[] }> = [{ path: '/admin/queues', roles: [Role.Operator] }];

/** A screen's code, loaded when a route to it is first opened (its own chunk). */
export type Page = () => Promise<{ default: ComponentType }>;

export interface RouteDef {
  path: string;
  area: Area;
  /** null: no title (spec: PDF viewer, /principal wrapper) */
  title: Bilingual | null;
  /** the screen: its code, imported lazily (one chunk per screen) */
  page: Page;
  /** menu group (side menu of the area); absent: not in the menu */
  menu?: Bilingual;
  /** the menu entry's label when it is not the title (several spec paths share the title 班级管理) */
  menuTitle?: Bilingual;
  /** public layout variants (spec: header hidden, footer shown) */
  hideHeader?: boolean;
  /** the home of the roles whose console this is: where they land after sign-in (one route per role) */
  home?: true;
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

/**
 * Every path of spec §2 (plus sign-in, settings, parent and operator areas), each declared once: its title, who may
 * open it (its area), its screen (lazily imported) and its menu entry. The router, the guard, the menus, the page titles
 * and each role's home are derived from here.
 */
export const ROUTES: RouteDef[] = [
  // public layout
  { path: '/home', area: 'public', title: b('首页', 'Home'), page: () => import('../areas/public/home') },
  { path: '/about', area: 'public', title: b('关于我们', 'About us'), page: () => import('../areas/public/about') },
  { path: '/richText', area: 'public', title: b('关于我们', 'About us'), page: () => import('../areas/public/about') },
  { path: '/pdf-viewer', area: 'public', title: null, page: () => import('../areas/public/pdf-viewer') },
  { path: '/resource', area: 'public', title: b('资源下载', 'Resource download'), page: () => import('../areas/resources/public-resources') },
  {
    path: '/attendClass',
    area: 'public',
    title: b('上课', 'Attend class'),
    page: () => import('../areas/courseware/attend-class'),
    hideHeader: true,
  },
  // issue 37: the documents, public (linked from the sign-in page and the footer)
  { path: '/privacy', area: 'public', title: b('隐私政策', 'Privacy policy'), page: () => import('../areas/privacy/public-policy') },
  {
    path: '/children_privacy',
    area: 'public',
    title: b('儿童个人信息保护规则', "Children's personal-information rules"),
    page: () => import('../areas/privacy/public-policy'),
  },

  // /principal (admin)
  {
    path: '/principalIndex',
    area: 'principal',
    title: b('校长首页', 'Principal home'),
    page: () => import('../areas/principal/home'),
    menu: G.home,
    home: true,
  },
  {
    path: '/principal_downloads',
    area: 'principal',
    title: b('资料下载', 'Materials'),
    page: () => import('../areas/resources/school-materials'),
    menu: G.teaching,
  },
  {
    path: '/sparePart',
    area: 'principal',
    title: b('备课', 'Lesson preparation'),
    page: () => import('../areas/courseware/lesson-plans'),
    menu: G.teaching,
  },
  {
    path: '/CoursewareResource',
    area: 'principal',
    title: b('课件资源中心', 'Courseware resources'),
    page: () => import('../areas/courseware/catalogue'),
    menu: G.teaching,
  },
  {
    path: '/principal_user',
    area: 'principal',
    title: b('个人中心', 'Personal centre'),
    page: () => import('../areas/money/principal-user'),
    menu: G.me,
  },
  {
    path: '/onlineStore',
    area: 'principal',
    title: b('在线商城', 'Online mall'),
    page: () => import('../areas/store/online-store'),
    menu: G.services,
  },
  { path: '/onlineStore_detail', area: 'principal', title: b('商城详情', 'Mall detail'), page: () => import('../areas/store/store-detail') },
  { path: '/confirmOrder', area: 'principal', title: b('确认订单', 'Confirm order'), page: () => import('../areas/store/confirm-order') },
  {
    path: '/principal_store_orders',
    area: 'principal',
    title: b('商城订单', 'Mall orders'),
    page: () => import('../areas/store/school-orders'),
    menu: G.services,
  },
  {
    path: '/principal_class_Job',
    area: 'principal',
    title: b('查看作业', 'View homework'),
    page: () => import('../areas/homework/principal-class-job'),
    menu: G.classes,
  },
  {
    path: '/principal_class_Job1',
    area: 'principal',
    title: b('查看作业2', 'View homework 2'),
    page: () => import('../areas/homework/principal-class-job1'),
  },
  {
    path: '/principal_class_family',
    area: 'principal',
    title: b('辅导班', 'Tutoring class'),
    page: () => import('../areas/teaching/tutoring'),
    menu: G.classes,
  },
  { path: '/principal_add_class', area: 'principal', title: b('新建班级', 'New class'), page: () => import('../areas/teaching/class-add') },
  { path: '/principal_class_Editing', area: 'principal', title: b('编辑班级', 'Edit class'), page: () => import('../areas/teaching/class-editing') },

  // /principalCenter (header hidden, footer shown)
  { path: '/principalCenter_lessonware', area: 'center', title: b('课件', 'Courseware'), page: () => import('../areas/courseware/lessonware') },
  {
    path: '/principalCenter_matching',
    area: 'center',
    title: b('配套资料', 'Supporting materials'),
    page: () => import('../areas/courseware/matching'),
  },
  { path: '/principalCenter_record', area: 'center', title: b('录播', 'Recordings'), page: () => import('../areas/courseware/record') },

  // /prexy (school management, admin)
  {
    path: '/principal_account',
    area: 'principal',
    title: b('账户管理', 'Account management'),
    page: () => import('../areas/principal/staff-accounts'),
    menu: G.school,
  },
  {
    path: '/principal_courseware',
    area: 'principal',
    title: b('课件中心', 'Courseware centre'),
    page: () => import('../areas/courseware/owned'),
    menu: G.teaching,
  },
  { path: '/principal_teaching', area: 'principal', title: b('课件中心', 'Courseware centre'), page: () => import('../areas/courseware/owned') },
  {
    path: '/principal_class',
    area: 'principal',
    title: b('班级管理', 'Class management'),
    page: () => import('../areas/teaching/class-tabs'),
    menu: G.classes,
  },
  {
    path: '/principal_schedule',
    area: 'principal',
    title: b('全校课表', 'School timetable'),
    page: () => import('../areas/schedule/school-schedule'),
    menu: G.classes,
  },
  // issue 34: the admin's screens of actions actions.tsv allows the admin (leave review, attendance records, a class's week)
  {
    path: '/principal_class_schedule',
    area: 'principal',
    title: b('班级课表', 'Class timetable'),
    page: () => import('../areas/schedule/class-schedule'),
    menu: G.classes,
  },
  {
    path: '/principal_leave',
    area: 'principal',
    title: b('请假审核', 'Leave review'),
    page: () => import('../areas/flow/leave-review'),
    menu: G.classes,
  },
  {
    path: '/principal_attendance',
    area: 'principal',
    title: b('考勤记录', 'Attendance records'),
    page: () => import('../areas/flow/attendance-records'),
    menu: G.data,
  },
  {
    path: '/principal_exams',
    area: 'principal',
    title: b('考试成绩', 'Exams and scores'),
    page: () => import('../areas/exams/exams-list'),
    menu: G.classes,
  },
  {
    path: '/principal_exam_scores',
    area: 'principal',
    title: b('成绩录入与分析', 'Score entry and analysis'),
    page: () => import('../areas/exams/exam-scores'),
  },
  {
    path: '/principal_classCompile',
    area: 'principal',
    title: b('编辑班级管理', 'Edit class management'),
    page: () => import('../areas/care/class-students'),
  },
  {
    path: '/principal_educationals',
    area: 'principal',
    title: b('教务中心', 'Academic affairs centre'),
    page: () => import('../areas/students/student-list'),
    menu: G.school,
  },
  {
    path: '/principal_educationalsTeacher_add',
    area: 'principal',
    title: b('添加教师账号', 'Add teacher account'),
    page: () => import('../areas/principal/teacher-add'),
  },
  {
    path: '/principal_educationalsStudent_add',
    area: 'principal',
    title: b('添加学生账号', 'Add student account'),
    page: () => import('../areas/students/student-add'),
  },
  {
    path: '/principal_educationals_student',
    area: 'principal',
    title: b('编辑学生信息', 'Edit student info'),
    page: () => import('../areas/students/student-edit'),
  },
  {
    path: '/principal_educationals_studentrecord',
    area: 'principal',
    title: b('编辑学生信息', 'Edit student info'),
    page: () => import('../areas/students/student-record'),
  },
  {
    path: '/principal_contract',
    area: 'principal',
    title: b('晚托合同', 'After-school care contracts'),
    page: () => import('../areas/contracts/principal-contracts'),
    menu: G.school,
  },
  { path: '/principal_data', area: 'principal', title: b('数据中心', 'Data centre'), page: () => import('../areas/data/data-centre'), menu: G.data },
  {
    path: '/principal_shop',
    area: 'principal',
    title: b('积分商城', 'Points mall'),
    page: () => import('../areas/points/principal-shop'),
    menu: G.services,
  },
  {
    path: '/principal_notices',
    area: 'principal',
    title: b('通知公告', 'Notices'),
    page: () => import('../areas/notices/staff-notices'),
    menu: G.school,
  },
  { path: '/principal_sms', area: 'principal', title: b('短信记录', 'Text messages'), page: () => import('../areas/sms/school-sms'), menu: G.school },
  {
    path: '/principal_wechat',
    area: 'principal',
    title: b('微信消息', 'WeChat messages'),
    page: () => import('../areas/wechat/school-wechat'),
    menu: G.school,
  },
  // issue 37: who read which child's data, and the guardians' correction and deletion requests
  {
    path: '/principal_privacy',
    area: 'principal',
    title: b('隐私与儿童数据', "Privacy and children's data"),
    page: () => import('../areas/privacy/principal-privacy'),
    menu: G.school,
  },
  // issue 40: the school's family conversations (an admin's read is logged), and the admin's own office hours
  {
    path: '/principal_chats',
    area: 'principal',
    title: b('家长消息', 'Family messages'),
    page: () => import('../areas/conversations/console'),
    menu: G.school,
  },
  // issue 40: every payment's and refund's receipt (收据), the month's export and the school's stamp
  {
    path: '/principal_receipts',
    area: 'principal',
    title: b('收据管理', 'Receipts'),
    page: () => import('../areas/receipts/principal-receipts'),
    menu: G.school,
  },
  {
    path: '/principal_shop_add',
    area: 'principal',
    title: b('添加积分商城商品', 'Add points-mall product'),
    page: () => import('../areas/points/goods-form'),
  },
  {
    path: '/principal_order',
    area: 'principal',
    title: b('订餐管理', 'Meal-order management'),
    page: () => import('../areas/meals/principal-order'),
    menu: G.services,
  },
  { path: '/principal_order_add', area: 'principal', title: b('添加订餐', 'Add meal order'), page: () => import('../areas/meals/order-add') },

  // teacher screens (teachers and head teachers)
  {
    path: '/teacher_today',
    area: 'teacher',
    title: b('今日接送', "Today's flow"),
    page: () => import('../areas/flow/teacher-today'),
    menu: G.daily,
    home: true,
  },
  {
    path: '/teacher_shuttle',
    area: 'teacher',
    title: b('接送名单', 'Pick-up list'),
    page: () => import('../areas/flow/teacher-shuttle'),
    menu: G.daily,
  },
  {
    path: '/teacher_tutor',
    area: 'teacher',
    title: b('辅导名单', 'Tutoring list'),
    page: () => import('../areas/flow/teacher-tutor'),
    menu: G.daily,
  },
  {
    path: '/teacher_points',
    area: 'teacher',
    title: b('积分奖惩', 'Award points'),
    page: () => import('../areas/points/teacher-points'),
    menu: G.daily,
  },
  { path: '/teacher_notices', area: 'teacher', title: b('通知', 'Notices'), page: () => import('../areas/notices/staff-notices'), menu: G.classes },
  {
    path: '/teacher_comments',
    area: 'teacher',
    title: b('每日评语', 'Daily comments'),
    page: () => import('../areas/reports/class-reports'),
    menu: G.daily,
  },
  {
    path: '/teacher_homework',
    area: 'teacher',
    title: b('作业', 'Homework'),
    page: () => import('../areas/homework/teacher-homework'),
    menu: G.daily,
  },
  { path: '/teacher_rollcall', area: 'teacher', title: b('课堂点名', 'Roll call'), page: () => import('../areas/teaching/roll-call'), menu: G.daily },
  {
    path: '/TeacherClass',
    area: 'teacher',
    title: b('教师班级管理', 'Teacher class management'),
    page: () => import('../areas/care/teacher-class'),
    menu: G.daily,
  },
  {
    path: '/Teacher_educationals',
    area: 'teacher',
    title: b('教务中心', 'Academic affairs centre'),
    page: () => import('../areas/students/teacher-students'),
    menu: G.classes,
  },
  {
    path: '/Teacher_classSchedule',
    area: 'teacher',
    title: b('班级课表', 'Class timetable'),
    page: () => import('../areas/schedule/teacher-schedule'),
    menu: G.classes,
  },
  {
    path: '/teacher_exams',
    area: 'teacher',
    title: b('考试成绩', 'Exams and scores'),
    page: () => import('../areas/exams/exams-list'),
    menu: G.classes,
  },
  {
    path: '/teacher_lessons',
    area: 'teacher',
    title: b('备课', 'Lesson preparation'),
    page: () => import('../areas/courseware/lesson-plans'),
    menu: G.teaching,
  },
  { path: '/teacher_exam_scores', area: 'teacher', title: b('录入成绩', 'Enter scores'), page: () => import('../areas/exams/exam-scores') },
  // issue 34: the leave requests of the teacher's students (read only) and the teaching classes they teach
  {
    path: '/teacher_leave',
    area: 'teacher',
    title: b('学生请假', 'Leave requests'),
    page: () => import('../areas/flow/leave-review'),
    menu: G.classes,
  },
  // issue 40: the family conversations of the teacher's children and their office hours
  {
    path: '/teacher_chats',
    area: 'teacher',
    title: b('家长消息', 'Family messages'),
    page: () => import('../areas/conversations/console'),
    menu: G.daily,
  },
  {
    path: '/teacher_classes',
    area: 'teacher',
    title: b('我的兴趣班', 'My classes'),
    page: () => import('../areas/teaching/teacher-classes'),
    menu: G.classes,
  },

  // /ClassAdviser (head teacher)
  {
    path: '/AAccountManagement',
    area: 'adviser',
    title: b('班主任首页', 'Adviser home'),
    page: () => import('../areas/flow/adviser-home'),
    menu: G.home,
    home: true,
  },
  {
    path: '/AClassSchedule',
    area: 'adviser',
    title: b('班级课表', 'Class timetable'),
    page: () => import('../areas/schedule/adviser-schedule'),
    menu: G.classes,
  },
  {
    path: '/AStudentTransport',
    area: 'adviser',
    title: b('学生接送', 'Student pick-up and drop-off'),
    page: () => import('../areas/flow/transport-board'),
    menu: G.daily,
  },
  {
    path: '/AMentorStudent',
    area: 'adviser',
    title: b('辅导学生', 'Tutored students'),
    page: () => import('../areas/care/mentor-students'),
    menu: G.daily,
  },
  {
    path: '/AStudentAttendance',
    area: 'adviser',
    title: b('学生考勤', 'Student attendance'),
    page: () => import('../areas/flow/attendance-board'),
    menu: G.daily,
  },
  { path: '/ALeaveReview', area: 'adviser', title: b('请假审核', 'Leave review'), page: () => import('../areas/flow/leave-review'), menu: G.daily },
  {
    path: '/AOrderReservation',
    area: 'adviser',
    title: b('订餐预约', 'Meal reservation'),
    page: () => import('../areas/meals/adviser-reservation'),
    menu: G.daily,
  },
  {
    path: '/AClassList',
    area: 'adviser',
    title: b('班级管理', 'Class management'),
    page: () => import('../areas/care/adviser-class'),
    menu: G.classes,
  },
  { path: '/Astudentmanagement', area: 'adviser', title: b('班级管理', 'Class management'), page: () => import('../areas/students/adviser-care') },
  {
    path: '/AClassNotice',
    area: 'adviser',
    title: b('班级管理', 'Class management'),
    page: () => import('../areas/notices/staff-notices'),
    menu: G.classes,
    menuTitle: b('班级通知', 'Class notices'),
  },
  { path: '/A_points', area: 'adviser', title: b('积分奖惩', 'Award points'), page: () => import('../areas/points/teacher-points'), menu: G.classes },
  { path: '/A_reports', area: 'adviser', title: b('每日反馈', 'Daily reports'), page: () => import('../areas/reports/class-reports'), menu: G.daily },
  {
    path: '/A_homework',
    area: 'adviser',
    title: b('班级作业', 'Class homework'),
    page: () => import('../areas/homework/teacher-homework'),
    menu: G.classes,
  },
  { path: '/A_exams', area: 'adviser', title: b('考试成绩', 'Exams and scores'), page: () => import('../areas/exams/exams-list'), menu: G.classes },
  { path: '/A_exam_scores', area: 'adviser', title: b('录入成绩', 'Enter scores'), page: () => import('../areas/exams/exam-scores') },
  {
    path: '/A_lessons',
    area: 'adviser',
    title: b('备课', 'Lesson preparation'),
    page: () => import('../areas/courseware/lesson-plans'),
    menu: G.teaching,
  },
  { path: '/A_chats', area: 'adviser', title: b('家长消息', 'Family messages'), page: () => import('../areas/conversations/console'), menu: G.daily },
  { path: '/A_data', area: 'adviser', title: b('数据中心', 'Data centre'), page: () => import('../areas/data/data-centre'), menu: G.data },

  // parent, operator, account
  { path: '/parent', area: 'parent', title: b('家长首页', 'Parent home'), page: () => import('../areas/parent/home'), menu: G.home, home: true },
  { path: '/parent_meals', area: 'parent', title: b('晚餐预订', 'Dinner'), page: () => import('../areas/meals/parent-meals'), menu: G.home },
  {
    path: '/parent_contracts',
    area: 'parent',
    title: b('合同与缴费', 'Contracts and payments'),
    page: () => import('../areas/contracts/parent-contracts'),
    menu: G.me,
  },
  {
    path: '/parent_report',
    area: 'parent',
    title: b('每日反馈', 'Daily report'),
    page: () => import('../areas/reports/parent-report'),
    menu: G.home,
  },
  { path: '/parent_homework', area: 'parent', title: b('作业', 'Homework'), page: () => import('../areas/homework/parent-homework'), menu: G.home },
  { path: '/parent_points', area: 'parent', title: b('积分', 'Points'), page: () => import('../areas/points/parent-points'), menu: G.me },
  { path: '/parent_scores', area: 'parent', title: b('考试成绩', 'Exam scores'), page: () => import('../areas/exams/parent-scores'), menu: G.me },
  // issue 34: the child's growth record (teacherStudentGrowth) and teaching classes (studentTeachingClassList)
  { path: '/parent_growth', area: 'parent', title: b('成长记录', 'Growth record'), page: () => import('../areas/parent/growth'), menu: G.me },
  { path: '/parent_notices', area: 'parent', title: b('通知', 'Notices'), page: () => import('../areas/notices/parent-notices'), menu: G.home },
  {
    path: '/parent_messages',
    area: 'parent',
    title: b('消息通知', 'Notifications'),
    page: () => import('../areas/wechat/parent-messages'),
    menu: G.me,
  },
  // verified pick-up (issue 27): the guardian's rotating code and the share links of the pick-up people
  { path: '/parent_pickup', area: 'parent', title: b('接送码', 'Pick-up code'), page: () => import('../areas/pickup/parent-pickup'), menu: G.home },
  // issue 37: where every parent page sends a guardian who has not accepted the current documents
  {
    path: '/parent_consent',
    area: 'parent',
    title: b('请阅读并同意', 'Please read and accept'),
    page: () => import('../areas/privacy/desktop-consent'),
  },
  {
    path: '/operator',
    area: 'operator',
    title: b('站点配置', 'Site configuration'),
    page: () => import('../areas/operator/site'),
    menu: G.site,
    home: true,
  },
  {
    path: '/operator_applications',
    area: 'operator',
    title: b('入驻申请', 'Applications'),
    page: () => import('../areas/operator/applications'),
    menu: G.site,
  },
  {
    path: '/operator_resources',
    area: 'operator',
    title: b('资源管理', 'Resources'),
    page: () => import('../areas/resources/operator-resources'),
    menu: G.site,
  },
  {
    path: '/operator_courseware',
    area: 'operator',
    title: b('课件目录', 'Courseware catalogue'),
    page: () => import('../areas/courseware/operator-catalogue'),
    menu: G.site,
  },
  { path: '/operator_schools', area: 'operator', title: b('机构管理', 'Schools'), page: () => import('../areas/operator/schools'), menu: G.site },
  // issue 36: each merchant's daily WeChat Pay bill against the payments recorded (对账), and the differences
  { path: '/operator_bills', area: 'operator', title: b('对账', 'Reconciliation'), page: () => import('../areas/operator/bills'), menu: G.site },
  {
    path: '/operator_store_goods',
    area: 'operator',
    title: b('商城商品', 'Mall goods'),
    page: () => import('../areas/store/operator-goods'),
    menu: G.site,
  },
  {
    path: '/operator_store_orders',
    area: 'operator',
    title: b('商城订单', 'Mall orders'),
    page: () => import('../areas/store/operator-orders'),
    menu: G.site,
  },
  { path: '/operator_sms', area: 'operator', title: b('短信通道', 'SMS gateways'), page: () => import('../areas/sms/operator-sms'), menu: G.site },
  {
    path: '/operator_wechat',
    area: 'operator',
    title: b('公众号', 'Official account'),
    page: () => import('../areas/wechat/operator-wechat'),
    menu: G.site,
  },
  // issue 37: the privacy policy's and the children's rules' versions, and publishing a new one
  {
    path: '/operator_privacy',
    area: 'operator',
    title: b('隐私政策管理', 'Privacy documents'),
    page: () => import('../areas/privacy/operator-privacy'),
    menu: G.site,
  },
  { path: '/settings', area: 'account', title: b('用户设置', 'Settings'), page: () => import('../areas/account/settings') },
  // where an H5 payment (a phone browser outside WeChat) comes back from WeChat's cashier page (issue 24)
  { path: '/pay/result', area: 'account', title: b('支付结果', 'Payment result'), page: () => import('../areas/money/pay-result') },
  // QR sign-in: the phone's scan page (the code points at /qr_scan; the teacher's, head teacher's and parent's menus list it)
  { path: '/qr_scan', area: 'account', title: b('扫码登录', 'Scan to sign in'), page: () => import('../areas/auth/qr-scan') },
  { path: '/teacher_scan', area: 'teacher', title: b('扫码登录', 'Scan to sign in'), page: () => import('../areas/auth/qr-scan'), menu: G.me },
  { path: '/A_scan', area: 'adviser', title: b('扫码登录', 'Scan to sign in'), page: () => import('../areas/auth/qr-scan'), menu: G.me },
  { path: '/parent_scan', area: 'parent', title: b('扫码登录', 'Scan to sign in'), page: () => import('../areas/auth/qr-scan'), menu: G.me },
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

/** Where each role lands after sign-in: the route marked `home` in the role's console. */
export const HOME_OF = Object.fromEntries(
  Object.entries(AREA_OF).map(([role, area]) => {
    const homes = ROUTES.filter((r) => r.area === area && r.home);
    if (homes.length !== 1) throw new Error(`area ${area}: ${homes.length} home routes`);
    return [role, homes[0].path];
  }),
) as Record<Role, string>;
