import { Role } from '@wantuo/shared';
import type { DataSource, EntityManager } from 'typeorm';
import { hashPassword } from '../modules/auth/passwords';
import { seedDemoContracts } from './demo-contracts';
import { seedDemoHistory } from './demo-history';
import { seedDemoGoods } from './demo-goods';
import { rebuildReportsIn } from '../modules/reports/report-projection';
import { SANDBOX_DEMO_SUB_MCHID } from '../modules/payments/wechatpay/credentials';
import { seedDemoReceipts } from './demo-receipts';

export const DEMO_PASSWORD = 'Demo@2026';

/** design.md §2: the demo accounts, their roles and mobiles. */
export const DEMO_ACCOUNTS = [
  { username: 'admin', role: Role.Admin, mobile: '13800000001', name: '王园长', label: '机构管理员 institution admin' },
  { username: 'teacher', role: Role.Teacher, mobile: '13800000002', name: '李老师', label: '老师 teacher' },
  { username: 'adviser', role: Role.HeadTeacher, mobile: '13800000005', name: '张班主任', label: '班主任 head teacher' },
  { username: 'parent', role: Role.Parent, mobile: '13800000006', name: '陈家长', label: '家长 parent' },
  { username: 'operator', role: Role.Operator, mobile: '13800000009', name: '平台运营', label: '平台运营 platform operator' },
] as const;

export interface SeedResult {
  schoolId: number;
  users: Record<(typeof DEMO_ACCOUNTS)[number]['username'], number>;
  /** present when the people and classes were seeded */
  classes?: { running: number; second: number };
}

/**
 * Creates the demo school and its accounts once per database (remembered in site_settings 'seed.demo').
 * Returns null when the demo was seeded before. `history` (with people) adds four weeks of attendance
 * (demo-history.ts); `npm start` and `npm run seed` seed everything, the tests ask for what they use. With people, the
 * receipts of the demo's paid contracts (demo-receipts.ts), with the school's stamp when `uploadDir` says where it goes.
 */
export async function seedDemo(
  db: DataSource,
  opts: { people?: boolean; history?: boolean; uploadDir?: string } = { people: true, history: true },
): Promise<SeedResult | null> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  return db.transaction(async (em) => {
    const inserted: unknown[] = await em.query(
      `insert into site_settings (key, value) values ('seed.demo', jsonb_build_object('at', now())) on conflict (key) do nothing returning key`,
    );
    if (inserted.length === 0) return null;
    const [school]: Array<{ id: number }> = await em.query(
      `insert into schools (name, timezone, service_expires_at, contact_phone)
       values ('阳光晚托中心（演示）', 'Asia/Shanghai', now() + interval '1 year', '13800000001') returning id`,
    );
    const users = {} as SeedResult['users'];
    for (const a of DEMO_ACCOUNTS) {
      const [u]: Array<{ id: number }> = await em.query(
        `insert into users (school_id, role, username, name, nickname, mobile, password_hash)
         values ($1, $2, $3, $4, $4, $5, $6) returning id`,
        [a.role === Role.Operator ? null : school.id, a.role, a.username, a.name, a.mobile, passwordHash],
      );
      users[a.username] = u.id;
    }
    // the demo school's WeChat Pay sub-merchant, as the operator records it after a school's onboarding (进件): the
    // sandbox has it onboarded under its service provider, so the demo's parents can pay online
    await em.query(`insert into school_sub_merchants (school_id, sub_mchid, note, recorded_by) values ($1, $2, '演示机构的沙箱特约商户', $3)`, [
      school.id,
      SANDBOX_DEMO_SUB_MCHID,
      users.operator,
    ]);
    const result: SeedResult = { schoolId: school.id, users };
    if (opts.people) result.classes = await seedPeople(em, school.id, users, passwordHash);
    if (opts.people) await seedDemoReceipts(em, school.id, users.admin, opts.uploadDir);
    if (opts.people && opts.history) {
      await seedDemoHistory(em, school.id, users.teacher);
      // the daily reports of those days, as the live projection would have kept them (never sent: they are history)
      await rebuildReportsIn(em, { schoolId: school.id });
    }
    if (opts.people) await seedDemoGoods(em, users.operator);
    return result;
  });
}

export function demoAccountsTable(): string {
  const rows = DEMO_ACCOUNTS.map((a) => `  ${a.username.padEnd(9)} ${a.mobile}  role ${a.role}  ${a.label}`);
  return [`Demo accounts (password ${DEMO_PASSWORD}):`, ...rows].join('\n');
}

/** Students of the demo: [name, gender, birthday, day school, grade, class, needs shuttle, needs dinner, tutoring]. */
type DemoStudent = [string, 1 | 2, string, string, string, string, boolean, boolean, string | null];

const RUNNING_CLASS: DemoStudent[] = [
  ['陈小雨', 2, '2017-03-12', '实验小学', '三年级', '2班', true, true, '作业辅导'],
  ['陈小阳', 1, '2019-08-02', '实验小学', '一年级', '4班', true, true, '作业辅导'],
  ['王子涵', 1, '2017-11-20', '实验小学', '三年级', '1班', true, true, '作业辅导'],
  ['李欣怡', 2, '2018-05-09', '实验小学', '二年级', '3班', false, true, '作业辅导'],
  ['张浩然', 1, '2016-09-30', '第二小学', '四年级', '2班', true, false, '作业辅导'],
  ['刘诗琪', 2, '2017-01-17', '第二小学', '三年级', '5班', true, true, null],
  ['杨宇航', 1, '2018-02-25', '第二小学', '二年级', '1班', false, true, '作业辅导'],
  ['赵雨桐', 2, '2016-12-08', '实验小学', '四年级', '3班', true, true, '一对一辅导'],
  ['黄俊熙', 1, '2019-04-14', '第二小学', '一年级', '2班', true, true, null],
  ['周梓萱', 2, '2017-07-21', '实验小学', '三年级', '2班', false, true, '作业辅导'],
];

const SECOND_CLASS: DemoStudent[] = [
  ['吴宇轩', 1, '2016-06-03', '育才小学', '四年级', '1班', false, true, '作业辅导'],
  ['徐若曦', 2, '2017-10-11', '育才小学', '三年级', '3班', true, true, '作业辅导'],
  ['孙浩宇', 1, '2018-03-28', '育才小学', '二年级', '2班', true, false, null],
  ['胡可馨', 2, '2016-08-19', '实验小学', '四年级', '1班', false, true, '作业辅导'],
  ['朱子墨', 1, '2017-05-05', '育才小学', '三年级', '1班', true, true, '作业辅导'],
  ['高雅琪', 2, '2018-09-16', '育才小学', '二年级', '4班', false, true, null],
];

const ARCHIVED: DemoStudent[] = [
  ['林嘉豪', 1, '2015-04-02', '实验小学', '五年级', '2班', false, true, null],
  ['郭思远', 1, '2015-11-23', '第二小学', '五年级', '1班', true, true, null],
];

const GUARDIAN_FAMILY = ['王', '李', '张', '刘', '杨', '赵', '黄', '周', '吴', '徐', '孙', '胡', '朱', '高', '林', '郭'];

/**
 * design.md §2: one running care class of 10 students with guardians and pick-up people, `adviser` as head
 * teacher, `teacher` as shuttle and tutoring teacher, `parent` guardian of two of them; a second class, more
 * staff, a left-job teacher and archived students, contract packages and contracts in every state (demo-contracts.ts),
 * so every screen has something true to show.
 */
async function seedPeople(em: EntityManager, schoolId: number, users: SeedResult['users'], passwordHash: string) {
  await em.query(`update users set duties = '{head}' where id = $1`, [users.adviser]);
  await em.query(`update users set duties = '{shuttle,tutor}' where id = $1`, [users.teacher]);
  const staff = async (username: string, role: number, name: string, mobile: string, duties: string, left = false) => {
    const [u]: Array<{ id: number }> = await em.query(
      `insert into users (school_id, role, username, name, nickname, mobile, password_hash, duties, job_status, left_at)
       values ($1, $2, $3, $4, $4, $5, $6, $7::varchar[], $8, $9) returning id`,
      [schoolId, role, username, name, mobile, passwordHash, duties, left ? 2 : 1, left ? new Date(Date.now() - 30 * 86_400_000) : null],
    );
    return u.id;
  };
  const liu = await staff('demo_liu', 5, '刘老师', '13800000015', '{head}');
  const zhao = await staff('demo_zhao', 2, '赵老师', '13800000012', '{tutor}');
  await staff('demo_sun', 2, '孙老师', '13800000013', '{shuttle}', true);

  const [slot]: Array<{ id: number }> = await em.query(
    `insert into class_times (school_id, name, start_time, end_time, weekdays) values ($1, '放学晚托', '16:00', '19:30', '{1,2,3,4,5}') returning id`,
    [schoolId],
  );
  const [late]: Array<{ id: number }> = await em.query(
    `insert into class_times (school_id, name, start_time, end_time, weekdays) values ($1, '延时晚托', '16:30', '20:30', '{1,2,3,4,5}') returning id`,
    [schoolId],
  );
  const klass = async (name: string, head: number, slotId: number, capacity: number, feeFen: number) => {
    const [c]: Array<{ id: number }> = await em.query(
      `insert into care_classes (school_id, name, head_teacher_id, class_time_id, capacity, fee_fen) values ($1, $2, $3, $4, $5, $6) returning id`,
      [schoolId, name, head, slotId, capacity, feeFen],
    );
    return c.id;
  };
  const running = await klass('阳光一班', users.adviser, slot.id, 20, 120_000);
  const second = await klass('阳光二班', liu, late.id, 15, 135_000);
  await em.query(
    `insert into duty_assignments (school_id, class_id, teacher_id, duty) values
       ($1, $2, $3, 'head'), ($1, $2, $4, 'shuttle'), ($1, $2, $4, 'tutor'), ($1, $5, $6, 'head'), ($1, $5, $7, 'tutor')`,
    [schoolId, running, users.adviser, users.teacher, second, liu, zhao],
  );

  let guardianNo = 0;
  const addStudents = async (list: DemoStudent[], classId: number | null, archived = false) => {
    for (const [name, gender, birthday, daySchool, grade, className, shuttle, dinner, tutoring] of list) {
      const [st]: Array<{ id: number }> = await em.query(
        `insert into students (school_id, name, gender, birthday, day_school, grade, class_name, needs_shuttle, needs_dinner, tutoring_type,
                               allergies, status, archived_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) returning id`,
        [
          schoolId,
          name,
          gender,
          birthday,
          daySchool,
          grade,
          className,
          shuttle,
          dinner,
          tutoring,
          name === '李欣怡' ? '花生过敏' : null,
          archived ? 0 : 1,
          archived ? new Date(Date.now() - 60 * 86_400_000) : null,
        ],
      );
      // the demo parent is the guardian of the two 陈 siblings; every other child has a parent account of their own
      let guardian = users.parent;
      let guardianName = '陈家长';
      let guardianMobile = '13800000006';
      if (!name.startsWith('陈')) {
        guardianNo++;
        guardianName = `${GUARDIAN_FAMILY[guardianNo % GUARDIAN_FAMILY.length]}${gender === 1 ? '爸爸' : '妈妈'}`;
        guardianMobile = `139000${String(guardianNo).padStart(5, '0')}`;
        const [g]: Array<{ id: number }> = await em.query(
          `insert into users (school_id, role, username, name, nickname, mobile) values ($1, 6, $2, $3, $3, $4) returning id`,
          [schoolId, `p${guardianMobile}`, guardianName, guardianMobile],
        );
        guardian = g.id;
      }
      await em.query(`insert into student_guardians (school_id, student_id, user_id, relation, is_primary) values ($1, $2, $3, $4, true)`, [
        schoolId,
        st.id,
        guardian,
        guardianName.endsWith('妈妈') ? '母亲' : '父亲',
      ]);
      await em.query(
        `insert into pickup_people (school_id, student_id, name, relation, mobile) values ($1, $2, $3, $4, $5), ($1, $2, $6, '祖父母', $7)`,
        [
          schoolId,
          st.id,
          guardianName,
          guardianName.endsWith('妈妈') ? '母亲' : '父亲',
          guardianMobile,
          `${name.slice(0, 1)}奶奶`,
          `137000${String(st.id).padStart(5, '0')}`,
        ],
      );
      if (classId)
        await em.query(`insert into care_class_students (school_id, class_id, student_id) values ($1, $2, $3)`, [schoolId, classId, st.id]);
    }
  };
  await addStudents(RUNNING_CLASS, running);
  await addStudents(SECOND_CLASS, second);
  await addStudents(ARCHIVED, null, true);
  // the demo parent (the 陈 siblings) and 李欣怡's guardian (her peanut allergy) have accepted the current privacy
  // documents and consented to photos and health notes; the demo's other guardians have not yet (they are asked at
  // sign-in: docs/modules/privacy.md)
  await em.query(
    `with cur as (select max(version) filter (where kind = 'privacy') as p, max(version) filter (where kind = 'children') as c
                    from privacy_policies),
          links as (
            update student_guardians g set privacy_version = cur.p, children_version = cur.c, consented_at = now()
              from cur, students s
             where s.id = g.student_id and g.school_id = $1 and s.status = 1 and (g.user_id = $2 or s.allergies is not null)
            returning g.student_id, g.user_id, cur.p, cur.c),
          kids as (update students set photo_consent = true, health_consent = true where id in (select student_id from links) returning id)
     insert into privacy_consents (school_id, user_id, student_id, kind, granted, privacy_version, children_version, ip, user_agent)
     select $1, l.user_id, l.student_id, k.kind, true, case when k.kind = 'policies' then l.p end, case when k.kind = 'policies' then l.c end,
            'demo-seed', 'demo-seed'
       from links l cross join (values (1, 'policies'), (2, 'photos'), (3, 'health')) as k(ord, kind)
      where (select count(*) from kids) >= 0
      order by l.student_id, k.ord`,
    [schoolId, users.parent],
  );
  await seedDemoContracts(em, schoolId, users.admin);
  return { running, second };
}
