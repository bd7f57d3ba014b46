import { Code } from '@wantuo/shared';
import { eventually, snapshot, startTestApp, type TestApp } from '../../../test/harness';
import { AlertsService } from './alerts.service';

let t: TestApp;
let alerts: AlertsService;
beforeAll(async () => {
  t = await startTestApp({ demoPeople: true });
  alerts = t.app.get(AlertsService);
});
afterAll(() => t.close());

// Monday 2026-11-23 in Shanghai (UTC+8); 阳光一班 runs 16:00-19:30 on weekdays, 阳光二班 16:30-20:30
const at = (hhmm: string, day = '2026-11-23') => new Date(`${day}T${hhmm}:00+08:00`);
const DAY = '2026-11-23';

async function open(kind?: string): Promise<string[]> {
  const { rows } = await t.sql.query(
    `select s.name from flow_alerts a join students s on s.id = a.student_id
      where a.day = $1 and a.cleared_at is null and ($2::text is null or a.kind = $2) order by s.name`,
    [DAY, kind ?? null],
  );
  return rows.map((r) => r.name);
}

async function setDay(name: string, state: string, onLeave = false) {
  await t.sql.query(
    `insert into student_days (school_id, student_id, day, class_id, state, on_leave, version, last_position)
     select s.school_id, s.id, $2, cs.class_id, $3, $4, 1, 0 from students s join care_class_students cs on cs.student_id = s.id where s.name = $1
     on conflict (student_id, day) do update set state = excluded.state, on_leave = excluded.on_leave`,
    [name, DAY, state, onLeave],
  );
}

describe('alert scan', () => {
  it('raises nothing before the grace time, nor at weekends', async () => {
    expect(await alerts.scan(at('16:10'))).toEqual({ raised: 0, cleared: 0 });
    expect(await alerts.scan(at('18:00', '2026-11-28'))).toEqual({ raised: 0, cleared: 0 });
  });

  it('15 minutes after the start: shuttle students not picked up, once, and texts the head teacher and the parent', async () => {
    await setDay('赵雨桐', 'expected', true); // on approved leave
    const first = await alerts.scan(at('16:20'));
    expect(await open('not_picked_up')).toEqual(['张浩然', '刘诗琪', '王子涵', '陈小阳', '陈小雨', '黄俊熙'].sort());
    expect(first.raised).toBe(6);
    expect((await alerts.scan(at('16:21'))).raised).toBe(0);
    const text = await eventually(async () => {
      const res = await t.get('/api/dev/sms-outbox?mobile=13800000005');
      return (res.body.data.list as Array<{ template: string; content: string }>).find((m) => m.template === 'alert.raised')?.content;
    });
    expect(text).toMatch(/^【晚托平台】阳光晚托中心（演示）提醒：.+（阳光一班）放学 15 分钟后仍未被接到。请及时处理。$/);
    await eventually(async () => ((await t.get('/api/dev/sms-outbox?mobile=13800000006')).body.data.list.length >= 2 ? true : null));
  });

  it('clears an alert when the state changes', async () => {
    await setDay('王子涵', 'picked_up');
    const r = await alerts.scan(at('16:22'));
    expect(r.cleared).toBe(1);
    expect(await open('not_picked_up')).not.toContain('王子涵');
  });

  it('30 minutes after the start: not entered; after the end: absent without leave, and still in the centre', async () => {
    await setDay('李欣怡', 'in_centre');
    await alerts.scan(at('16:35'));
    const notEntered = await open('not_entered');
    expect(notEntered).toHaveLength(8); // 10 minus the one in the centre and the one on leave
    expect(notEntered).not.toContain('李欣怡');
    expect(notEntered).not.toContain('赵雨桐');

    await setDay('王子涵', 'left');
    await alerts.scan(at('19:40'));
    expect(await open('after_closing')).toEqual(['李欣怡']);
    expect(await open('absent')).toEqual(['刘诗琪', '周梓萱', '张浩然', '杨宇航', '陈小阳', '陈小雨', '黄俊熙'].sort());
    // not entered is over once 阳光一班's time is over; 阳光二班 (until 20:30) still has its own
    expect(await open('not_entered')).toEqual(['吴宇轩', '孙浩宇', '徐若曦', '朱子墨', '胡可馨', '高雅琪'].sort());
  });
});

describe('flowAlerts', () => {
  it('the head teacher sees the alerts of own class, open ones first; the admin the school’s', async () => {
    const adviser = await t.get(`/api/index/flowAlerts?date=${DAY}&open_only=1`, await t.login('adviser'));
    expect(adviser.body.code).toBe(Code.Ok);
    expect(adviser.body.data.total).toBeGreaterThan(0);
    expect(new Set(adviser.body.data.list.map((a: { class_name: string }) => a.class_name))).toEqual(new Set(['阳光一班']));
    const admin = await t.get(`/api/index/flowAlerts?date=${DAY}`, await t.login('admin'));
    expect(admin.body.data.total).toBeGreaterThanOrEqual(adviser.body.data.total);
    expect(admin.body.data.list[0].cleared_at).toBeNull();
  });

  it('bad input answers code 100 and writes nothing', async () => {
    const token = await t.login('admin');
    const before = await snapshot(t.sql);
    for (const q of ['date=yesterday', 'date=2026-11-23%27%20or%201=1', 'limit=1000', 'x=1', `date=${'9'.repeat(10_000)}`]) {
      expect((await t.get(`/api/index/flowAlerts?${q}`, token)).body.code).toBe(Code.Error);
    }
    expect(await snapshot(t.sql)).toEqual(before);
  });

  it('teachers and parents may not read them', async () => {
    for (const user of ['teacher', 'parent'] as const) {
      expect((await t.get('/api/index/flowAlerts', await t.login(user))).body).toMatchObject({ code: Code.Error, msg: '当前账号没有权限执行此操作' });
    }
  });

  it('another school sees none of them', async () => {
    const { adminToken } = await t.otherSchool();
    const res = await t.get(`/api/index/flowAlerts?date=${DAY}`, adminToken);
    expect(res.body.data).toMatchObject({ total: 0, list: [] });
  });
});
