import { Code, renewedUntil, DEAL_PWD_LOCK, DEFAULT_PRICE_FEN, instantOf, localDateTime, localDay } from '@wantuo/shared';
import { Workbook } from 'exceljs';
import { eventually, snapshot, startTestApp, type TestApp } from '../../../test/harness';

let t: TestApp;
let admin: string;
let schoolId: number;
beforeAll(async () => {
  t = await startTestApp({ runJobs: true, redis: false });
  admin = await t.login('admin');
  schoolId = t.demo.schoolId;
});
afterAll(() => t.close());

/** Money state of a school: balance, ledger sum and entry count (the ledger must always add up to the balance). */
async function money(id = schoolId) {
  const { rows } = await t.sql.query(
    `select s.balance_fen::float8 as balance, coalesce(sum(e.amount_fen), 0)::float8 as ledger, count(e.id)::int as entries,
            coalesce(min(e.balance_after_fen), 0)::float8 as lowest, s.service_expires_at as expires
       from schools s left join ledger_entries e on e.school_id = s.id where s.id = $1 group by s.id`,
    [id],
  );
  return rows[0] as { balance: number; ledger: number; entries: number; lowest: number; expires: Date | null };
}

/** Credits a school the way the operator's adjustment does (one statement: balance and entry). */
async function credit(fen: number, id = schoolId) {
  await t.sql.query(
    `with s as (update schools set balance_fen = balance_fen + $2 where id = $1 returning balance_fen)
     insert into ledger_entries (school_id, type, amount_fen, balance_after_fen, note, idempotency_key)
     select $1, 'adjustment', $2, s.balance_fen, 'test', 'test:' || gen_random_uuid() from s`,
    [id, fen],
  );
}

const setPwd = (deal_pwd = '135790') => t.post('/api/index/setDealPwd', admin).send({ deal_pwd, password: 'Demo@2026' });

describe('schoolInfo and getSchoolPrice', () => {
  it('the admin reads the school with balance, expiry, state and the list price', async () => {
    const res = await t.get('/api/index/schoolInfo', admin);
    expect(res.body).toMatchObject({
      code: Code.Ok,
      data: {
        id: schoolId,
        balance_fen: expect.any(Number),
        has_deal_pwd: false,
        price: { term_fen: DEFAULT_PRICE_FEN.term, year_fen: DEFAULT_PRICE_FEN.year },
      },
    });
    expect(res.body.data).not.toHaveProperty('deal_pwd_hash');
    const price = await t.get('/api/index/getSchoolPrice', admin);
    expect(price.body.data).toEqual({ term_fen: DEFAULT_PRICE_FEN.term, year_fen: DEFAULT_PRICE_FEN.year });
  });

  it('the operator’s price for the school wins over the list price', async () => {
    await t.sql.query(`update schools set term_price_fen = 100000, year_price_fen = 180000 where id = $1`, [schoolId]);
    try {
      expect((await t.get('/api/index/getSchoolPrice', admin)).body.data).toEqual({ term_fen: 100000, year_fen: 180000 });
    } finally {
      await t.sql.query(`update schools set term_price_fen = null, year_price_fen = null where id = $1`, [schoolId]);
    }
  });

  it.each(['teacher', 'adviser', 'parent', 'operator'] as const)('%s may not read it', async (who) => {
    const res = await t.get('/api/index/schoolInfo', await t.login(who));
    expect(res.body.code).toBe(Code.Error);
  });

  it('editSchoolInfo saves contact details on the version read; a stale version or bad input writes nothing', async () => {
    const { version } = (await t.get('/api/index/schoolInfo', admin)).body.data;
    const ok = await t
      .post('/api/index/editSchoolInfo', admin)
      .send({ version, contact_name: '王老师', contact_phone: '13812345678', city: '杭州', address: '西湖区文三路 1 号' });
    expect(ok.body).toMatchObject({ code: Code.Ok, data: { contact_name: '王老师', city: '杭州', version: version + 1 } });
    const before = await snapshot(t.sql);
    const stale = await t
      .post('/api/index/editSchoolInfo', admin)
      .send({ version, contact_name: '李', contact_phone: null, city: null, address: null });
    expect(stale.body).toMatchObject({ code: Code.Error, msg: '数据已被他人修改，请刷新后重试' });
    const bad = await t
      .post('/api/index/editSchoolInfo', admin)
      .send({ version: version + 1, contact_name: '<b>x</b>', contact_phone: '123', city: null, address: null });
    expect(bad.body.code).toBe(Code.Error);
    expect(await snapshot(t.sql)).toEqual(before);
  });
});

describe('payment password', () => {
  it('refuses bad input and a wrong account password, writing nothing', async () => {
    const before = await t.sql.query(`select deal_pwd_hash from schools where id = $1`, [schoolId]);
    for (const body of [
      { deal_pwd: '12345', password: 'Demo@2026' },
      { deal_pwd: '12345a', password: 'Demo@2026' },
      { deal_pwd: '123456' },
      { deal_pwd: 123456, password: 'Demo@2026' },
    ]) {
      expect((await t.post('/api/index/setDealPwd', admin).send(body)).body.code).toBe(Code.Error);
    }
    const wrong = await t.post('/api/index/setDealPwd', admin).send({ deal_pwd: '123456', password: 'Wrong@2026' });
    expect(wrong.body).toMatchObject({ code: Code.Error, msg: '原密码错误' });
    expect((await t.sql.query(`select deal_pwd_hash from schools where id = $1`, [schoolId])).rows).toEqual(before.rows);
    expect((await t.post('/api/index/setDealPwd', await t.login('teacher')).send({ deal_pwd: '123456', password: 'Demo@2026' })).body.code).toBe(
      Code.Error,
    );
  });

  it('is set with the account password or an SMS code of event dealpwd, stored as argon2id', async () => {
    expect((await setPwd('246810')).body).toMatchObject({ code: Code.Ok });
    const { rows } = await t.sql.query(`select deal_pwd_hash from schools where id = $1`, [schoolId]);
    expect(rows[0].deal_pwd_hash).toMatch(/^\$argon2id\$/);

    const mobile = '13800000001';
    expect((await t.post('/api/sms/send').send({ mobile, event: 'dealpwd' })).body.code).toBe(Code.Ok);
    // the code is read at the phone (the dev outbox): the table keeps it masked once sent
    const code = await eventually(async () => {
      const { list } = (await t.get(`/api/dev/sms-outbox?mobile=${mobile}`)).body.data as {
        list: Array<{ template: string; params: { code?: string } }>;
      };
      return list.find((m) => m.template === 'code.dealpwd')?.params.code;
    });
    expect((await t.post('/api/index/setDealPwd', admin).send({ deal_pwd: '135790', code: '000000' === code ? '111111' : '000000' })).body.msg).toBe(
      '短信验证码错误或已过期',
    );
    expect((await t.post('/api/index/setDealPwd', admin).send({ deal_pwd: '135790', code })).body.code).toBe(Code.Ok);
    expect((await t.get('/api/index/schoolInfo', admin)).body.data.has_deal_pwd).toBe(true);
  });

  it('a payment-password code is only sent to an admin’s mobile', async () => {
    const res = await t.post('/api/sms/send').send({ mobile: '13800000002', event: 'dealpwd' });
    expect(res.body.code).toBe(Code.Error);
  });
});

describe('balancePaySchool', () => {
  it('needs a payment password, enough balance, valid input; refusals write nothing', async () => {
    await setPwd();
    const before = await money();
    const cases: Array<[object, string | null]> = [
      [{ period: 'month', deal_pwd: '135790' }, null],
      [{ period: 'term' }, null],
      [{ period: 'term', deal_pwd: '135790', extra: 1 }, null],
      [{ period: 'term', deal_pwd: '135790' }, '余额不足'],
    ];
    for (const [body, msg] of cases) {
      const res = await t.post('/api/index/balancePaySchool', admin).send(body);
      expect(res.body.code).toBe(Code.Error);
      if (msg) expect(res.body.msg).toContain(msg);
    }
    expect(await money()).toEqual(before);
    expect((await t.post('/api/index/balancePaySchool', await t.login('teacher')).send({ period: 'term', deal_pwd: '135790' })).body.code).toBe(
      Code.Error,
    );
  });

  it('debits the price, extends the expiry from the later of now and the current expiry, and a retry is charged once', async () => {
    await setPwd();
    await credit(DEFAULT_PRICE_FEN.year * 2);
    const future = new Date(Date.now() + 20 * 86_400_000);
    await t.sql.query(`update schools set service_expires_at = $2 where id = $1`, [schoolId, future]);
    const before = await money();
    const body = { period: 'year', deal_pwd: '135790', request_id: 'renew-test-0001' };
    const res = await t.post('/api/index/balancePaySchool', admin).send(body);
    expect(res.body).toMatchObject({ code: Code.Ok, data: { balance_fen: before.balance - DEFAULT_PRICE_FEN.year } });
    const until = new Date(res.body.data.service_expires_at);
    expect(until.getUTCFullYear()).toBe(future.getUTCFullYear() + 1);
    expect(until.getUTCMonth()).toBe(future.getUTCMonth());
    const again = await t.post('/api/index/balancePaySchool', admin).send(body);
    expect(again.body).toEqual(res.body);
    const after = await money();
    expect(after).toMatchObject({ balance: before.balance - DEFAULT_PRICE_FEN.year, entries: before.entries + 1 });
    expect(after.ledger).toBe(after.balance);
    const { rows } = await t.sql.query(
      `select kind, method, state, amount_fen::int as amount from payments where school_id = $1 and method = 'balance'`,
      [schoolId],
    );
    expect(rows).toEqual([{ kind: 'school_renewal', method: 'balance', state: 'paid', amount: DEFAULT_PRICE_FEN.year }]);
  });

  it('extends by calendar months in the school’s zone exactly as the shared renewedUntil (a month end is clamped), the same request at once charged once', async () => {
    await setPwd();
    await credit(DEFAULT_PRICE_FEN.term * 2);
    // 00:30 Beijing time on 31 August next year: still 30 August in UTC (counted in UTC it ran to 1 March)
    const expiry = instantOf(`${new Date().getUTCFullYear() + 1}-08-31`, '00:30', 'Asia/Shanghai');
    await t.sql.query(`update schools set service_expires_at = $2, timezone = 'Asia/Shanghai' where id = $1`, [schoolId, expiry]);
    const before = await money();
    const body = { period: 'term', deal_pwd: '135790', request_id: 'renew-same-0001' };
    const answers = await Promise.all(Array.from({ length: 5 }, () => t.post('/api/index/balancePaySchool', admin).send(body)));
    expect(answers.map((a) => a.body.code)).toEqual(Array(5).fill(Code.Ok));
    const expected = renewedUntil(expiry, 'term', new Date(), 'Asia/Shanghai');
    const febEnd = new Date(Date.UTC(expiry.getUTCFullYear() + 1, 2, 0)).getUTCDate();
    expect(localDateTime(expected, 'Asia/Shanghai')).toBe(`${expiry.getUTCFullYear() + 1}-02-${febEnd} 00:30`); // the end of February
    expect(new Set(answers.map((a) => a.body.data.service_expires_at))).toEqual(new Set([expected.toISOString()]));
    expect(await money()).toMatchObject({ balance: before.balance - DEFAULT_PRICE_FEN.term, entries: before.entries + 1 });
    const { rows } = await t.sql.query(`select meta from payments where school_id = $1 and method = 'balance' order by id desc limit 1`, [schoolId]);
    expect(rows[0].meta).toEqual({ period: 'term', from: expiry.toISOString(), start: expiry.toISOString(), until: expected.toISOString() });
  });

  it('50 concurrent payments against a balance for 10: exactly 10 succeed and the balance never goes negative', async () => {
    await setPwd();
    const start = await money();
    // bring the balance to exactly 10 terms
    await credit(DEFAULT_PRICE_FEN.term * 10 - start.balance || DEFAULT_PRICE_FEN.term * 10);
    const before = await money();
    expect(before.balance).toBe(DEFAULT_PRICE_FEN.term * 10);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        t.post('/api/index/balancePaySchool', admin).send({ period: 'term', deal_pwd: '135790', request_id: `race-${String(i).padStart(4, '0')}` }),
      ),
    );
    const ok = results.filter((r) => r.body.code === Code.Ok);
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(ok).toHaveLength(10);
    expect(results.filter((r) => r.body.code !== Code.Ok).every((r) => r.body.msg.includes('余额不足'))).toBe(true);
    const after = await money();
    expect(after).toMatchObject({ balance: 0, entries: before.entries + 10, ledger: 0 });
    expect(after.lowest).toBeGreaterThanOrEqual(0);
  });

  it(`${DEAL_PWD_LOCK.maxFailures} wrong payment passwords lock balance payments, whatever the password, for ${DEAL_PWD_LOCK.minutes} minutes`, async () => {
    await setPwd();
    await credit(DEFAULT_PRICE_FEN.term);
    const before = await money();
    for (let i = 1; i < DEAL_PWD_LOCK.maxFailures; i++) {
      const res = await t.post('/api/index/balancePaySchool', admin).send({ period: 'term', deal_pwd: '000000' });
      expect(res.body.msg).toBe(`支付密码错误，还可尝试 ${DEAL_PWD_LOCK.maxFailures - i} 次`);
    }
    const last = await t.post('/api/index/balancePaySchool', admin).send({ period: 'term', deal_pwd: '000000' });
    expect(last.body.msg).toBe(`支付密码错误次数过多，余额支付已锁定，请 ${DEAL_PWD_LOCK.minutes} 分钟后再试`);
    const right = await t.post('/api/index/balancePaySchool', admin).send({ period: 'term', deal_pwd: '135790' });
    expect(right.body.msg).toContain('已锁定');
    expect(await money()).toEqual(before);
    expect((await t.get('/api/index/schoolInfo', admin)).body.data.deal_pwd_locked_until).toEqual(expect.any(String));
    // the lock ends; setting the password again also ends it
    await setPwd();
    expect((await t.post('/api/index/balancePaySchool', admin).send({ period: 'term', deal_pwd: '135790' })).body.code).toBe(Code.Ok);
  });
});

describe('consumeLog', () => {
  it('lists the school’s entries newest first with the balance after each, filters by type and date, pages on the server', async () => {
    const all = await t.get('/api/index/consumeLog?limit=100', admin);
    expect(all.body.code).toBe(Code.Ok);
    const { list, total } = all.body.data;
    expect(total).toBe((await money()).entries);
    for (let i = 1; i < list.length; i++)
      expect(new Date(list[i - 1].created_at).getTime()).toBeGreaterThanOrEqual(new Date(list[i].created_at).getTime());
    expect(list[0].balance_after_fen).toBe((await money()).balance);
    const payments = await t.get('/api/index/consumeLog?type=payment&limit=5&page=2', admin);
    expect(payments.body.data).toMatchObject({ page: 2, limit: 5 });
    expect(payments.body.data.list.every((e: { type: string }) => e.type === 'payment')).toBe(true);
    const today = localDay();
    const none = await t.get('/api/index/consumeLog?from=2020-01-01&to=2020-12-31', admin);
    expect(none.body.data).toMatchObject({ list: [], total: 0 });
    expect((await t.get(`/api/index/consumeLog?from=${today}&to=2020-01-01`, admin)).body.code).toBe(Code.Error);
    expect((await t.get('/api/index/consumeLog?type=gift', admin)).body.code).toBe(Code.Error);
  });

  it('exports the filtered ledger as .xlsx with yuan and school-local times', async () => {
    const res = await t
      .get('/api/index/consumeLogExport?type=payment', admin)
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(decodeURIComponent(res.headers['content-disposition'])).toContain('账户流水');
    const wb = new Workbook();
    await wb.xlsx.load(res.body);
    const ws = wb.worksheets[0];
    expect(ws.getRow(1).values).toEqual([undefined, '时间', '类型', '金额（元）', '余额（元）', '关联单号', '操作人', '备注']);
    const { rows } = await t.sql.query(
      `select count(*)::int as n, min(amount_fen)::float8 as min from ledger_entries where school_id = $1 and type = 'payment'`,
      [schoolId],
    );
    expect(ws.rowCount).toBe(rows[0].n + 1);
    expect(ws.getRow(2).getCell(2).value).toBe('支付');
    expect(typeof ws.getRow(2).getCell(3).value).toBe('number');
    // amounts in yuan with two decimals, the columns as wide as before
    expect([ws.getRow(2).getCell(3).numFmt, ws.getRow(2).getCell(4).numFmt]).toEqual(['#,##0.00', '#,##0.00']);
    expect(ws.columns.map((c) => c.width)).toEqual([20, 10, 14, 14, 30, 12, 30]);
    expect(String(ws.getRow(2).getCell(1).value)).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect((await t.get('/api/index/consumeLogExport?type=x', admin)).body.code).toBe(Code.Error);
    expect((await t.get('/api/index/consumeLogExport', await t.login('teacher'))).body.code).toBe(Code.Error);
  });

  it('another school sees none of them', async () => {
    const other = await t.otherSchool();
    const res = await t.get('/api/index/consumeLog', other.adminToken);
    expect(res.body.data).toMatchObject({ list: [], total: 0 });
    expect((await t.get('/api/index/schoolInfo', other.adminToken)).body.data).toMatchObject({ id: other.schoolId, balance_fen: 0 });
  });

  it('the ledger is append-only: the database refuses updates and deletes', async () => {
    await expect(t.sql.query(`update ledger_entries set amount_fen = 1`)).rejects.toThrow(/append-only/);
    await expect(t.sql.query(`delete from ledger_entries`)).rejects.toThrow(/append-only/);
  });
});

describe('an expired school', () => {
  const expire = (daysAgo: number | null) =>
    t.sql.query(`update schools set service_expires_at = $2 where id = $1`, [
      schoolId,
      daysAgo === null ? null : new Date(Date.now() - daysAgo * 86_400_000),
    ]);
  afterAll(() => expire(null));

  it('keeps working during the grace period', async () => {
    await expire(3);
    expect((await t.get('/api/index/schoolInfo', admin)).body.data.service_state).toBe('grace');
    const { version } = (await t.get('/api/index/schoolInfo', admin)).body.data;
    expect(
      (await t.post('/api/index/editSchoolInfo', admin).send({ version, contact_name: null, contact_phone: null, city: null, address: null })).body
        .code,
    ).toBe(Code.Ok);
  });

  it('past the grace period its staff read but do not write; paying and renewing still work, and renewal lifts the lock', async () => {
    await expire(8);
    await setPwd();
    const { version } = (await t.get('/api/index/schoolInfo', admin)).body.data;
    const teacher = await t.login('teacher');
    const before = await snapshot(t.sql);
    const write = await t
      .post('/api/index/editSchoolInfo', admin)
      .send({ version, contact_name: '张', contact_phone: null, city: null, address: null });
    expect(write.body).toMatchObject({ code: Code.Error, msg: '机构服务已到期超过 7 天，当前只能查看、不能修改数据；续费后立即恢复' });
    const teacherWrite = await t.post('/api/index/teacherClockIn', teacher).send({});
    expect(teacherWrite.body.msg).toContain('只能查看');
    expect(await snapshot(t.sql)).toEqual(before);
    expect((await t.get('/api/index/schoolInfo', admin)).body.data.service_state).toBe('read_only');
    expect((await t.get('/api/index/accountList', admin)).body.code).toBe(Code.Ok);

    await credit(DEFAULT_PRICE_FEN.term);
    const renew = await t.post('/api/index/balancePaySchool', admin).send({ period: 'term', deal_pwd: '135790' });
    expect(renew.body.code).toBe(Code.Ok);
    expect(new Date(renew.body.data.service_expires_at).getTime()).toBeGreaterThan(Date.now() + 150 * 86_400_000);
    const { version: v2 } = (await t.get('/api/index/schoolInfo', admin)).body.data;
    expect(
      (await t.post('/api/index/editSchoolInfo', admin).send({ version: v2, contact_name: '张', contact_phone: null, city: null, address: null }))
        .body.code,
    ).toBe(Code.Ok);
  });
});
