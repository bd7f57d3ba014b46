import { Code, type CoursewareFileRow, type CoursewareRow } from '@wantuo/shared';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { DEMO_COURSEWARE, seedDemoCourseware, snapshot, startTestApp, type TestApp } from '../../../test/harness';
import { PaymentKinds } from '../payments/payment-kinds';
import { RefundsService } from '../payments/refunds.service';

let t: TestApp;
let admin: string;
let teacher: string;
let parent: string;
let operator: string;
let other: { schoolId: number; adminToken: string };
let seq = 0;
const rid = () => `cw-${Date.now().toString(36)}-${seq++}`;
const PWD = '135790';
const DENIED = { code: Code.Error, msg: '当前账号没有权限执行此操作' };

/** Everything this module (and the money it takes) writes: a refused request changes none of it. */
async function written(): Promise<Record<string, unknown>> {
  const { rows } = await t.sql.query(
    `select (select count(*) from coursewares)::int as coursewares, (select coalesce(sum(version), 0) from coursewares)::int as cw_versions,
            (select count(*) from courseware_sections)::int as sections, (select coalesce(sum(version), 0) from courseware_sections)::int as section_versions,
            (select count(*) from courseware_files)::int as files, (select count(*) from courseware_purchases)::int as purchases,
            (select count(*) from courseware_purchases where state = 'owned')::int as owned,
            (select count(*) from courseware_dicts)::int as dicts, (select coalesce(sum(version), 0) from courseware_dicts)::int as dict_versions,
            (select count(*) from payments)::int as payments, (select count(*) from ledger_entries)::int as ledger,
            (select sum(balance_fen)::float8 from schools) as balances`,
  );
  return { ...rows[0], ...(await snapshot(t.sql)) };
}

async function credit(schoolId: number, fen: number): Promise<void> {
  await t.sql.query(
    `with s as (update schools set balance_fen = balance_fen + $2 where id = $1 returning balance_fen)
     insert into ledger_entries (school_id, type, amount_fen, balance_after_fen, ref_kind, idempotency_key)
     select $1, 'adjustment', $2, s.balance_fen, 'test', 'test:' || gen_random_uuid() from s`,
    [schoolId, fen],
  );
}

const balanceOf = async (schoolId: number) =>
  (await t.sql.query(`select balance_fen::float8 as b from schools where id = $1`, [schoolId])).rows[0].b as number;

/** The demo courseware by title. */
async function cw(title: string): Promise<{ id: number; price: number; sections: number[] }> {
  const { rows } = await t.sql.query(
    `select c.id, c.price_fen::float8 as price, array_agg(s.id order by s.sort, s.id) as sections
       from coursewares c join courseware_sections s on s.courseware_id = c.id and s.school_id is null where c.title = $1 group by c.id`,
    [title],
  );
  return { id: rows[0].id, price: rows[0].price, sections: rows[0].sections };
}

const buy = (token: string, id: number, request_id = rid()) =>
  t.post('/api/index/balancePayCourseware', token).send({ id, deal_pwd: PWD, request_id });
const pdfOf = async (token: string, sectionId: number) => (await t.get(`/api/index/coursewarePdf?section_id=${sectionId}`, token)).body;

beforeAll(async () => {
  t = await startTestApp({ runJobs: false, redis: false, listen: true });
  await seedDemoCourseware(t.app.get(DataSource), t.config.uploadDir);
  admin = await t.login('admin');
  teacher = await t.login('teacher');
  parent = await t.login('parent');
  operator = await t.login('operator');
  other = await t.otherSchool();
  expect((await t.post('/api/index/setDealPwd', admin).send({ deal_pwd: PWD, password: 'Demo@2026' })).body.code).toBe(Code.Ok);
  expect((await t.post('/api/index/setDealPwd', other.adminToken).send({ deal_pwd: PWD, password: 'Demo@2026' })).body.code).toBe(Code.Ok);
  await credit(t.demo.schoolId, 1_000_000);
  await credit(other.schoolId, 1_000_000);
}, 120_000);
afterAll(() => t.close());

describe('the demo seed', () => {
  it('ships real, readable PDFs of several pages, stored privately', async () => {
    const { rows } = await t.sql.query(`select f.storage_path, f.size, f.pages from files f join courseware_files cf on cf.file_id = f.id`);
    expect(rows.length).toBe(DEMO_COURSEWARE.reduce((n, c) => n + c.sections.length, 0));
    for (const r of rows) {
      expect(r.storage_path).toMatch(/^\.courseware\//);
      expect(r.pages).toBe(5);
      expect(r.size).toBeGreaterThan(2000);
    }
    expect(existsSync(join(t.config.uploadDir, rows[0].storage_path))).toBe(true);
    // seeding again adds nothing
    expect(await seedDemoCourseware(t.app.get(DataSource), t.config.uploadDir)).toBe(0);
  });
});

describe('dictionaries', () => {
  it('each of the six is seeded, in order, for any signed-in user; signed out is refused', async () => {
    const expected: Record<string, string> = {
      subjectList: '语文',
      disciplineList: '小学',
      grade: '一年级',
      term: '上学期',
      tixi: '同步课堂',
      edition: '人教版',
    };
    for (const [action, first] of Object.entries(expected)) {
      const res = await t.get(`/api/index/${action}`, parent);
      expect(res.body).toMatchObject({ code: Code.Ok });
      expect(res.body.data[0]).toMatchObject({ name: first, active: true });
      expect((await t.get(`/api/index/${action}`)).body.code).toBe(Code.Untoken);
    }
    expect((await t.get('/api/index/grade?all=x', admin)).body.code).toBe(Code.Error);
  });

  it('the operator adds and edits an entry (cached lists follow at once); a stale version or a taken name is refused', async () => {
    const add = await t.post('/api/index/saveCoursewareDict', operator).send({ kind: 'edition', name: '湘教版', sort: 70 });
    expect(add.body).toMatchObject({ code: Code.Ok, data: { name: '湘教版', version: 1, active: true } });
    expect((await t.get('/api/index/edition', admin)).body.data.map((e: { name: string }) => e.name)).toContain('湘教版');
    const off = await t
      .post('/api/index/saveCoursewareDict', operator)
      .send({ kind: 'edition', id: add.body.data.id, name: '湘教版', active: false, version: 1 });
    expect(off.body).toMatchObject({ code: Code.Ok, data: { active: false, version: 2 } });
    expect((await t.get('/api/index/edition', admin)).body.data.map((e: { name: string }) => e.name)).not.toContain('湘教版');
    expect((await t.get('/api/index/edition?all=1', operator)).body.data.map((e: { name: string }) => e.name)).toContain('湘教版');

    const before = await written();
    expect(
      (await t.post('/api/index/saveCoursewareDict', operator).send({ kind: 'edition', id: add.body.data.id, name: '改名', version: 1 })).body,
    ).toMatchObject({
      code: Code.Error,
      msg: '数据已被他人修改，请刷新后重试',
    });
    expect((await t.post('/api/index/saveCoursewareDict', operator).send({ kind: 'edition', name: '人教版' })).body).toMatchObject({
      code: Code.Error,
      msg: '已有同名字典项',
    });
    // an id of another dictionary is not this one's
    expect(
      (await t.post('/api/index/saveCoursewareDict', operator).send({ kind: 'grade', id: add.body.data.id, name: 'x', version: 2 })).body,
    ).toMatchObject({ code: Code.Error, msg: '未找到该字典项' });
    for (const body of [
      {},
      { kind: 'colour', name: 'x' },
      { kind: 'grade', name: '' },
      { kind: 'grade', name: '<b>x</b>' },
      { kind: 'grade', name: 'x', sort: -1 },
      { kind: 'grade', name: 'x'.repeat(31) },
    ]) {
      expect((await t.post('/api/index/saveCoursewareDict', operator).send(body)).body.code).toBe(Code.Error);
    }
    for (const token of [admin, teacher, parent, other.adminToken]) {
      expect((await t.post('/api/index/saveCoursewareDict', token).send({ kind: 'grade', name: '十年级' })).body).toMatchObject(DENIED);
    }
    expect(await written()).toEqual(before);
  });
});

describe('coursewareCenter', () => {
  it('lists the catalogue with price and ownership, by every filter, paged', async () => {
    const all = await t.get('/api/index/coursewareCenter?limit=100', teacher);
    expect(all.body).toMatchObject({ code: Code.Ok, data: { total: DEMO_COURSEWARE.length, page: 1, limit: 100 } });
    const row = (all.body.data.list as CoursewareRow[]).find((r) => r.title === '七年级数学上册同步课堂')!;
    expect(row).toMatchObject({
      subject: '数学',
      discipline: '初中',
      grade: '七年级',
      term: '上学期',
      tixi: '同步课堂',
      edition: '人教版',
      price_fen: 34_900,
      sections: 3,
      owned: false,
      own: false,
    });

    const dict = async (action: string, name: string) =>
      ((await t.get(`/api/index/${action}`, admin)).body.data as Array<{ id: number; name: string }>).find((d) => d.name === name)!.id;
    const filters = {
      subject_id: await dict('subjectList', '数学'),
      discipline_id: await dict('disciplineList', '小学'),
      grade_id: await dict('grade', '三年级'),
      term_id: await dict('term', '上学期'),
      tixi_id: await dict('tixi', '专题精讲'),
      edition_id: await dict('edition', '人教版'),
    };
    const one = await t.get(
      `/api/index/coursewareCenter?${new URLSearchParams(Object.entries(filters).map(([k, v]): [string, string] => [k, String(v)]))}`,
      admin,
    );
    expect(one.body.data).toMatchObject({ total: 1, list: [{ title: '三年级数学上册专题精讲' }] });
    const math = await t.get(`/api/index/coursewareCenter?subject_id=${filters.subject_id}&limit=2&page=2`, admin);
    expect(math.body.data).toMatchObject({ total: 4, page: 2, limit: 2 });
    expect(math.body.data.list).toHaveLength(2);
    expect((await t.get(`/api/index/coursewareCenter?keyword=${encodeURIComponent('拼音')}`, admin)).body.data.total).toBe(1);
    expect((await t.get(`/api/index/coursewareCenter?keyword=${encodeURIComponent('%')}`, admin)).body.data.total).toBe(0);
  });

  it('bad filters are refused; parents and the operator may not call it', async () => {
    for (const q of ['subject_id=x', 'grade_id=-1', 'limit=1000', 'owned=maybe', 'colour=1']) {
      expect((await t.get(`/api/index/coursewareCenter?${q}`, admin)).body.code).toBe(Code.Error);
    }
    expect((await t.get('/api/index/coursewareCenter', parent)).body).toMatchObject(DENIED);
    expect((await t.get('/api/index/coursewareCenter', operator)).body).toMatchObject(DENIED);
  });
});

describe('buying from the balance, and the locked files', () => {
  it('files are refused before the purchase: by section id, by a guessed /uploads URL, by a forged or reused signature', async () => {
    const c = await cw('三年级语文上册同步课堂');
    expect((await t.get(`/api/index/coursewareFile?section_id=${c.sections[0]}`, admin)).body).toMatchObject({
      code: Code.Error,
      msg: '机构尚未购买该课件，购买后才能查看文件',
    });
    expect(await pdfOf(teacher, c.sections[0])).toMatchObject({ code: Code.Error, msg: '机构尚未购买该课件，购买后才能查看文件' });
    expect((await t.get(`/api/index/coursewareFile?courseware_id=${c.id}`, admin)).body).toMatchObject({
      code: Code.Error,
      msg: '机构尚未购买该课件，购买后才能查看文件',
    });
    expect((await t.get(`/api/index/coursewareFile?courseware_id=${c.id}&section_id=${c.sections[0]}`, admin)).body).toMatchObject({
      code: Code.Error,
      msg: '请指定章节或课件（二选一）',
    });
    // the section titles are shown, the files are not
    expect((await t.get(`/api/index/coursewareSection?courseware_id=${c.id}`, admin)).body.data).toEqual([
      expect.objectContaining({ title: '第一单元 大青树下的小学', files: 2, own: false }),
      expect.objectContaining({ title: '第二单元 秋天的雨', files: 1 }),
    ]);
    const { rows } = await t.sql.query(
      `select f.id, f.storage_path from files f join courseware_files cf on cf.file_id = f.id where cf.section_id = $1`,
      [c.sections[0]],
    );
    // the bytes are under UPLOAD_DIR, yet the public path serves nothing there
    expect((await t.get(`/uploads/${rows[0].storage_path}`)).status).toBe(404);
    expect((await t.get(`/uploads/${rows[0].storage_path.replace('.courseware/', '')}`)).status).toBe(404);
    // the stream answers only a valid signature
    const exp = Math.floor(Date.now() / 1000) + 300;
    expect((await t.get(`/api/courseware/file/${rows[0].id}?s=${t.demo.schoolId}&e=${exp}&sig=${'A'.repeat(43)}`)).status).toBe(403);
    expect((await t.get(`/api/courseware/file/${rows[0].id}`)).status).toBeGreaterThanOrEqual(400);
    // preview of a courseware file by id: not for a school that does not own it
    expect((await t.get(`/api/index/preview?id=${rows[0].id}`, admin)).body).toMatchObject({ code: Code.Error, msg: '未找到该文件' });
  });

  it('the admin buys with the balance: charged once, then files and the PDF open through a signed, short-lived URL', async () => {
    const c = await cw('三年级语文上册同步课堂');
    const before = await balanceOf(t.demo.schoolId);
    const key = rid();
    const first = await buy(admin, c.id, key);
    expect(first.body).toMatchObject({ code: Code.Ok, data: { id: c.id, owned: true, charged: true, balance_fen: before - c.price } });
    // the same request again, a new request, and two at once: never charged again
    expect((await buy(admin, c.id, key)).body).toMatchObject({ code: Code.Ok, data: { charged: false, balance_fen: before - c.price } });
    expect((await buy(admin, c.id)).body).toMatchObject({ code: Code.Ok, data: { charged: false } });
    const both = await Promise.all([buy(admin, c.id), buy(admin, c.id)]);
    expect(both.map((r) => r.body.data.charged)).toEqual([false, false]);
    expect(await balanceOf(t.demo.schoolId)).toBe(before - c.price);
    const pays = await t.sql.query(
      `select method, state, amount_fen::float8 as amount from payments where kind = 'courseware' and ref_id = $1 and school_id = $2`,
      [String(c.id), t.demo.schoolId],
    );
    expect(pays.rows).toEqual([{ method: 'balance', state: 'paid', amount: c.price }]);

    const files = (await t.get(`/api/index/coursewareFile?section_id=${c.sections[0]}`, teacher)).body.data as CoursewareFileRow[];
    expect(files).toEqual([
      expect.objectContaining({
        kind: 'pdf',
        mime: 'application/pdf',
        pages: 5,
        url: expect.stringMatching(/^\/api\/courseware\/file\/[0-9a-f-]{36}\?s=\d+&e=\d+&sig=/),
        expires_at: expect.any(String),
      }),
      expect.objectContaining({ kind: 'video', url: expect.stringMatching(/^https:\/\//), expires_at: null }),
    ]);
    // the whole courseware's files (the materials and recordings screens), all or of one kind
    const whole = (await t.get(`/api/index/coursewareFile?courseware_id=${c.id}`, teacher)).body.data as CoursewareFileRow[];
    expect(whole.map((f) => [f.section_title, f.kind])).toEqual([
      ['第一单元 大青树下的小学', 'pdf'],
      ['第一单元 大青树下的小学', 'video'],
      ['第二单元 秋天的雨', 'pdf'],
    ]);
    expect(
      ((await t.get(`/api/index/coursewareFile?courseware_id=${c.id}&kind=video`, teacher)).body.data as CoursewareFileRow[]).map((f) => f.kind),
    ).toEqual(['video']);
    const ttl = Date.parse(files[0].expires_at!) - Date.now();
    expect(ttl).toBeGreaterThan(500_000);
    expect(ttl).toBeLessThanOrEqual(600_000);
    const pdf = await pdfOf(admin, c.sections[0]);
    expect(pdf).toMatchObject({ code: Code.Ok, data: { kind: 'pdf', pages: 5 } });
    const bytes = await t.get(pdf.data.url).responseType('blob');
    expect(bytes.status).toBe(200);
    expect(bytes.headers['content-type']).toBe('application/pdf');
    expect(bytes.headers['cache-control']).toBe('private, no-store');
    expect(Buffer.from(bytes.body).toString('latin1', 0, 5)).toBe('%PDF-');
    // a range request (the viewer's) is answered in part
    expect((await t.get(pdf.data.url).set('Range', 'bytes=0-99')).status).toBe(206);

    // the signature binds the file, the school and the expiry: changing any of them is refused
    const u = new URL(pdf.data.url, 'http://x');
    const other_ = `${u.pathname}?s=${other.schoolId}&e=${u.searchParams.get('e')}&sig=${u.searchParams.get('sig')}`;
    expect((await t.get(other_)).status).toBe(403);
    const later = `${u.pathname}?s=${u.searchParams.get('s')}&e=${Number(u.searchParams.get('e')) + 1000}&sig=${u.searchParams.get('sig')}`;
    expect((await t.get(later)).status).toBe(403);
    const { rows } = await t.sql.query(`select file_id from courseware_files where section_id = $1 and kind = 'pdf'`, [c.sections[1]]);
    expect((await t.get(`/api/courseware/file/${rows[0].file_id}?${u.searchParams}`)).status).toBe(403);

    // owned now, in the catalogue and the school's list; another school still sees it unbought
    const centre = (await t.get(`/api/index/coursewareCenter?owned=1`, admin)).body.data;
    expect(centre).toMatchObject({ total: 1, list: [{ id: c.id, owned: true }] });
    expect((await t.get(`/api/index/schoolCoursewareList`, teacher)).body.data).toMatchObject({
      total: 1,
      list: [{ id: c.id, method: 'balance', bought_at: expect.any(String) }],
    });
    expect((await t.get(`/api/index/schoolCoursewareList`, other.adminToken)).body.data).toMatchObject({ total: 0 });
    expect((await t.get(`/api/index/coursewareFile?section_id=${c.sections[0]}`, other.adminToken)).body).toMatchObject({
      code: Code.Error,
      msg: '机构尚未购买该课件，购买后才能查看文件',
    });
    // preview: url, MIME type and page count
    expect((await t.get(`/api/index/preview?id=${files[0].file_id}`, teacher)).body).toMatchObject({
      code: Code.Ok,
      data: { kind: 'pdf', mime: 'application/pdf', pages: 5, url: expect.stringMatching(/^\/api\/courseware\/file\//) },
    });
    // parents never open courseware files
    expect((await t.get(`/api/index/preview?id=${files[0].file_id}`, parent)).body).toMatchObject({ code: Code.Error });
  });

  it('refused: a wrong payment password, a balance too low, a withdrawn or unknown courseware, other roles; nothing written', async () => {
    const c = await cw('九年级化学寒假专题');
    const before = await written();
    expect((await t.post('/api/index/balancePayCourseware', admin).send({ id: c.id, deal_pwd: '000000' })).body).toMatchObject({
      code: Code.Error,
      msg: expect.stringContaining('支付密码'),
    });
    for (const body of [
      {},
      { id: 'x', deal_pwd: PWD },
      { id: c.id, deal_pwd: '12' },
      { id: c.id, deal_pwd: PWD, request_id: '<x>' },
      { id: c.id, deal_pwd: PWD, extra: 1 },
    ]) {
      expect((await t.post('/api/index/balancePayCourseware', admin).send(body)).body.code).toBe(Code.Error);
    }
    expect((await buy(admin, 2_000_000)).body).toMatchObject({ code: Code.Error, msg: '未找到该课件' });
    for (const token of [teacher, parent, operator]) expect((await buy(token, c.id)).body).toMatchObject(DENIED);
    // the failed password tries are counted on the school (not this module's tables): reset them
    await t.sql.query(`update schools set deal_pwd_failures = 0 where id = $1`, [t.demo.schoolId]);
    const after = await written();
    expect(after).toEqual(before);

    // a balance too low: nothing charged
    const poor = await t.otherSchool();
    await t.post('/api/index/setDealPwd', poor.adminToken).send({ deal_pwd: PWD, password: 'Demo@2026' });
    const low = await written();
    expect((await buy(poor.adminToken, c.id)).body).toMatchObject({ code: Code.Error, msg: '余额不足：当前余额 0 元，课件价格 289 元' });
    expect(await written()).toEqual(low);

    // withdrawn: not sold
    await t.sql.query(`update coursewares set status = 0 where id = $1`, [c.id]);
    expect((await buy(admin, c.id)).body).toMatchObject({ code: Code.Error, msg: '该课件已下架' });
    await t.sql.query(`update coursewares set status = 1 where id = $1`, [c.id]);
  });

  it('another school’s own courseware and its sections are not found for this school', async () => {
    const subject = (await t.sql.query(`select id from courseware_dicts where kind = 'subject' limit 1`)).rows[0].id;
    const mine = await t.sql.query(
      `insert into coursewares (school_id, title, subject_id, price_fen) values ($1, '外校自编课件', $2, 100) returning id`,
      [other.schoolId, subject],
    );
    const sec = await t.sql.query(`insert into courseware_sections (courseware_id, school_id, title) values ($1, $2, '外校章节') returning id`, [
      mine.rows[0].id,
      other.schoolId,
    ]);
    const before = await written();
    expect((await t.get(`/api/index/coursewareData?id=${mine.rows[0].id}`, admin)).body).toMatchObject({ code: Code.Error, msg: '未找到该课件' });
    expect((await t.get(`/api/index/coursewareSection?courseware_id=${mine.rows[0].id}`, admin)).body).toMatchObject({
      code: Code.Error,
      msg: '未找到该课件',
    });
    expect((await t.get(`/api/index/coursewareFile?section_id=${sec.rows[0].id}`, admin)).body).toMatchObject({
      code: Code.Error,
      msg: '未找到该章节',
    });
    expect((await t.get(`/api/index/coursewarePdf?section_id=${sec.rows[0].id}`, admin)).body).toMatchObject({
      code: Code.Error,
      msg: '未找到该章节',
    });
    expect((await buy(admin, mine.rows[0].id)).body).toMatchObject({ code: Code.Error, msg: '未找到该课件' });
    expect((await t.post('/api/index/wechatPayCourseware', admin).send({ id: mine.rows[0].id })).body).toMatchObject({
      code: Code.Error,
      msg: '未找到该课件',
    });
    // the owner sees its own courseware as owned
    expect((await t.get(`/api/index/coursewareData?id=${mine.rows[0].id}`, other.adminToken)).body).toMatchObject({
      code: Code.Ok,
      data: { owned: true, own: true, sections_list: [{ title: '外校章节', own: true }] },
    });
    expect(await written()).toEqual(before);
  });

  it('a refund closes the files at once: by id, and for a URL handed out before it', async () => {
    const c = await cw('二年级数学课后托管练习');
    expect((await buy(admin, c.id)).body.data.charged).toBe(true);
    const pdf = await pdfOf(admin, c.sections[0]);
    expect((await t.get(pdf.data.url)).status).toBe(200);
    const [{ out_trade_no }] = (
      await t.sql.query(`select out_trade_no from courseware_purchases where school_id = $1 and courseware_id = $2`, [t.demo.schoolId, c.id])
    ).rows;
    const refunds = t.app.get(RefundsService);
    // in full only
    await expect(
      refunds.refund({ schoolId: t.demo.schoolId, outTradeNo: out_trade_no, amountFen: 100, reason: '部分', requestKey: 'part', actorId: null }),
    ).rejects.toMatchObject({ key: 'courseware.refund_partial' });
    const before = await balanceOf(t.demo.schoolId);
    await refunds.refund({ schoolId: t.demo.schoolId, outTradeNo: out_trade_no, reason: '运营退款', requestKey: 'op', actorId: null });
    expect(await balanceOf(t.demo.schoolId)).toBe(before + c.price);
    expect((await t.get(pdf.data.url)).status).toBe(403);
    expect(await pdfOf(admin, c.sections[0])).toMatchObject({ code: Code.Error, msg: '机构尚未购买该课件，购买后才能查看文件' });
    expect((await t.get(`/api/index/coursewareCenter?owned=1&keyword=${encodeURIComponent('二年级')}`, admin)).body.data.total).toBe(0);
    // bought again: charged again, open again
    expect((await buy(admin, c.id)).body.data).toMatchObject({ charged: true });
    expect((await t.get((await pdfOf(admin, c.sections[0])).data.url)).status).toBe(200);
  });
});

describe('wechatPayCourseware', () => {
  it('pays through the sandbox once; a second QR for owned courseware is refused; a second QR paid anyway is refunded', async () => {
    const c = await cw('五年级数学思维拓展');
    const a = await t.post('/api/index/wechatPayCourseware', admin).send({ id: c.id });
    expect(a.body).toMatchObject({ code: Code.Ok, data: { out_trade_no: expect.any(String), amount_fen: c.price } });
    const b = await t.post('/api/index/wechatPayCourseware', admin).send({ id: c.id });
    for (let i = 0; i < 2; i++) await t.post('/api/dev/wechatpay/simulate').send({ out_trade_no: a.body.data.out_trade_no });
    expect((await t.get(`/api/index/paymentState?out_trade_no=${a.body.data.out_trade_no}`, admin)).body.data).toMatchObject({
      state: 'paid',
      kind: 'courseware',
    });
    expect((await pdfOf(admin, c.sections[0])).code).toBe(Code.Ok);
    expect((await t.post('/api/index/wechatPayCourseware', admin).send({ id: c.id })).body).toMatchObject({
      code: Code.Error,
      msg: '机构已拥有该课件，无需重复购买',
    });
    // the QR opened before the purchase is paid too: it bought nothing and goes back in full
    await t.post('/api/dev/wechatpay/simulate').send({ out_trade_no: b.body.data.out_trade_no });
    await t.app.get(PaymentKinds).settled();
    const pays = await t.sql.query(
      `select out_trade_no, state, refunded_fen::float8 as refunded from payments where kind = 'courseware' and ref_id = $1 order by id`,
      [String(c.id)],
    );
    expect(pays.rows).toEqual([
      { out_trade_no: a.body.data.out_trade_no, state: 'paid', refunded: 0 },
      { out_trade_no: b.body.data.out_trade_no, state: 'refunded', refunded: c.price },
    ]);
    expect(
      (await t.sql.query(`select count(*)::int as n from courseware_purchases where courseware_id = $1 and state = 'owned'`, [c.id])).rows[0].n,
    ).toBe(1);
  });

  it('a QR paid after the courseware was bought from the balance goes back in full, once, and the purchase stays (issue 21)', async () => {
    const c = await cw('一年级语文拼音启蒙');
    const qr = (await t.post('/api/index/wechatPayCourseware', admin).send({ id: c.id })).body.data.out_trade_no as string;
    expect((await buy(admin, c.id)).body.data).toMatchObject({ owned: true, charged: true });
    for (let i = 0; i < 3; i++) {
      expect((await t.post('/api/dev/wechatpay/simulate').send({ out_trade_no: qr })).body.data.notify_status).toBe(204);
      await t.app.get(PaymentKinds).settled();
    }
    const refunds = await t.sql.query(
      `select p.state, p.refunded_fen::float8 as refunded, r.amount_fen::float8 as amount, r.request_key from payments p join payment_refunds r on r.payment_id = p.id where p.out_trade_no = $1`,
      [qr],
    );
    expect(refunds.rows).toEqual([{ state: 'refunded', refunded: c.price, amount: c.price, request_key: 'surplus' }]);
    expect(
      (await t.sql.query(`select method, state from courseware_purchases where school_id = $1 and courseware_id = $2`, [t.demo.schoolId, c.id])).rows,
    ).toEqual([{ method: 'balance', state: 'owned' }]);
    expect((await pdfOf(admin, c.sections[0])).code).toBe(Code.Ok);
  });

  it('bad input, other roles and unknown ids are refused, writing nothing', async () => {
    const c = await cw('八年级物理专题精讲');
    const before = await written();
    for (const body of [{}, { id: 0 }, { id: 'x' }, { id: c.id, extra: 1 }])
      expect((await t.post('/api/index/wechatPayCourseware', admin).send(body)).body.code).toBe(Code.Error);
    for (const token of [teacher, parent, operator])
      expect((await t.post('/api/index/wechatPayCourseware', token).send({ id: c.id })).body).toMatchObject(DENIED);
    expect((await t.post('/api/index/wechatPayCourseware', admin).send({ id: 2_000_000 })).body).toMatchObject({
      code: Code.Error,
      msg: '未找到该课件',
    });
    expect(await written()).toEqual(before);
  });
});

describe('a school’s own sections (POST coursewareSection) and coursewareUpload', () => {
  it('the admin uploads files privately and adds and edits a section of an owned courseware; files keep their ids', async () => {
    const c = await cw('三年级语文上册同步课堂');
    const up = await t
      .post('/api/index/coursewareUpload', admin)
      .attach('file', Buffer.from('%PDF-1.4\n1 0 obj << /Type /Page >> endobj\n2 0 obj << /Type /Page >> endobj\n%%EOF\n'), {
        filename: '自编练习.pdf',
      });
    expect(up.body).toMatchObject({ code: Code.Ok, data: { id: expect.any(String), mime: 'application/pdf', pages: 2, name: '自编练习.pdf' } });
    const month = readdirSync(join(t.config.uploadDir, '.courseware'));
    expect(month.length).toBeGreaterThan(0);
    const add = await t.post('/api/index/coursewareSection', admin).send({
      courseware_id: c.id,
      title: '本校拓展：古诗诵读',
      files: [
        { file_id: up.body.data.id, name: '自编练习' },
        { video_url: 'https://video.example.com/a.mp4', name: '诵读示范' },
      ],
    });
    expect(add.body).toMatchObject({ code: Code.Ok, data: { title: '本校拓展：古诗诵读', own: true, files: 2, version: 1 } });
    const files = (await t.get(`/api/index/coursewareFile?section_id=${add.body.data.id}`, teacher)).body.data as CoursewareFileRow[];
    expect(files.map((f) => [f.kind, f.pages])).toEqual([
      ['pdf', 2],
      ['video', null],
    ]);
    // another school does not see the section at all
    expect(
      (await t.get(`/api/index/coursewareSection?courseware_id=${c.id}`, other.adminToken)).body.data.map((s: { title: string }) => s.title),
    ).not.toContain('本校拓展：古诗诵读');

    const edit = await t.post('/api/index/coursewareSection', admin).send({
      courseware_id: c.id,
      id: add.body.data.id,
      version: 1,
      title: '本校拓展：古诗',
      files: [{ file_id: up.body.data.id, name: '练习（改）' }],
    });
    expect(edit.body).toMatchObject({ code: Code.Ok, data: { title: '本校拓展：古诗', version: 2, files: 1 } });
    const kept = (await t.get(`/api/index/coursewareFile?section_id=${add.body.data.id}`, teacher)).body.data as CoursewareFileRow[];
    expect(kept).toEqual([expect.objectContaining({ id: files[0].id, name: '练习（改）' })]);
  });

  it('refused: unowned courseware, the publisher’s section, another school’s file or section, stale versions, bad input, other roles', async () => {
    const owned = await cw('三年级语文上册同步课堂');
    const unowned = await cw('八年级英语下册同步课堂');
    const theirs = await t
      .post('/api/index/coursewareUpload', other.adminToken)
      .attach('file', Buffer.from('%PDF-1.4\n%%EOF\n'), { filename: 'x.pdf' });
    const publicUpload = await t.post('/api/index/upload', admin).attach('file', Buffer.from('%PDF-1.4\n%%EOF\n'), { filename: 'p.pdf' });
    const mine = (await t.post('/api/index/coursewareSection', admin).send({ courseware_id: owned.id, title: '本校章节', files: [] })).body.data;
    const before = await written();
    const send = (body: object, token = admin) => t.post('/api/index/coursewareSection', token).send(body);
    expect((await send({ courseware_id: unowned.id, title: 'x', files: [] })).body).toMatchObject({
      code: Code.Error,
      msg: '机构尚未购买该课件，购买后才能查看文件',
    });
    expect((await send({ courseware_id: owned.id, id: owned.sections[0], version: 1, title: 'x', files: [] })).body).toMatchObject({
      code: Code.Error,
      msg: '只能修改本机构添加的章节',
    });
    expect((await send({ courseware_id: owned.id, title: 'x', files: [{ file_id: theirs.body.data.id, name: 'x' }] })).body).toMatchObject({
      code: Code.Error,
      msg: '文件不存在或不是课件文件，请重新上传',
    });
    expect((await send({ courseware_id: owned.id, title: 'x', files: [{ file_id: publicUpload.body.data.id, name: 'x' }] })).body).toMatchObject({
      code: Code.Error,
      msg: '文件不存在或不是课件文件，请重新上传',
    });
    expect((await send({ courseware_id: owned.id, id: mine.id, version: 9, title: 'x', files: [] })).body).toMatchObject({
      code: Code.Error,
      msg: '数据已被他人修改，请刷新后重试',
    });
    expect((await send({ courseware_id: owned.id, id: mine.id, version: 1, title: 'x', files: [] }, other.adminToken)).body).toMatchObject({
      code: Code.Error,
      msg: '机构尚未购买该课件，购买后才能查看文件',
    });
    for (const body of [
      {},
      { courseware_id: owned.id, title: '', files: [] },
      { courseware_id: owned.id, title: 'x' },
      { courseware_id: owned.id, title: 'x', files: [{ name: 'x' }] },
      { courseware_id: owned.id, title: 'x', files: [{ video_url: 'http://insecure', name: 'x' }] },
      { courseware_id: owned.id, title: 'x', files: [{ file_id: 'nope', name: 'x' }] },
    ]) {
      expect((await send(body)).body.code).toBe(Code.Error);
    }
    for (const token of [teacher, parent, operator])
      expect((await send({ courseware_id: owned.id, title: 'x', files: [] }, token)).body).toMatchObject(DENIED);
    expect(await written()).toEqual(before);
  });

  it('coursewareUpload refuses unknown types, no file and parents, writing nothing', async () => {
    const before = await written();
    const list = () =>
      existsSync(join(t.config.uploadDir, '.courseware')) ? readdirSync(join(t.config.uploadDir, '.courseware'), { recursive: true }).length : 0;
    const files = list();
    expect((await t.post('/api/index/coursewareUpload', admin).attach('file', Buffer.from('MZ\x90\x00'), { filename: 'a.pdf' })).body).toMatchObject({
      code: Code.Error,
      msg: '不支持的文件类型：pdf',
    });
    expect((await t.post('/api/index/coursewareUpload', admin).send({})).body).toMatchObject({ code: Code.Error, msg: '请选择要上传的文件' });
    for (const token of [teacher, parent])
      expect((await t.post('/api/index/coursewareUpload', token).attach('file', Buffer.from('%PDF-1.4'), { filename: 'a.pdf' })).body).toMatchObject(
        DENIED,
      );
    expect(await written()).toEqual(before);
    expect(list()).toBe(files);
  });
});

describe('the operator’s catalogue', () => {
  it('publishes a courseware with sections and files, lists it with its buyers, edits and withdraws it', async () => {
    const up = await t
      .post('/api/index/coursewareUpload', operator)
      .attach('file', Buffer.from('%PDF-1.4\n<< /Type /Page >>\n%%EOF\n'), { filename: '讲义.pdf' });
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    const img = await t.post('/api/index/coursewareUpload', operator).attach('file', png, { filename: '插图.png' });
    const subject = (await t.get('/api/index/subjectList', operator)).body.data[0].id;
    const pub = await t.post('/api/index/publishCourseware', operator).send({
      title: '四年级语文阅读课',
      subject_id: subject,
      price_fen: 9_900,
      description: '阅读方法',
      sections: [
        {
          title: '第一讲',
          files: [
            { file_id: up.body.data.id, name: '讲义' },
            { file_id: img.body.data.id, name: '插图' },
          ],
        },
        { title: '第二讲', files: [{ video_url: 'https://v.example.com/2.mp4', name: '视频' }] },
      ],
    });
    expect(pub.body).toMatchObject({ code: Code.Ok, data: { id: expect.any(Number) } });
    const detail = (await t.get(`/api/index/coursewareData?id=${pub.body.data.id}`, admin)).body.data;
    expect(detail).toMatchObject({
      title: '四年级语文阅读课',
      price_fen: 9_900,
      owned: false,
      sections_list: [
        { title: '第一讲', files: 2 },
        { title: '第二讲', files: 1 },
      ],
    });
    // preview of an image: shown, one page; the operator previews any courseware file
    expect((await t.get(`/api/index/preview?id=${img.body.data.id}`, operator)).body.data).toMatchObject({
      kind: 'image',
      mime: 'image/png',
      pages: 1,
    });

    const list = (await t.get(`/api/index/operatorCoursewareList?keyword=${encodeURIComponent('阅读课')}`, operator)).body.data;
    expect(list).toMatchObject({ total: 1, list: [{ id: pub.body.data.id, status: 1, buyers: 0, version: 1 }] });
    const edit = await t
      .post('/api/index/editCourseware', operator)
      .send({ id: pub.body.data.id, version: 1, title: '四年级语文阅读课（新版）', subject_id: subject, price_fen: 12_900, status: 0 });
    expect(edit.body).toMatchObject({ code: Code.Ok, data: { version: 2 } });
    // withdrawn: gone from the catalogue for schools that do not own it
    expect((await t.get(`/api/index/coursewareData?id=${pub.body.data.id}`, admin)).body).toMatchObject({ code: Code.Error, msg: '未找到该课件' });
  });

  it('refused: bad input, unknown dictionaries, a school’s file, stale versions, other roles; nothing written', async () => {
    const subject = (await t.get('/api/index/subjectList', operator)).body.data[0].id;
    const schoolFile = await t.post('/api/index/coursewareUpload', admin).attach('file', Buffer.from('%PDF-1.4\n%%EOF\n'), { filename: 's.pdf' });
    const c = await cw('六年级语文阅读与写作');
    const before = await written();
    const ok = { title: '课件', subject_id: subject, price_fen: 100, sections: [{ title: '一', files: [] }] };
    for (const body of [
      {},
      { ...ok, price_fen: 0 },
      { ...ok, sections: [] },
      { ...ok, subject_id: 'x' },
      { ...ok, title: '<script>' },
      { ...ok, grade_id: -1 },
    ]) {
      expect((await t.post('/api/index/publishCourseware', operator).send(body)).body.code).toBe(Code.Error);
    }
    expect((await t.post('/api/index/publishCourseware', operator).send({ ...ok, subject_id: 999_999 })).body).toMatchObject({
      code: Code.Error,
      msg: '未找到该字典项',
    });
    expect((await t.post('/api/index/publishCourseware', operator).send({ ...ok, grade_id: subject })).body).toMatchObject({
      code: Code.Error,
      msg: '未找到该字典项',
    });
    expect(
      (
        await t
          .post('/api/index/publishCourseware', operator)
          .send({ ...ok, sections: [{ title: '一', files: [{ file_id: schoolFile.body.data.id, name: 'x' }] }] })
      ).body,
    ).toMatchObject({
      code: Code.Error,
      msg: '文件不存在或不是课件文件，请重新上传',
    });
    expect(
      (await t.post('/api/index/editCourseware', operator).send({ id: c.id, version: 7, title: 'x', subject_id: subject, price_fen: 1, status: 1 }))
        .body,
    ).toMatchObject({ code: Code.Error, msg: '数据已被他人修改，请刷新后重试' });
    expect(
      (
        await t
          .post('/api/index/editCourseware', operator)
          .send({ id: 2_000_000, version: 1, title: 'x', subject_id: subject, price_fen: 1, status: 1 })
      ).body,
    ).toMatchObject({ code: Code.Error, msg: '未找到该课件' });
    for (const token of [admin, teacher, parent, other.adminToken]) {
      expect((await t.post('/api/index/publishCourseware', token).send(ok)).body).toMatchObject(DENIED);
      expect(
        (await t.post('/api/index/editCourseware', token).send({ id: c.id, version: 1, title: 'x', subject_id: subject, price_fen: 1, status: 1 }))
          .body,
      ).toMatchObject(DENIED);
      expect((await t.get('/api/index/operatorCoursewareList', token)).body).toMatchObject(DENIED);
    }
    expect((await t.get('/api/index/operatorCoursewareList?status=5', operator)).body.code).toBe(Code.Error);
    expect(await written()).toEqual(before);
  });
});

describe('reads: bad input and roles', () => {
  it('bad ids and unknown fields are refused; parents and the operator may not read the catalogue', async () => {
    const before = await written();
    for (const path of [
      'coursewareData?id=x',
      'coursewareData?id=0',
      'coursewareData',
      'coursewareSection?courseware_id=-1',
      'coursewareFile?section_id=abc',
      'coursewarePdf?section_id=1&file_id=x',
      'schoolCoursewareList?limit=0',
      'schoolCoursewareList?keyword=%3Cb%3E',
      'coursewareData?id=1&extra=1',
    ]) {
      expect([path, (await t.get(`/api/index/${path}`, admin)).body.code]).toEqual([path, Code.Error]);
    }
    for (const path of [
      'coursewareData?id=1',
      'coursewareSection?courseware_id=1',
      'coursewareFile?section_id=1',
      'coursewarePdf?section_id=1',
      'schoolCoursewareList',
    ]) {
      expect((await t.get(`/api/index/${path}`, parent)).body).toMatchObject(DENIED);
      expect((await t.get(`/api/index/${path}`, operator)).body).toMatchObject(DENIED);
    }
    expect((await t.get('/api/index/coursewareData?id=2000000', admin)).body).toMatchObject({ code: Code.Error, msg: '未找到该课件' });
    expect((await t.get('/api/index/coursewarePdf?section_id=2000000', admin)).body).toMatchObject({ code: Code.Error, msg: '未找到该章节' });
    expect(await written()).toEqual(before);
  });
});

describe('preview', () => {
  it('answers a public upload of the school with its page count; a zip is download only; another school’s is not found', async () => {
    const pdf = await t
      .post('/api/index/upload', teacher)
      .attach('file', Buffer.from('%PDF-1.4\n<< /Type /Page >>\n<< /Type /Page >>\n<< /Type /Pages >>\n%%EOF\n'), { filename: '通知.pdf' });
    expect((await t.get(`/api/index/preview?id=${pdf.body.data.id}`, parent)).body).toMatchObject({
      code: Code.Ok,
      data: { kind: 'pdf', pages: 2, url: pdf.body.data.url, expires_at: null },
    });
    const docx = await t.post('/api/index/upload', teacher).attach('file', Buffer.from('PK\x03\x04rest'), { filename: '计划.docx' });
    // an office file is converted (office-preview.spec.ts): one that is not what its name says is refused
    expect((await t.get(`/api/index/preview?id=${docx.body.data.id}`, teacher)).body).toMatchObject({
      code: Code.Error,
      msg: '文件已损坏或格式不正确，无法预览',
    });
    const zip = await t.post('/api/index/upload', teacher).attach('file', Buffer.from('PK\x03\x04rest'), { filename: '资料.zip' });
    expect((await t.get(`/api/index/preview?id=${zip.body.data.id}`, teacher)).body.data).toMatchObject({
      kind: 'download',
      pages: null,
      html: null,
    });
    expect((await t.get(`/api/index/preview?id=${pdf.body.data.id}`, other.adminToken)).body).toMatchObject({
      code: Code.Error,
      msg: '未找到该文件',
    });
    expect((await t.get(`/api/index/preview?id=nope`, teacher)).body.code).toBe(Code.Error);
    expect((await t.get(`/api/index/preview?id=${pdf.body.data.id}`)).body.code).toBe(Code.Untoken);
  });
});
