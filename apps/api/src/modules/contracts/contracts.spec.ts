import {
  CONTRACT_STATES,
  Code,
  PACKAGE_KIND_LABELS,
  addDays,
  type ContractDetail,
  contractState,
  contractTerms,
  refundFigure,
  renewalStartDay,
  type ContractLike,
} from '@wantuo/shared';
import { Workbook } from 'exceljs';
import { DataSource } from 'typeorm';
import { snapshot, startTestApp, type TestApp } from '../../../test/harness';
import { BUCKET } from '../../migrations/1764849600000-contract-counts';
import { rebuildCounts } from './contract-counts';
import { countStateSql, stateSql, stateWhere } from './contract-sql';
import { ContractUsageService } from './usage/usage.service';

let t: TestApp;
let admin: string;
let parent: string;
let today: string;
/** the demo parent's child, another child of the same parent, and a child of another family */
let child: number;
let sibling: number;
let stranger: number;
let strangerGuardian: number;
let parentId: number;
let classId: number;
let seq = 0;
const rid = () => `req-${Date.now().toString(36)}-${seq++}`;

beforeAll(async () => {
  t = await startTestApp({ runJobs: true, redis: false, demoPeople: true });
  admin = await t.login('admin');
  parent = await t.login('parent');
  parentId = t.demo.users.parent;
  classId = t.demo.classes!.running;
  const { rows } = await t.sql.query(`select to_char((now() at time zone 'Asia/Shanghai')::date, 'YYYY-MM-DD') as today`);
  today = rows[0].today;
  const mine = await t.sql.query(
    `select s.id from students s join student_guardians g on g.student_id = s.id where g.user_id = $1 and s.status = 1 order by s.id`,
    [parentId],
  );
  [child, sibling] = mine.rows.map((r) => r.id as number);
  const other = await t.sql.query(
    `select s.id, g.user_id from students s join student_guardians g on g.student_id = s.id where g.user_id <> $1 and s.status = 1 order by s.id limit 1`,
    [parentId],
  );
  stranger = other.rows[0].id;
  strangerGuardian = other.rows[0].user_id;
});
afterAll(() => t.close());

/** Row counts and versions of everything an action of this module may write, with the harness's tables. */
async function snap() {
  const { rows } = await t.sql.query(
    `select (select count(*) from contract_packages)::int as packages, (select coalesce(sum(version), 0) from contract_packages)::int as package_versions,
            (select count(*) from contracts)::int as contracts, (select coalesce(sum(version), 0) from contracts)::int as contract_versions,
            (select count(*) from contract_events)::int as events, (select count(*) from payments)::int as payments,
            (select count(*) from payment_refunds)::int as refunds`,
  );
  // sign-ins and the other schools the tests make are not writes of this module
  const { schools: _s, users: _u, user_tokens: _t, user_activity: _a, user_versions: _v, ...rest } = await snapshot(t.sql);
  return { ...rest, ...rows[0] };
}

const DENIED = { code: Code.Error, msg: '当前账号没有权限执行此操作' };

let pkgNo = 0;
async function addPackage(over: Record<string, unknown> = {}) {
  const res = await t
    .post('/api/index/addContractPackage', admin)
    .send({ name: `套餐${pkgNo++}`, kind: 'month', length: 1, price_fen: 300000, includes: ['care', 'dinner'], ...over });
  expect(res.body).toMatchObject({ code: Code.Ok });
  return res.body.data as { id: number; version: number; price_fen: number; name: string };
}

async function sign(over: Record<string, unknown> = {}, token = admin) {
  return t.post('/api/index/addContract', token).send({ student_id: child, guardian_id: parentId, start_day: today, request_id: rid(), ...over });
}

async function signed(over: Record<string, unknown> = {}) {
  const res = await sign(over);
  expect(res.body).toMatchObject({ code: Code.Ok });
  return res.body.data as ContractDetail;
}

describe('contract packages', () => {
  it('adds, lists with the contracts using each, edits on the version read and disables', async () => {
    const k = await addPackage({ name: 'Spring 学期', kind: 'term', length: 1, price_fen: 800000, includes: ['care', 'tutoring'] });
    expect(k).toMatchObject({ name: 'Spring 学期', kind: 'term', active: true, contracts: 0, version: 1, valid_months: null });
    await signed({ package_id: k.id });
    const list = await t.get('/api/index/contractPackage?active=1', admin);
    expect(list.body.data.list.find((p: { id: number }) => p.id === k.id)).toMatchObject({ contracts: 1 });

    const edited = await t
      .post('/api/index/editContractPackage', admin)
      .send({ id: k.id, version: 1, name: 'Spring 学期', kind: 'term', length: 1, price_fen: 900000, includes: ['care'] });
    expect(edited.body.data).toMatchObject({ price_fen: 900000, version: 2 });
    const stale = await t
      .post('/api/index/editContractPackage', admin)
      .send({ id: k.id, version: 1, name: 'x', kind: 'term', length: 1, price_fen: 1, includes: [] });
    expect(stale.body).toMatchObject({ code: Code.Error, msg: '套餐已被他人修改，请刷新后重试' });

    const off = await t.post('/api/index/setContractPackageActive', admin).send({ id: k.id, version: 2, active: false });
    expect(off.body.data).toMatchObject({ active: false, version: 3 });
    expect((await t.get('/api/index/contractPackage?active=0', admin)).body.data.list.map((p: { id: number }) => p.id)).toContain(k.id);
    expect((await sign({ package_id: k.id })).body).toMatchObject({ code: Code.Error, msg: '该套餐已停用，不能再签约' });
  });

  it('names are unique per school, case-insensitive', async () => {
    await addPackage({ name: 'Gold' });
    const before = await snap();
    const res = await t.post('/api/index/addContractPackage', admin).send({ name: 'gOLD', kind: 'days', length: 20, price_fen: 100, includes: [] });
    expect(res.body).toMatchObject({ code: Code.Error, msg: '已有同名套餐' });
    expect(await snap()).toEqual(before);
  });

  it('bad input writes nothing', async () => {
    const before = await snap();
    for (const body of [
      { name: '', kind: 'month', length: 1, price_fen: 1, includes: [] },
      { name: 'a', kind: 'year', length: 1, price_fen: 1, includes: [] },
      { name: 'a', kind: 'month', length: 0, price_fen: 1, includes: [] },
    ]) {
      expect((await t.post('/api/index/addContractPackage', admin).send(body)).body.code).toBe(Code.Error);
    }
    expect(await snap()).toEqual(before);
  });

  it.each(['teacher', 'parent', 'operator'] as const)('%s may not manage packages', async (who) => {
    const token = await t.login(who);
    expect((await t.get('/api/index/contractPackage', token)).body).toMatchObject(DENIED);
    expect(
      (await t.post('/api/index/addContractPackage', token).send({ name: 'x', kind: 'month', length: 1, price_fen: 1, includes: [] })).body,
    ).toMatchObject(DENIED);
  });

  it('another school’s packages are unknown', async () => {
    const k = await addPackage();
    const other = await t.otherSchool();
    const before = await snap();
    const res = await t.post('/api/index/setContractPackageActive', other.adminToken).send({ id: k.id, version: k.version, active: false });
    expect(res.body).toMatchObject({ code: Code.Error, msg: '未找到该套餐' });
    expect((await t.get('/api/index/contractPackage', other.adminToken)).body.data).toMatchObject({ total: 0 });
    expect(await snap()).toEqual(before);
  });
});

describe('addContract', () => {
  it('signs unpaid: terms from contractTerms, list price, history signed', async () => {
    const k = await addPackage({ kind: 'sessions', length: 30, valid_months: 3, price_fen: 450000 });
    const c = await signed({ package_id: k.id, auto_renew: true });
    const terms = contractTerms({ kind: 'sessions', length: 30, valid_months: 3 }, today);
    expect(c).toMatchObject({
      status: 'unpaid',
      state: 'unpaid',
      ...terms,
      units_used: 0,
      units_left: 30,
      price_fen: 450000,
      list_price_fen: 450000,
      paid_fen: 0,
      auto_renew: true,
    });
    expect(c.no).toMatch(new RegExp(`^HT${today.replace(/-/g, '')}[A-Z0-9]{6}$`));
    expect(c.history.map((e: { type: string }) => e.type)).toEqual(['signed']);
    expect(c.history[0]).toMatchObject({ actor_name: expect.any(String), at: expect.any(String) });
  });

  it('signs paid at the desk with a discount: active, events signed and paid', async () => {
    const k = await addPackage({ price_fen: 300000 });
    const c = await signed({ package_id: k.id, price_fen: 250000, discount_reason: '老生优惠', payment: { method: 'bank', receipt_no: 'B123' } });
    expect(c).toMatchObject({
      status: 'active',
      paid_fen: 250000,
      price_fen: 250000,
      list_price_fen: 300000,
      pay_method: 'bank',
      receipt_no: 'B123',
      discount_reason: '老生优惠',
    });
    expect(c.history.map((e: { type: string }) => e.type)).toEqual(['signed', 'paid']);
  });

  it('a retry with the same request_id, also concurrent, gives one contract', async () => {
    const k = await addPackage();
    const request_id = rid();
    const before = await snap();
    const answers = await Promise.all(Array.from({ length: 5 }, () => sign({ package_id: k.id, request_id })));
    expect(answers.map((a) => a.body.code)).toEqual(Array(5).fill(Code.Ok));
    expect(new Set(answers.map((a) => a.body.data.id)).size).toBe(1);
    const again = await sign({ package_id: k.id, request_id });
    expect(again.body.data.id).toBe(answers[0].body.data.id);
    expect((await snap()).contracts).toBe(before.contracts + 1);
    expect((await snap()).events).toBe(before.events + 1);
  });

  it.each([
    ['a discount without a reason', (k: number) => ({ package_id: k, price_fen: 1000 }), '优惠价低于套餐价，请填写优惠原因'],
    ['a price above the package', (k: number) => ({ package_id: k, price_fen: 300001 }), '价格需在 0.01 元到 100000 元之间（分）'],
    ['a signer who is not a guardian', (k: number) => ({ package_id: k, guardian_id: strangerGuardian }), '签约人须是该学生的监护人'],
    ['an unknown student', (k: number) => ({ package_id: k, student_id: 999999 }), '未找到该学生'],
    ['an unknown package', () => ({ package_id: 999999 }), '未找到该套餐'],
    ['a bad date', (k: number) => ({ package_id: k, start_day: '2026-13-45x' }), undefined],
    ['a bank payment without receipt', (k: number) => ({ package_id: k, payment: { method: 'bank' } }), undefined],
  ])('refuses %s and writes nothing', async (_, make, msg) => {
    const k = await addPackage({ price_fen: 300000 });
    const before = await snap();
    const res = await sign(make(k.id));
    expect(res.body.code).toBe(Code.Error);
    if (msg) expect(res.body.msg).toBe(msg);
    expect(await snap()).toEqual(before);
  });

  it.each(['teacher', 'parent', 'operator'] as const)('%s may not sign', async (who) => {
    const k = await addPackage();
    const before = await snap();
    expect((await sign({ package_id: k.id }, await t.login(who))).body).toMatchObject(DENIED);
    expect(await snap()).toEqual(before);
  });

  it('another school cannot sign for this school’s student or package', async () => {
    const k = await addPackage();
    const other = await t.otherSchool();
    const before = await snap();
    expect((await sign({ package_id: k.id }, other.adminToken)).body).toMatchObject({ code: Code.Error, msg: '未找到该学生' });
    expect(await snap()).toEqual(before);
  });
});

describe('contractList, contractInfo, studentContractList, contractExport', () => {
  it('pages with counts by derived state; filters by state, student, class, package, end range and keyword', async () => {
    const k = await addPackage({ kind: 'days', length: 10 });
    const unpaid = await signed({ package_id: k.id, student_id: sibling });
    const active = await signed({ package_id: k.id, student_id: sibling, payment: { method: 'cash' } });
    const expiring = await signed({ package_id: k.id, student_id: sibling, payment: { method: 'cash' } });
    const expired = await signed({ package_id: k.id, student_id: sibling, payment: { method: 'cash' } });
    // attendance usage after the last signing first (it recomputes the student), then the faked usage
    await t.app.get(ContractUsageService).settled();
    await t.sql.query(`update contracts set units_used = 8 where id = $1`, [expiring.id]);
    await t.sql.query(`update contracts set start_day = $2::date - 30, end_day = $2::date - 1 where id = $1`, [expired.id, today]);

    const res = await t.get(`/api/index/contractList?package_id=${k.id}&limit=2`, admin);
    expect(res.body.data).toMatchObject({ total: 4, page: 1, limit: 2, counts: { unpaid: 1, active: 1, expiring: 1, expired: 1, cancelled: 0 } });
    expect(res.body.data.list.map((r: { id: number }) => r.id)).toEqual([expired.id, expiring.id]);
    const byState = await t.get(`/api/index/contractList?package_id=${k.id}&state=expiring`, admin);
    expect(byState.body.data).toMatchObject({ total: 1, counts: { unpaid: 1, active: 1, expiring: 1, expired: 1 } });
    expect(byState.body.data.list[0]).toMatchObject({ id: expiring.id, state: 'expiring', status: 'active', units_left: 2 });
    expect(
      (await t.get(`/api/index/contractList?package_id=${k.id}&keyword=${unpaid.no}`, admin)).body.data.list.map((r: { id: number }) => r.id),
    ).toEqual([unpaid.id]);
    // a number's beginning (any case: HT and the day they were signed, the four of them), the whole number in lower case
    expect((await t.get(`/api/index/contractList?package_id=${k.id}&keyword=${unpaid.no.slice(0, 10).toLowerCase()}`, admin)).body.data.total).toBe(
      4,
    );
    expect(
      (await t.get(`/api/index/contractList?package_id=${k.id}&keyword=${unpaid.no.toLowerCase()}`, admin)).body.data.list.map(
        (r: { id: number }) => r.id,
      ),
    ).toEqual([unpaid.id]);
    // a piece of the number (any case) and a piece of the student's name
    expect(
      (await t.get(`/api/index/contractList?package_id=${k.id}&keyword=${unpaid.no.slice(-5).toLowerCase()}`, admin)).body.data.list.map(
        (r: { id: number }) => r.id,
      ),
    ).toEqual([unpaid.id]);
    const sibName = (await t.sql.query(`select name from students where id = $1`, [sibling])).rows[0].name as string;
    const byName = await t.get(`/api/index/contractList?package_id=${k.id}&keyword=${encodeURIComponent(sibName.slice(-2))}&state=expired`, admin);
    expect(byName.body.data).toMatchObject({ total: 1, counts: { unpaid: 1, active: 1, expiring: 1, expired: 1, cancelled: 0 } });
    expect(byName.body.data.list.map((r: { id: number }) => r.id)).toEqual([expired.id]);
    expect((await t.get(`/api/index/contractList?package_id=${k.id}&keyword=${encodeURIComponent('没有这个人')}`, admin)).body.data).toMatchObject({
      total: 0,
      list: [],
    });
    expect((await t.get(`/api/index/contractList?package_id=${k.id}&student_id=${child}`, admin)).body.data.total).toBe(0);
    const sib = await t.sql.query(`select class_id from care_class_students where student_id = $1`, [sibling]);
    expect((await t.get(`/api/index/contractList?package_id=${k.id}&class_id=${sib.rows[0].class_id}`, admin)).body.data.total).toBe(4);
    expect(
      (
        await t.get(
          `/api/index/contractList?package_id=${k.id}&class_id=${classId === sib.rows[0].class_id ? t.demo.classes!.second : classId}`,
          admin,
        )
      ).body.data.total,
    ).toBe(0);
    const ranged = await t.get(`/api/index/contractList?package_id=${k.id}&end_to=${addDays(today, -1)}`, admin);
    expect(ranged.body.data.list.map((r: { id: number }) => r.id)).toEqual([expired.id]);
    expect(active.state).toBe('active');
  });

  it('exports the filtered list as .xlsx with Chinese headers and yuan', async () => {
    const k = await addPackage({ price_fen: 123456 });
    const c = await signed({ package_id: k.id });
    const res = await t
      .get(`/api/index/contractExport?package_id=${k.id}`, admin)
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (d: Buffer) => chunks.push(d));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const wb = new Workbook();
    await wb.xlsx.load(res.body as ArrayBuffer);
    const ws = wb.worksheets[0];
    expect(ws.getRow(1).getCell(1).value).toBe('合同编号');
    expect(ws.getRow(2).getCell(1).value).toBe(c.no);
    expect(ws.getRow(2).getCell(11).value).toBe(1234.56);
    // the state as the screens word it (CONTRACT_STATE_LABELS; the export once said 待付款 / 已作废)
    expect(ws.getRow(2).getCell(15).value).toBe('待支付');
    expect(ws.getRow(2).getCell(5).value).toBe(PACKAGE_KIND_LABELS.month.zh);
  });

  it('exports the signing date and names the file by the school-local day (01:30 in Shanghai is 17:30 UTC the day before)', async () => {
    const k = await addPackage({ price_fen: 2000 });
    const c = await signed({ package_id: k.id });
    await t.sql.query(`update contracts set created_at = '2026-11-26T17:30:00Z' where id = $1`, [c.id]);
    // only Date is faked: the clock the export reads for the file's day; timers and I/O run as usual
    jest.useFakeTimers({
      now: new Date('2026-11-26T17:30:00Z'),
      doNotFake: [
        'nextTick',
        'setImmediate',
        'clearImmediate',
        'setTimeout',
        'clearTimeout',
        'setInterval',
        'clearInterval',
        'queueMicrotask',
        'hrtime',
        'performance',
      ],
    });
    try {
      const res = await t
        .get(`/api/index/contractExport?package_id=${k.id}`, admin)
        .buffer(true)
        .parse((r, cb) => {
          const chunks: Buffer[] = [];
          r.on('data', (d: Buffer) => chunks.push(d));
          r.on('end', () => cb(null, Buffer.concat(chunks)));
        });
      expect(decodeURIComponent(res.headers['content-disposition'])).toContain('合同-20261127.xlsx');
      const wb = new Workbook();
      await wb.xlsx.load(res.body as ArrayBuffer);
      expect(wb.worksheets[0].getRow(2).getCell(18).value).toBe('2026-11-27');
    } finally {
      jest.useRealTimers();
    }
  });

  it('contractInfo of another school is unknown; roles are refused', async () => {
    const c = await signed({ package_id: (await addPackage()).id });
    const other = await t.otherSchool();
    expect((await t.get(`/api/index/contractInfo?id=${c.id}`, other.adminToken)).body).toMatchObject({ code: Code.Error, msg: '未找到该合同' });
    expect((await t.get(`/api/index/contractList`, other.adminToken)).body.data).toMatchObject({ total: 0 });
    for (const who of ['teacher', 'parent', 'operator'] as const) {
      const token = await t.login(who);
      expect((await t.get(`/api/index/contractInfo?id=${c.id}`, token)).body).toMatchObject(DENIED);
      expect((await t.get(`/api/index/contractList`, token)).body).toMatchObject(DENIED);
    }
    expect((await t.get(`/api/index/contractList?state=nope`, admin)).body.code).toBe(Code.Error);
  });

  it('studentContractList: the admin any student, a parent only an own child', async () => {
    const c = await signed({ package_id: (await addPackage()).id });
    expect((await t.get(`/api/index/studentContractList?student_id=${child}`, admin)).body.data.list.map((r: { id: number }) => r.id)).toContain(
      c.id,
    );
    expect((await t.get(`/api/index/studentContractList?student_id=${child}`, parent)).body.data.list.map((r: { id: number }) => r.id)).toContain(
      c.id,
    );
    expect((await t.get(`/api/index/studentContractList?student_id=${stranger}`, parent)).body).toMatchObject({
      code: Code.Error,
      msg: '未找到该学生',
    });
    expect((await t.get(`/api/index/studentContractList?student_id=${child}`, await t.login('teacher'))).body).toMatchObject(DENIED);
    const other = await t.otherSchool();
    expect((await t.get(`/api/index/studentContractList?student_id=${child}`, other.adminToken)).body).toMatchObject({
      code: Code.Error,
      msg: '未找到该学生',
    });
  });
});

describe('payContractOffline and editContract', () => {
  it('pays an unpaid contract at the desk once', async () => {
    const c = await signed({ package_id: (await addPackage()).id });
    const paid = await t.post('/api/index/payContractOffline', admin).send({ id: c.id, version: c.version, payment: { method: 'cash' } });
    expect(paid.body.data).toMatchObject({ status: 'active', paid_fen: c.price_fen, pay_method: 'cash', version: c.version + 1 });
    const before = await snap();
    const again = await t.post('/api/index/payContractOffline', admin).send({ id: c.id, version: c.version + 1, payment: { method: 'cash' } });
    expect(again.body).toMatchObject({ code: Code.Error, msg: '该合同不是待付款状态' });
    expect(
      (await t.post('/api/index/payContractOffline', await t.login('parent')).send({ id: c.id, version: 2, payment: { method: 'cash' } })).body,
    ).toMatchObject(DENIED);
    expect(await snap()).toEqual(before);
  });

  it('edits with a reason; the history keeps before and after; stale versions and units below used are refused', async () => {
    const c = await signed({ package_id: (await addPackage({ kind: 'sessions', length: 20 })).id, payment: { method: 'cash' } });
    // attendance usage after the last action first, then the faked usage
    await t.app.get(ContractUsageService).settled();
    await t.sql.query(`update contracts set units_used = 5 where id = $1`, [c.id]);
    const end = addDays(c.end_day, 10);
    const res = await t
      .post('/api/index/editContract', admin)
      .send({ id: c.id, version: c.version, end_day: end, units_total: 25, reason: '补偿停课' });
    expect(res.body.data).toMatchObject({ end_day: end, units_total: 25, version: c.version + 1 });
    const last = res.body.data.history.at(-1);
    expect(last).toMatchObject({
      type: 'edited',
      reason: '补偿停课',
      data: { before: { end_day: c.end_day, units_total: 20 }, after: { end_day: end, units_total: 25 } },
    });
    // the edit recomputed the student's attendance usage: fake the 5 used again once it is done
    await t.app.get(ContractUsageService).settled();
    await t.sql.query(`update contracts set units_used = 5 where id = $1`, [c.id]);
    const before = await snap();
    expect(
      (await t.post('/api/index/editContract', admin).send({ id: c.id, version: c.version, auto_renew: true, reason: '再改' })).body,
    ).toMatchObject({ msg: '合同已被他人修改，请刷新后重试' });
    expect(
      (await t.post('/api/index/editContract', admin).send({ id: c.id, version: c.version + 1, units_total: 4, reason: '再改' })).body,
    ).toMatchObject({ msg: '课时数不能少于已使用的 5' });
    expect((await t.post('/api/index/editContract', admin).send({ id: c.id, version: c.version + 1, auto_renew: true })).body.code).toBe(Code.Error);
    expect(
      (await t.post('/api/index/editContract', admin).send({ id: c.id, version: c.version + 1, end_day: addDays(c.start_day, -1), reason: '再改' }))
        .body,
    ).toMatchObject({ msg: '结束日期不能早于开始日期' });
    const other = await t.otherSchool();
    expect(
      (await t.post('/api/index/editContract', other.adminToken).send({ id: c.id, version: c.version + 1, auto_renew: true, reason: '再改' })).body,
    ).toMatchObject({ msg: '未找到该合同' });
    expect(await snap()).toEqual(before);
  });
});

describe('renewContract', () => {
  it('renews once from the day after the end at the package’s current price; both get a renewed event', async () => {
    const k = await addPackage({ price_fen: 200000 });
    const c = await signed({ package_id: k.id, payment: { method: 'cash' } });
    await t
      .post('/api/index/editContractPackage', admin)
      .send({ id: k.id, version: k.version, name: k.name, kind: 'month', length: 2, price_fen: 380000, includes: [] });
    const res = await t
      .post('/api/index/renewContract', admin)
      .send({ id: c.id, version: c.version, request_id: rid(), payment: { method: 'cash' } });
    const start = renewalStartDay(c.end_day, today);
    expect(res.body.data).toMatchObject({
      renewed_from: c.id,
      status: 'active',
      price_fen: 380000,
      list_price_fen: 380000,
      ...contractTerms({ kind: 'month', length: 2 }, start),
    });
    expect(res.body.data.history.map((e: { type: string }) => e.type)).toEqual(['renewed', 'paid']);
    const src = (await t.get(`/api/index/contractInfo?id=${c.id}`, admin)).body.data;
    expect(src.history.at(-1)).toMatchObject({ type: 'renewed', data: { to_id: res.body.data.id } });
    const again = await t.post('/api/index/renewContract', admin).send({ id: c.id, version: src.version, request_id: rid() });
    expect(again.body).toMatchObject({ code: Code.Error, msg: '该合同已续约' });
  });

  it('two concurrent renewals give one', async () => {
    const c = await signed({ package_id: (await addPackage()).id, payment: { method: 'cash' } });
    const before = await snap();
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => t.post('/api/index/renewContract', admin).send({ id: c.id, version: c.version, request_id: rid() })),
    );
    expect(answers.filter((a) => a.body.code === Code.Ok)).toHaveLength(1);
    const { rows } = await t.sql.query(`select count(*)::int as n from contracts where renewed_from = $1`, [c.id]);
    expect(rows[0].n).toBe(1);
    expect((await snap()).contracts).toBe(before.contracts + 1);
  });

  it('refuses a cancelled contract, other roles and other schools', async () => {
    const c = await signed({ package_id: (await addPackage()).id });
    const x = await t
      .post('/api/index/cancellationContract', admin)
      .send({ id: c.id, version: c.version, reason: '家长取消', refund_fen: 0, request_id: rid() });
    expect(x.body.data.status).toBe('cancelled');
    const before = await snap();
    expect((await t.post('/api/index/renewContract', admin).send({ id: c.id, version: x.body.data.version, request_id: rid() })).body).toMatchObject({
      msg: '已作废的合同不能续约',
    });
    expect((await t.post('/api/index/renewContract', await t.login('teacher')).send({ id: c.id, version: 1, request_id: rid() })).body).toMatchObject(
      DENIED,
    );
    const other = await t.otherSchool();
    expect((await t.post('/api/index/renewContract', other.adminToken).send({ id: c.id, version: 1, request_id: rid() })).body).toMatchObject({
      msg: '未找到该合同',
    });
    expect(await snap()).toEqual(before);
  });
});

describe('refund preview and cancellationContract', () => {
  it('the refund equals refundFigure (school-local today); a changed figure is refused; the desk refund needs a method', async () => {
    const k = await addPackage({ kind: 'sessions', length: 30, price_fen: 300000 });
    const start = addDays(today, -10);
    const c = await signed({ package_id: k.id, start_day: start, price_fen: 270000, discount_reason: '优惠', payment: { method: 'cash' } });
    // attendance usage after the last action first, then the faked usage
    await t.app.get(ContractUsageService).settled();
    await t.sql.query(`update contracts set units_used = 7 where id = $1`, [c.id]);
    const expected = refundFigure({
      kind: 'sessions',
      list_price_fen: 300000,
      price_fen: 270000,
      paid_fen: 270000,
      start_day: start,
      end_day: c.end_day,
      units_total: 30,
      units_used: 7,
      today,
    });
    const preview = await t.get(`/api/index/contractRefundPreview?id=${c.id}`, admin);
    expect(preview.body.data).toEqual({ contract_id: c.id, ...expected, via: 'offline' });
    expect(expected.refund_fen).toBe(Math.floor((23 * 300000) / 30) - 30000);

    const before = await snap();
    const changed = await t
      .post('/api/index/cancellationContract', admin)
      .send({ id: c.id, version: c.version, reason: '转学', refund_fen: expected.refund_fen + 1, refund_method: 'cash', request_id: rid() });
    expect(changed.body).toMatchObject({ code: Code.Error, msg: `退款金额已变化（现为 ${(expected.refund_fen / 100).toFixed(2)} 元），请重新确认` });
    const noMethod = await t
      .post('/api/index/cancellationContract', admin)
      .send({ id: c.id, version: c.version, reason: '转学', refund_fen: expected.refund_fen, request_id: rid() });
    expect(noMethod.body).toMatchObject({ msg: '请选择退款方式' });
    expect(
      (
        await t
          .post('/api/index/cancellationContract', admin)
          .send({ id: c.id, version: c.version, refund_fen: expected.refund_fen, request_id: rid() })
      ).body.code,
    ).toBe(Code.Error);
    expect(
      (
        await t
          .post('/api/index/cancellationContract', await t.login('parent'))
          .send({ id: c.id, version: c.version, reason: '转学', refund_fen: 0, request_id: rid() })
      ).body,
    ).toMatchObject(DENIED);
    const other = await t.otherSchool();
    expect((await t.get(`/api/index/contractRefundPreview?id=${c.id}`, other.adminToken)).body).toMatchObject({ msg: '未找到该合同' });
    expect(await snap()).toEqual(before);

    const request_id = rid();
    const done = await t
      .post('/api/index/cancellationContract', admin)
      .send({ id: c.id, version: c.version, reason: '转学', refund_fen: expected.refund_fen, refund_method: 'bank', request_id });
    expect(done.body.data).toMatchObject({ status: 'cancelled', state: 'cancelled', refunded_fen: expected.refund_fen });
    expect(done.body.data.history.slice(-2)).toMatchObject([
      { type: 'cancelled', reason: '转学', data: { refund_fen: expected.refund_fen, via: 'offline' } },
      { type: 'refunded', data: { amount_fen: expected.refund_fen, method: 'bank' } },
    ]);
    // a retry of the same cancellation answers it; another is refused
    const retry = await t
      .post('/api/index/cancellationContract', admin)
      .send({ id: c.id, version: c.version, reason: '转学', refund_fen: expected.refund_fen, refund_method: 'bank', request_id });
    expect(retry.body.data).toMatchObject({ status: 'cancelled', version: done.body.data.version });
    expect(
      (
        await t
          .post('/api/index/cancellationContract', admin)
          .send({ id: c.id, version: done.body.data.version, reason: '转学', refund_fen: 0, request_id: rid() })
      ).body,
    ).toMatchObject({ msg: '该合同已作废或已过期' });
  });

  it('an unpaid contract cancels with nothing to refund', async () => {
    const c = await signed({ package_id: (await addPackage()).id });
    expect((await t.get(`/api/index/contractRefundPreview?id=${c.id}`, admin)).body.data).toMatchObject({ refund_fen: 0, via: 'none' });
    const done = await t
      .post('/api/index/cancellationContract', admin)
      .send({ id: c.id, version: c.version, reason: '不需要了', refund_fen: 0, request_id: rid() });
    expect(done.body.data.history.map((e: { type: string }) => e.type)).toEqual(['signed', 'cancelled']);
  });
});

describe('the derived state in SQL', () => {
  it('agrees with contractState on a table of cases', async () => {
    const day = '2026-03-10';
    const cases: ContractLike[] = [];
    for (const status of ['unpaid', 'active', 'expired', 'cancelled'] as const) {
      for (const end of [-1, 0, 1, 13, 14, 15, 100]) {
        for (const [total, used] of [
          [null, 0],
          [10, 0],
          [10, 6],
          [10, 7],
          [10, 8],
          [10, 9],
          [10, 10],
          [10, 12],
          [3, 0],
          [4, 0],
        ] as const) {
          cases.push({
            status,
            kind: total === null ? 'month' : 'days',
            start_day: '2026-01-01',
            end_day: addDays(day, end),
            units_total: total,
            units_used: used,
          });
        }
      }
    }
    const values = cases.map((_, i) => `($${i * 4 + 2}::text, $${i * 4 + 3}::date, $${i * 4 + 4}::int, $${i * 4 + 5}::int, ${i})`).join(', ');
    const { rows } = await t.sql.query(
      `select i, ${stateSql('c', '$1::date')} as state, ${countStateSql('k', '$1::date')} as count_state,
              array_remove(array[${CONTRACT_STATES.map((st) => `case when ${stateWhere(st, 'c', '$1::date')} then '${st}' end`).join(', ')}], null) as matched
         from (values ${values}) c(status, end_day, units_total, units_used, i)
         cross join lateral (select c.status, c.end_day, ${BUCKET('c')} as units_bucket) k order by i`,
      [day, ...cases.flatMap((c) => [c.status, c.end_day, c.units_total, c.units_used])],
    );
    expect(rows.map((r) => r.state)).toEqual(cases.map((c) => contractState(c, day)));
    // the state of a contract_counts key (units left clamped to a bucket) is the same
    expect(rows.map((r) => r.count_state)).toEqual(cases.map((c) => contractState(c, day)));
    // the list's state filter selects each contract under its state only
    expect(rows.map((r) => r.matched)).toEqual(cases.map((c) => [contractState(c, day)]));
    expect(new Set(rows.map((r) => r.state))).toEqual(new Set(['unpaid', 'active', 'expiring', 'expired', 'cancelled']));
  });
});

describe('the list counts (contract_counts)', () => {
  /** The school's counts by state computed from its contracts (what contract_counts must sum to). */
  async function truth(packageId?: number) {
    const { rows } = await t.sql.query(
      `select ${stateSql('c', "(now() at time zone 'Asia/Shanghai')::date")} as state, count(*)::int as n from contracts c
        where c.school_id = $1 and ($2::int is null or c.package_id = $2) group by 1`,
      [t.demo.schoolId, packageId ?? null],
    );
    const counts: Record<string, number> = { unpaid: 0, active: 0, expiring: 0, expired: 0, cancelled: 0 };
    for (const r of rows) counts[r.state] = r.n;
    return counts;
  }
  const listed = async (q = '') =>
    (await t.get(`/api/index/contractList?limit=1${q}`, admin)).body.data as { total: number; counts: Record<string, number> };

  it('follow every write (signing, paying, cancelling, usage, a direct update of many rows) and agree with the contracts', async () => {
    const k = await addPackage({ kind: 'sessions', length: 5 });
    const ids = await Promise.all(
      Array.from(
        { length: 8 },
        async (_, i) =>
          (await signed({ package_id: k.id, student_id: i % 2 ? sibling : stranger, guardian_id: i % 2 ? parentId : strangerGuardian })).id,
      ),
    );
    await t.app.get(ContractUsageService).settled();
    expect((await listed(`&package_id=${k.id}`)).counts).toEqual({ unpaid: 8, active: 0, expiring: 0, expired: 0, cancelled: 0 });
    for (const id of ids.slice(0, 5)) {
      const c = (await t.get(`/api/index/contractInfo?id=${id}`, admin)).body.data as ContractDetail;
      expect((await t.post('/api/index/payContractOffline', admin).send({ id, version: c.version, payment: { method: 'cash' } })).body.code).toBe(
        Code.Ok,
      );
    }
    await t.app.get(ContractUsageService).settled();
    // units used (one bucket to another, and within the top bucket), an end moved into the past, a cancellation
    await t.sql.query(`update contracts set units_used = 3 where id = $1`, [ids[0]]);
    await t.sql.query(`update contracts set units_used = 1 where id = $1`, [ids[1]]);
    await t.sql.query(`update contracts set units_used = 5 where id = $1`, [ids[2]]);
    await t.sql.query(`update contracts set start_day = $2::date - 30, end_day = $2::date - 1 where id = $1`, [ids[3], today]);
    await t.sql.query(`update contracts set status = 'cancelled' where id = any($1::int[])`, [ids.slice(5, 7)]);
    const byPackage = await listed(`&package_id=${k.id}`);
    expect(byPackage.counts).toEqual({ unpaid: 1, active: 2, expiring: 1, expired: 2, cancelled: 2 });
    expect(byPackage.counts).toEqual(await truth(k.id));
    expect(byPackage.total).toBe(8);
    const all = await listed();
    expect(all.counts).toEqual(await truth());
    expect(all.total).toBe(Object.values(all.counts).reduce((a, b) => a + b, 0));
    expect((await listed('&state=expired')).total).toBe(all.counts.expired);
    // an end range counts from the same rows
    const ranged = await listed(`&package_id=${k.id}&end_to=${addDays(today, -1)}`);
    expect(ranged.counts).toEqual({ unpaid: 0, active: 0, expiring: 0, expired: 1, cancelled: 0 });
    // a page past the end is empty with the right total
    const far = (await t.get(`/api/index/contractList?package_id=${k.id}&page=9&limit=1`, admin)).body.data;
    expect(far).toMatchObject({ list: [], total: 8 });
  });

  it('concurrent signings on the same key are all counted', async () => {
    const k = await addPackage({ kind: 'month', length: 1 });
    await Promise.all(Array.from({ length: 12 }, () => signed({ package_id: k.id, student_id: sibling })));
    expect((await listed(`&package_id=${k.id}`)).counts.unpaid).toBe(12);
    const { rows } = await t.sql.query(`select sum(n)::int as n from contract_counts where package_id = $1`, [k.id]);
    expect(rows[0].n).toBe(12);
  });

  it('contracts:rebuild finds nothing to correct, and repairs counts that were tampered with', async () => {
    expect(await rebuildCounts(t.app.get(DataSource), { schoolId: t.demo.schoolId })).toMatchObject({ corrected: 0 });
    const before = await listed();
    await t.sql.query(
      `update contract_counts set n = n + 5 where school_id = $1 and n > 0 and ctid = (select ctid from contract_counts where school_id = $1 and n > 0 limit 1)`,
      [t.demo.schoolId],
    );
    await t.sql.query(`delete from contract_counts where ctid = (select ctid from contract_counts where school_id = $1 and n > 0 offset 1 limit 1)`, [
      t.demo.schoolId,
    ]);
    expect(await listed()).not.toEqual(before);
    expect(await rebuildCounts(t.app.get(DataSource))).toMatchObject({ corrected: 2 });
    expect(await listed()).toEqual(before);
    expect((await listed()).counts).toEqual(await truth());
  });
});
