import { Role } from '@wantuo/shared';
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

export type PageKey =
  | 'home'
  | 'about'
  | 'pdf'
  | 'settings'
  | 'parentHome'
  | 'operatorSite'
  | 'operatorApplications'
  | 'operatorSchools'
  // money screens
  | 'principalHome'
  | 'principalUser'
  | 'pending'
  // meals screens
  | 'mealsOrder'
  | 'mealsOrderAdd'
  | 'mealsReservation'
  | 'parentMeals'
  // staff screens
  | 'staffAccounts'
  | 'teacherAdd'
  // students screens
  | 'studentList'
  | 'studentAdd'
  | 'studentEdit'
  | 'studentRecord'
  | 'teacherStudents'
  | 'adviserCare'
  // care and timetable screens
  | 'careClasses'
  | 'careClassForm'
  | 'careClassStudents'
  | 'careTeacherClass'
  | 'careAdviserClass'
  | 'careMentorStudents'
  // flow screens
  | 'flowToday'
  | 'flowBoard'
  | 'flowAdviserHome'
  | 'flowTransport'
  | 'flowLeaveReview'
  | 'flowShuttle'
  | 'flowTutor'
  | 'flowData'
  // contracts screens
  | 'principalContracts'
  | 'parentContracts'
  // points screens
  | 'pointsShop'
  | 'pointsGoodsForm'
  | 'pointsTeacher'
  | 'pointsParent'
  // teaching screens
  | 'teachingClasses'
  | 'teachingClassAdd'
  | 'teachingClassEditing'
  | 'teachingRollCall'
  | 'teachingTutoring'
  // timetable screens
  | 'scheduleTeacher'
  | 'scheduleAdviser'
  | 'scheduleSchool'
  ;

export interface RouteDef {
  path: string;
  area: Area;
  /** null: no title (spec: PDF viewer, /principal wrapper) */
  title: Bilingual | null;
  /** the screen; 'pending' until its module is built */
  page: PageKey;
  /** menu group (side menu of the area); absent: not in the menu */
  menu?: Bilingual;
  /** for pending screens: the data that will appear there */
  shows?: Bilingual;
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
  { path: '/resource', area: 'public', title: b('资源下载', 'Resource download'), page: 'pending', shows: b('平台公开的资源文件列表：标题、大小、类型和下载链接，分页浏览。', 'The public resource files: title, size, type and download link, paged.') },
  { path: '/attendClass', area: 'public', title: b('上课', 'Attend class'), page: 'pending', hideHeader: true, shows: b('上课界面：当前课程的课件页面与课堂资料。', 'The class view: the current lesson’s courseware pages and materials.') },

  // /principal (admin)
  { path: '/principalIndex', area: 'principal', title: b('校长首页', 'Principal home'), page: 'principalHome', menu: G.home, shows: b('机构概览：在托学生数、今日到园与离园、待审核请假、即将到期的合同和账户余额。', 'Overview: enrolled students, today’s arrivals and departures, pending leave, expiring contracts and the balance.') },
  { path: '/sparePart', area: 'principal', title: b('备课', 'Lesson preparation'), page: 'pending', menu: G.teaching, shows: b('基于已购课件编写的教案列表与编辑。', 'Lesson plans built from owned courseware, and their editor.') },
  { path: '/CoursewareResource', area: 'principal', title: b('课件资源中心', 'Courseware resources'), page: 'pending', menu: G.teaching, shows: b('课件目录：按学科、年级、学期、体系、版本筛选，显示价格与是否已购买。', 'The courseware catalogue by subject, grade, term, series and edition, with price and whether it is owned.') },
  { path: '/principal_user', area: 'principal', title: b('个人中心', 'Personal centre'), page: 'principalUser', menu: G.me, shows: b('机构信息、账户余额、服务到期时间、续费与充值记录。', 'The institution, its balance, service expiry, renewals and top-ups.') },
  { path: '/onlineStore', area: 'principal', title: b('在线商城', 'Online mall'), page: 'pending', menu: G.services, shows: b('商城商品：按分类浏览，显示价格和库存。', 'Mall goods by category with price and stock.') },
  { path: '/onlineStore_detail', area: 'principal', title: b('商城详情', 'Mall detail'), page: 'pending', shows: b('单个商品的图片、介绍、价格与库存。', 'One good: pictures, description, price and stock.') },
  { path: '/confirmOrder', area: 'principal', title: b('确认订单', 'Confirm order'), page: 'pending', shows: b('下单前的商品、价格、合计与收货地址。', 'Items, prices, total and delivery address before ordering.') },
  { path: '/principal_class_Job', area: 'principal', title: b('查看作业', 'View homework'), page: 'pending', shows: b('班级布置的作业与提交情况。', 'Homework set for a class and its submissions.') },
  { path: '/principal_class_Job1', area: 'principal', title: b('查看作业2', 'View homework 2'), page: 'pending', shows: b('单次作业的学生提交与批改。', 'One homework’s submissions and marking.') },
  { path: '/principal_class_family', area: 'principal', title: b('辅导班', 'Tutoring class'), page: 'teachingTutoring', menu: G.classes, shows: b('家庭辅导班：辅导类型与设置（时长、价格、默认老师）、辅导班（预览后生成课次、停课、删除）、课次（调课、取消）、学生与辅导计划和记录。', 'Home tutoring: types and their settings (length, price, default tutor), tutoring classes (sessions generated after a preview, stop, delete), sessions (move, cancel), students with their plans and records.') },
  { path: '/principal_add_class', area: 'principal', title: b('新建班级', 'New class'), page: 'teachingClassAdd', shows: b('新建晚托班或兴趣班：兴趣班填写科目、老师、教室、容量、课次与收费后生成课表（预览、放假与调休、冲突）。', 'A new care or teaching class: a teaching class gets its subject, teacher, room, capacity, sessions and fee, then its schedule (preview, holidays and make-up days, clashes).') },
  { path: '/principal_class_Editing', area: 'principal', title: b('编辑班级', 'Edit class'), page: 'teachingClassEditing', shows: b('晚托班的编辑表单；兴趣班的信息、学生、课次（调课、取消）与排课。', 'The care class edit form; a teaching class’s details, students, sessions (move, cancel) and schedule generation.') },

  // /principalCenter (header hidden, footer shown)
  { path: '/principalCenter_lessonware', area: 'center', title: b('课件', 'Courseware'), page: 'pending', shows: b('已购课件的章节与文件。', 'Sections and files of owned courseware.') },
  { path: '/principalCenter_matching', area: 'center', title: b('配套资料', 'Supporting materials'), page: 'pending', shows: b('课件配套的练习与资料下载。', 'Exercises and materials that come with the courseware.') },
  { path: '/principalCenter_record', area: 'center', title: b('录播', 'Recordings'), page: 'pending', shows: b('课件配套的录播视频。', 'Recorded lessons of the courseware.') },

  // /prexy (school management, admin)
  { path: '/principal_account', area: 'principal', title: b('账户管理', 'Account management'), page: 'staffAccounts', menu: G.school, shows: b('教职工账号列表：姓名、角色、手机号、在职状态，可搜索与分页。', 'Staff accounts: name, role, mobile and status, searchable and paged.') },
  { path: '/principal_courseware', area: 'principal', title: b('课件中心', 'Courseware centre'), page: 'pending', menu: G.teaching, shows: b('机构已拥有的课件。', 'Courseware the institution owns.') },
  { path: '/principal_teaching', area: 'principal', title: b('课件中心', 'Courseware centre'), page: 'pending', shows: b('机构已拥有的课件。', 'Courseware the institution owns.') },
  { path: '/principal_class', area: 'principal', title: b('班级管理', 'Class management'), page: 'teachingClasses', menu: G.classes, shows: b('晚托班、兴趣班与校历：班主任或授课老师、时段或课次、人数、运行状态。', 'Care and teaching classes and the school calendar: teachers, slots or sessions, headcount and whether running.') },
  { path: '/principal_schedule', area: 'principal', title: b('全校课表', 'School timetable'), page: 'scheduleSchool', menu: G.classes, shows: b('全校本周课表：教室 × 日期，兴趣班与辅导课次。', 'The school’s week: rooms × days, teaching and tutoring sessions.') },
  { path: '/principal_classCompile', area: 'principal', title: b('编辑班级管理', 'Edit class management'), page: 'careClassStudents', shows: b('班级学生的加入与移出、老师分配。', 'Adding and removing students, assigning teachers.') },
  { path: '/principal_educationals', area: 'principal', title: b('教务中心', 'Academic affairs centre'), page: 'studentList', menu: G.school, shows: b('老师与学生档案：学生的监护人、接送人、班级和合同。', 'Teacher and student records: guardians, pick-up people, classes and contracts.') },
  { path: '/principal_educationalsTeacher_add', area: 'principal', title: b('添加教师账号', 'Add teacher account'), page: 'teacherAdd', shows: b('新增老师或班主任账号的表单。', 'The form for a new teacher or head-teacher account.') },
  { path: '/principal_educationalsStudent_add', area: 'principal', title: b('添加学生账号', 'Add student account'), page: 'studentAdd', shows: b('新增学生及其监护人的表单。', 'The form for a new student and guardians.') },
  { path: '/principal_educationals_student', area: 'principal', title: b('编辑学生信息', 'Edit student info'), page: 'studentEdit', shows: b('学生资料、监护人、授权接送人与托管设置。', 'Student profile, guardians, authorised pick-up people and care settings.') },
  { path: '/principal_educationals_studentrecord', area: 'principal', title: b('编辑学生信息', 'Edit student info'), page: 'studentRecord', shows: b('学生成长记录与评语。', 'The student’s growth record and comments.') },
  { path: '/principal_contract', area: 'principal', title: b('晚托合同', 'After-school care contracts'), page: 'principalContracts', menu: G.school, shows: b('晚托合同：生效、即将到期、已到期、已解除，可续签与解除。', 'Care contracts: active, expiring, expired, cancelled; renew or cancel.') },
  { path: '/principal_data', area: 'principal', title: b('数据中心', 'Data centre'), page: 'flowData', menu: G.data, shows: b('考勤、订餐和积分兑换的统计图表。', 'Charts of attendance, meal orders and points exchange.') },
  { path: '/principal_shop', area: 'principal', title: b('积分商城', 'Points mall'), page: 'pointsShop', menu: G.services, shows: b('积分商品：积分价格、库存、上下架。', 'Points goods: price in points, stock, listed or not.') },
  { path: '/principal_shop_add', area: 'principal', title: b('添加积分商城商品', 'Add points-mall product'), page: 'pointsGoodsForm', shows: b('新增积分商品的表单。', 'The form for a new points good.') },
  { path: '/principal_order', area: 'principal', title: b('订餐管理', 'Meal-order management'), page: 'mealsOrder', menu: G.services, shows: b('餐品与每日订餐记录。', 'Meal items and daily orders.') },
  { path: '/principal_order_add', area: 'principal', title: b('添加订餐', 'Add meal order'), page: 'mealsOrderAdd', shows: b('新增餐品的表单：名称、价格、图片。', 'The form for a meal item: name, price, picture.') },

  // teacher screens (teachers and head teachers)
  { path: '/teacher_today', area: 'teacher', title: b('今日接送', "Today's flow"), page: 'flowToday', menu: G.daily },
  { path: '/teacher_shuttle', area: 'teacher', title: b('接送名单', 'Pick-up list'), page: 'flowShuttle', menu: G.daily },
  { path: '/teacher_tutor', area: 'teacher', title: b('辅导名单', 'Tutoring list'), page: 'flowTutor', menu: G.daily },
  { path: '/teacher_points', area: 'teacher', title: b('积分奖惩', 'Award points'), page: 'pointsTeacher', menu: G.daily },
  { path: '/teacher_rollcall', area: 'teacher', title: b('课堂点名', 'Roll call'), page: 'teachingRollCall', menu: G.daily },
  { path: '/TeacherClass', area: 'teacher', title: b('教师班级管理', 'Teacher class management'), page: 'careTeacherClass', menu: G.daily, shows: b('我负责的晚托班与学生，今日接送、晚餐和辅导任务。', 'My care class and students, and today’s pick-up, dinner and tutoring tasks.') },
  { path: '/Teacher_educationals', area: 'teacher', title: b('教务中心', 'Academic affairs centre'), page: 'teacherStudents', menu: G.classes, shows: b('我的学生档案、考试成绩与成长记录。', 'My students’ records, exam scores and growth.') },
  { path: '/Teacher_classSchedule', area: 'teacher', title: b('班级课表', 'Class timetable'), page: 'scheduleTeacher', menu: G.classes, shows: b('我的本周课表。', 'My timetable for the week.') },

  // /ClassAdviser (head teacher)
  { path: '/AAccountManagement', area: 'adviser', title: b('班主任首页', 'Adviser home'), page: 'flowAdviserHome', menu: G.home, shows: b('今日各环节实时人数：接送、入园、晚餐、辅导、离园。', 'Live counts for today: picked up, arrived, dinner, tutoring, left.') },
  { path: '/AClassSchedule', area: 'adviser', title: b('班级课表', 'Class timetable'), page: 'scheduleAdviser', menu: G.classes, shows: b('本班本周课表。', 'The class timetable for the week.') },
  { path: '/AStudentTransport', area: 'adviser', title: b('学生接送', 'Student pick-up and drop-off'), page: 'flowTransport', menu: G.daily, shows: b('接送看板：谁已接到、谁已离园、由谁接走。', 'The pick-up board: who is picked up, who left and with whom.') },
  { path: '/AMentorStudent', area: 'adviser', title: b('辅导学生', 'Tutored students'), page: 'careMentorStudents', menu: G.daily, shows: b('本班辅导学生与辅导进度。', 'Tutored students of the class and their progress.') },
  { path: '/AStudentAttendance', area: 'adviser', title: b('学生考勤', 'Student attendance'), page: 'flowBoard', menu: G.daily, shows: b('按状态分组的实时考勤看板。', 'The live attendance board by state.') },
  { path: '/ALeaveReview', area: 'adviser', title: b('请假审核', 'Leave review'), page: 'flowLeaveReview', menu: G.daily, shows: b('家长提交的请假申请：待审核、已批准、已驳回。', 'Leave requests from parents: pending, approved, rejected.') },
  { path: '/AOrderReservation', area: 'adviser', title: b('订餐预约', 'Meal reservation'), page: 'mealsReservation', menu: G.daily, shows: b('本班某日的订餐统计与明细。', 'The class’s meal bookings for a day, per item and per student.') },
  { path: '/AClassList', area: 'adviser', title: b('班级管理', 'Class management'), page: 'careAdviserClass', menu: G.classes, shows: b('本班学生列表与加入、移出。', 'The class’s students, adding and removing.') },
  { path: '/Astudentmanagement', area: 'adviser', title: b('班级管理', 'Class management'), page: 'adviserCare', shows: b('学生托管设置：接送、晚餐、辅导与授权接送人。', 'Students’ care settings: shuttle, dinner, tutoring and pick-up people.') },
  { path: '/AClassNotice', area: 'adviser', title: b('班级管理', 'Class management'), page: 'pending', shows: b('班级通知的发布与已读回执。', 'Class notices and read receipts.') },
  { path: '/A_points', area: 'adviser', title: b('积分奖惩', 'Award points'), page: 'pointsTeacher', menu: G.classes },
  { path: '/A_data', area: 'adviser', title: b('数据中心', 'Data centre'), page: 'flowData', menu: G.data, shows: b('本班考勤统计图表。', 'Attendance charts of the class.') },

  // parent, operator, account
  { path: '/parent', area: 'parent', title: b('家长首页', 'Parent home'), page: 'parentHome', menu: G.home },
  { path: '/parent_meals', area: 'parent', title: b('晚餐预订', 'Dinner'), page: 'parentMeals', menu: G.home },
  { path: '/parent_contracts', area: 'parent', title: b('合同与缴费', 'Contracts and payments'), page: 'parentContracts', menu: G.me },
  { path: '/parent_points', area: 'parent', title: b('积分', 'Points'), page: 'pointsParent', menu: G.me },
  { path: '/operator', area: 'operator', title: b('站点配置', 'Site configuration'), page: 'operatorSite', menu: G.site },
  { path: '/operator_applications', area: 'operator', title: b('入驻申请', 'Applications'), page: 'operatorApplications', menu: G.site },
  { path: '/operator_schools', area: 'operator', title: b('机构管理', 'Schools'), page: 'operatorSchools', menu: G.site },
  { path: '/settings', area: 'account', title: b('用户设置', 'Settings'), page: 'settings' },
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
