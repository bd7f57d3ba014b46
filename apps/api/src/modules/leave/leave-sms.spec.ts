import { Code } from '@wantuo/shared';
import { eventually, lastDaytime, startTestApp, type TestApp } from '../../../test/harness';
import { MessagesClock } from '../messages/guardian-messages.service';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ demoPeople: true });
  // the answer is due now whatever the hour (in the quiet hours it would wait for 07:00)
  t.app.get(MessagesClock).now = () => lastDaytime();
});
afterAll(() => t.close());

interface Outbox {
  list: Array<{ template: string; content: string; params: Record<string, string> }>;
}

it('the parent hears the decision by SMS when the worker runs', async () => {
  const [parent, adviser] = await Promise.all([t.login('parent'), t.login('adviser')]);
  const { rows } = await t.sql.query(
    `select s.id, to_char((now() at time zone 'Asia/Shanghai')::date + 1, 'YYYY-MM-DD') as day from students s where s.name = '陈小阳' and s.school_id = $1`,
    [t.demo.schoolId],
  );
  const [{ id: studentId, day }] = rows;
  const leave = await t.post('/api/index/submitLeave', parent).send({ student_id: studentId, start_day: day, end_day: day, reason: '看牙医' });
  expect(leave.body.code).toBe(Code.Ok);
  const res = await t.post('/api/index/auditStudentInfo', adviser).send({ id: leave.body.data.id, version: 1, approve: true, note: '好的' });
  expect(res.body.code).toBe(Code.Ok);
  const sms = await eventually(async () => {
    const out = await t.get('/api/dev/sms-outbox?mobile=13800000006');
    return (out.body.data as Outbox).list.find((m) => m.template === 'leave.reviewed');
  });
  expect(sms.content).toBe(`【晚托平台】陈小阳 ${day} 至 ${day} 的请假申请已批准。备注：好的`);
  expect(sms.params).toEqual({ student: '陈小阳', start_day: day, end_day: day, result: '已批准', note: '好的' });
});
