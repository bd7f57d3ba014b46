import { eventually, startTestApp, type TestApp } from '../../../../test/harness';
import { ContractsDaily } from './contracts-daily';

// With Redis: the texts are written with the run and go to BullMQ as `sms.send` batches after its commit; the worker in this process sends them.
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ runJobs: true });
});
afterAll(() => t.close());

it('with Redis: concurrent runs queue one text per reminder and per renewal, each sent once', async () => {
  const school = t.demo.schoolId;
  await t.sql.query(`update schools set timezone = 'Asia/Shanghai' where id = $1`, [school]);
  const {
    rows: [pkg],
  } = await t.sql.query(
    `insert into contract_packages (school_id, name, kind, length, price_fen) values ($1, '月托R', 'month', 1, 80000) returning id`,
    [school],
  );
  const mobiles = ['13710000001', '13710000002'];
  for (const [i, mobile] of mobiles.entries()) {
    const {
      rows: [s],
    } = await t.sql.query(`insert into students (school_id, name) values ($1, $2) returning id`, [school, `队列生${i}`]);
    const {
      rows: [u],
    } = await t.sql.query(
      `insert into users (school_id, role, username, name, nickname, mobile) values ($1, 6, $2, '家长', '家长', $3) returning id`,
      [school, `qparent${i}`, mobile],
    );
    await t.sql.query(
      `insert into contracts (school_id, no, student_id, package_id, kind, start_day, end_day, list_price_fen, price_fen, paid_fen, status, auto_renew, guardian_id)
       values ($1, $2, $3, $4, 'month', '2027-02-01', '2027-03-15', 80000, 80000, 80000, 'active', $5, $6)`,
      [school, `HTQ${i}`, s.id, pkg.id, i === 1, u.id],
    );
  }
  const daily = t.app.get(ContractsDaily);
  const at = new Date('2027-03-10T09:00:00+08:00');
  const runs = await Promise.all([daily.run(at), daily.run(at), daily.run(at), daily.run(at)]);
  expect(runs.map((r) => r.texts).sort()).toEqual([0, 0, 0, 2]);
  const texts = async () => (await t.sql.query(`select mobile, template from sms_outbox where mobile = any($1) order by mobile`, [mobiles])).rows;
  await eventually(async () => ((await texts()).length >= 2 ? true : null));
  await new Promise((r) => setTimeout(r, 300));
  expect(await texts()).toEqual([
    { mobile: mobiles[0], template: 'contract.expiring' },
    { mobile: mobiles[1], template: 'contract.renewed' },
  ]);
});
