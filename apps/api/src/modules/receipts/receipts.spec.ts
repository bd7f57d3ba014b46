import { amountInCapitals, amountInFigures, Code, type ContractDetail, type ReceiptRow } from '@wantuo/shared';
import { Workbook } from 'exceljs';
import { demoStampPng, snapshot, startTestApp, type TestApp } from '../../../test/harness';
import { pdfText } from '../../../test/pdf-text';
import { countPdfPages } from '../courseware/pdf-pages';
import { PaymentKinds } from '../payments/payment-kinds';
import { ReceiptsService } from './receipts.service';

let t: TestApp;
let admin: string;
let parent: string;
let child: number;
let childName: string;
let stranger: number;
let packageId: number;
let start: string;
let seq = 0;
const rid = () => `rc-${Date.now().toString(36)}-${seq++}`;
const P = '/api/index/';
const DENIED = { code: Code.Error, msg: '当前账号没有权限执行此操作' };
const receipts = () => t.app.get(ReceiptsService);
const settled = async () => {
  await t.app.get(PaymentKinds).settled();
  await receipts().settled();
};

beforeAll(async () => {
  t = await startTestApp({ runJobs: true, redis: false, listen: true, demoPeople: true });
  [admin, parent] = await Promise.all([t.login('admin'), t.login('parent')]);
  const mine = await t.sql.query(
    `select s.id, s.name from students s join student_guardians g on g.student_id = s.id where g.user_id = $1 and s.status = 1 order by s.id`,
    [t.demo.users.parent],
  );
  child = mine.rows[0].id;
  childName = mine.rows[0].name;
  stranger = (
    await t.sql.query(
      `select s.id from students s where s.school_id = $1 and s.status = 1
        and not exists (select 1 from student_guardians g where g.student_id = s.id and g.user_id = $2) order by s.id limit 1`,
      [t.demo.schoolId, t.demo.users.parent],
    )
  ).rows[0].id;
  const k = await t.post(`${P}addContractPackage`, admin).send({ name: '收据月托', kind: 'month', length: 1, price_fen: 123456, includes: ['care'] });
  packageId = k.body.data.id;
  start = (await t.sql.query(`select to_char((now() at time zone 'Asia/Shanghai')::date + 7, 'YYYY-MM-DD') as day`)).rows[0].day;
});
afterAll(() => t.close());

/** A file answer's bytes. */
const binary = (req: ReturnType<TestApp['get']>) =>
  req.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });

async function unpaid(studentId = child, payment?: { method: 'cash' | 'bank' | 'external'; receipt_no?: string }): Promise<ContractDetail> {
  const { rows } = await t.sql.query(`select user_id from student_guardians where student_id = $1 order by is_primary desc limit 1`, [studentId]);
  const res = await t
    .post(`${P}addContract`, admin)
    .send({ student_id: studentId, guardian_id: rows[0].user_id, package_id: packageId, start_day: start, request_id: rid(), payment });
  expect(res.body).toMatchObject({ code: Code.Ok });
  return res.body.data;
}

async function payByWechat(contractId: number): Promise<string> {
  const pay = await t.post(`${P}wechatPayContract`, parent).send({ id: contractId });
  expect(pay.body.code).toBe(Code.Ok);
  const no = pay.body.data.out_trade_no as string;
  const sim = await t.post('/api/dev/wechatpay/simulate').send({ out_trade_no: no });
  expect(sim.body).toMatchObject({ code: Code.Ok, data: { trade_state: 'SUCCESS' } });
  return no;
}

async function receiptsOf(where: string, params: unknown[]): Promise<Array<Record<string, unknown>>> {
  const { rows } = await t.sql.query(`select * from receipts where ${where} order by id`, params);
  return rows;
}

/** The demo school's receipt numbers are contiguous (1..n per year) and the counter says n: no gaps, no doubles. */
async function expectContiguous(schoolId: number) {
  const { rows } = await t.sql.query(
    `with n as (select split_part(receipt_no, '-', 1)::int as year, split_part(receipt_no, '-', 2)::int as seq from receipts where school_id = $1)
     select n.year, array_agg(n.seq) as seqs, (select last from receipt_counters k where k.school_id = $1 and k.year = n.year) as last
       from n group by n.year`,
    [schoolId],
  );
  for (const r of rows) {
    const seqs = [...(r.seqs as number[])].sort((a, b) => a - b);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    expect(r.last).toBe(seqs.length);
  }
}

async function snap() {
  const { rows } = await t.sql.query(
    `select (select count(*)::int from receipts) as receipts, (select coalesce(sum(last), 0)::int from receipt_counters) as counters,
            (select count(*)::int from files) as files, (select coalesce(sum(version), 0)::int from schools) as school_versions`,
  );
  return { ...(await snapshot(t.sql)), ...rows[0] };
}

describe('issuing', () => {
  it('the demo’s desk payments have their receipts from the seed, the desk refund its red receipt; the sweep finds nothing', async () => {
    const paid = await t.sql.query(`select count(*)::int as n from contract_events where school_id = $1 and type = 'paid'`, [t.demo.schoolId]);
    const issued = await receiptsOf(`school_id = $1 and kind = 'contract'`, [t.demo.schoolId]);
    expect(issued.length).toBe(paid.rows[0].n);
    const [refund] = await receiptsOf(`school_id = $1 and kind = 'refund'`, [t.demo.schoolId]);
    expect(refund).toMatchObject({ method: 'cash', original_receipt_id: expect.any(Number) });
    const [original] = await receiptsOf(`id = $1`, [refund.original_receipt_id]);
    expect(original.contract_id).toBe(refund.contract_id);
    expect(await receipts().sweep()).toBe(0);
    await expectContiguous(t.demo.schoolId);
    // issued when the money moved (the seed backdates them), numbered in that order
    const { rows } = await t.sql.query(`select receipt_no from receipts where school_id = $1 order by issued_at, id`, [t.demo.schoolId]);
    const nos = rows.map((r) => r.receipt_no as string);
    expect(nos).toEqual([...nos].sort());
    expect(refund.issued_at).toEqual(
      (await t.sql.query(`select at from contract_events where id = $1`, [Number(String(refund.source).split(':')[1])])).rows[0].at,
    );
  });

  it('a WeChat payment gets one receipt when the event and the sweep run at once', async () => {
    const c = await unpaid();
    const pay = await t.post(`${P}wechatPayContract`, parent).send({ id: c.id });
    const no = pay.body.data.out_trade_no as string;
    await Promise.all([t.post('/api/dev/wechatpay/simulate').send({ out_trade_no: no }), receipts().sweep(), receipts().sweep()]);
    await Promise.all([receipts().sweep(), receipts().sweep(), settled()]);
    const { rows } = await t.sql.query(`select id, provider_txn_id from payments where out_trade_no = $1`, [no]);
    const issued = await receiptsOf(`source = $1`, [`payment:${rows[0].id}`]);
    expect(issued).toHaveLength(1);
    expect(issued[0]).toMatchObject({
      kind: 'contract',
      student_id: child,
      student_name: childName,
      contract_id: c.id,
      amount_fen: '123456',
      method: 'wechat',
      txn_no: rows[0].provider_txn_id,
      item: expect.stringContaining('收据月托'),
    });
    expect(String(issued[0].receipt_no)).toMatch(/^\d{4}-\d{6}$/);
    await expectContiguous(t.demo.schoolId);
  });

  it('a desk payment is issued after its commit; numbers are per school', async () => {
    const c = await unpaid(stranger, { method: 'bank', receipt_no: 'BK-RC-1' });
    await settled();
    const [r] = await receiptsOf(`contract_id = $1`, [c.id]);
    expect(r).toMatchObject({ kind: 'contract', method: 'bank', txn_no: 'BK-RC-1', amount_fen: '123456' });

    // another school's first receipt is its own number 1
    const other = await t.otherSchool();
    const { rows } = await t.sql.query(
      `with s as (insert into students (school_id, name) values ($1, '外校学生') returning id),
            k as (insert into contract_packages (school_id, name, kind, length, price_fen) values ($1, '外校月托', 'month', 1, 50000) returning id),
            c as (insert into contracts (school_id, no, student_id, package_id, kind, start_day, end_day, list_price_fen, price_fen, paid_fen, status, pay_method, paid_at)
                  select $1, 'HT-OTHER-' || $1, s.id, k.id, 'month', current_date, current_date + 30, 50000, 50000, 50000, 'active', 'cash', now() from s, k returning id)
       insert into contract_events (school_id, contract_id, type, data) select $1, c.id, 'paid', '{"amount_fen": 50000, "method": "cash"}' from c
       returning contract_id`,
      [other.schoolId],
    );
    expect(await receipts().sweep()).toBe(1);
    const [theirs] = await receiptsOf(`contract_id = $1`, [rows[0].contract_id]);
    expect(String(theirs.receipt_no)).toMatch(/^\d{4}-000001$/);
    expect(theirs.school_name).toBe('另一所机构');
    await expectContiguous(t.demo.schoolId);
    await expectContiguous(other.schoolId);
  });

  it('a refund gets its own receipt that names the original', async () => {
    const c = await unpaid();
    const no = await payByWechat(c.id);
    await settled();
    const paid = (await t.get(`${P}contractInfo?id=${c.id}`, admin)).body.data as ContractDetail;
    const preview = (await t.get(`${P}contractRefundPreview?id=${c.id}`, admin)).body.data;
    const done = await t
      .post(`${P}cancellationContract`, admin)
      .send({ id: c.id, version: paid.version, reason: '家长退费', refund_fen: preview.refund_fen, request_id: rid() });
    expect(done.body.code).toBe(Code.Ok);
    await settled();
    const [original] = await receiptsOf(`source = (select 'payment:' || id from payments where out_trade_no = $1)`, [no]);
    const [refund] = await receiptsOf(`kind = 'refund' and original_receipt_id = $1`, [original.id]);
    expect(refund).toMatchObject({
      kind: 'refund',
      item_kind: 'contract',
      method: 'wechat',
      amount_fen: String(preview.refund_fen),
      student_id: child,
    });
    const list = (await t.get(`${P}parentReceiptList?contract_id=${c.id}`, parent)).body.data;
    expect(list.list.map((r: ReceiptRow) => [r.kind, r.original_receipt_no])).toEqual([
      ['refund', original.receipt_no],
      ['contract', null],
    ]);
    const pdf = (await binary(t.get(`${P}receiptDownload?id=${refund.id}`, parent))).body as Buffer;
    expect(countPdfPages(pdf)).toBe(1);
    const text = pdfText(pdf).join('\n');
    expect(text).toContain('退 款 收 据');
    expect(text).toContain(`本收据为退款收据，冲减原收据 ${original.receipt_no} 所列金额。`);
    expect(text).toContain(`原收据号\n${original.receipt_no}`);
    expect(text).toContain(amountInCapitals(preview.refund_fen));
  });

  it('a paid dinner gets its receipt: 晚餐 and the day', async () => {
    await t.sql.query(`update class_times set weekdays = '{1,2,3,4,5,6,7}' where school_id = $1`, [t.demo.schoolId]);
    await t.sql.query(`update meal_settings set cutoff_time = '23:59', days_before = 0 where school_id = $1`, [t.demo.schoolId]);
    const g = await t.post(`${P}addMealGoods`, admin).send({ name: '收据套餐', price_fen: 1500 });
    const day = (await t.sql.query(`select to_char((now() at time zone 'Asia/Shanghai')::date + 3, 'YYYY-MM-DD') as d`)).rows[0].d as string;
    // a child of the parent without a dinner contract
    await t.sql.query(`update contracts set status = 'cancelled' where student_id = $1 and status = 'active'`, [child]);
    const b = await t.post(`${P}bookDinner`, parent).send({ student_id: child, day, goods_id: g.body.data.id, request_id: rid() });
    expect(b.body).toMatchObject({ code: Code.Ok, data: { status: 'unpaid' } });
    const pay = await t.post(`${P}wechatPayDinner`, parent).send({ id: b.body.data.id });
    expect(pay.body.code).toBe(Code.Ok);
    await t.post('/api/dev/wechatpay/simulate').send({ out_trade_no: pay.body.data.out_trade_no });
    await settled();
    const [r] = await receiptsOf(`booking_id = $1`, [b.body.data.id]);
    expect(r).toMatchObject({ kind: 'meal', item: `晚餐 ${day}（收据套餐）`, amount_fen: '1500', method: 'wechat' });
    expect(r.period_start).toEqual(r.period_end);
  });
});

describe('the PDF', () => {
  it('says the school, the child, the amount in figures and capitals and the number, with the stamp; the same bytes twice', async () => {
    const up = await t.post(`${P}adminReceiptStampUpload`, admin).attach('file', demoStampPng(), { filename: '印章.png', contentType: 'image/png' });
    expect(up.body).toMatchObject({ code: Code.Ok, data: { stamp: { mime: 'image/png', url: expect.stringMatching(/^\/uploads\//) } } });
    const c = await unpaid(child, { method: 'cash' });
    await settled();
    const [r] = await receiptsOf(`contract_id = $1`, [c.id]);
    expect(r.stamp_file_id).toBe(up.body.data.stamp.file_id);
    const first = await binary(t.get(`${P}receiptDownload?id=${r.id}`, parent));
    expect(first.status).toBe(200);
    expect(first.headers['content-type']).toContain('application/pdf');
    expect(decodeURIComponent(first.headers['content-disposition'])).toContain(`收据-${r.receipt_no}.pdf`);
    const text = pdfText(first.body as Buffer);
    expect(text).toEqual(
      expect.arrayContaining([
        '阳光晚托中心（演示）',
        '收 据',
        `收据号 No. ${r.receipt_no}`,
        childName,
        amountInFigures(123456),
        '人民币壹仟贰佰叁拾肆元伍角陆分',
        '现金',
        `收款单位（盖章）：阳光晚托中心（演示）`,
      ]),
    );
    expect((first.body as Buffer).toString('latin1')).toMatch(/\/Subtype \/Image/);
    expect(countPdfPages(first.body as Buffer)).toBe(1);
    expect((first.body as Buffer).toString('latin1')).toMatch(/NotoSansSC/);
    const second = await binary(t.get(`${P}receiptDownload?id=${r.id}`, admin));
    expect(Buffer.compare(first.body as Buffer, second.body as Buffer)).toBe(0);
    // a later stamp leaves the receipt as it was issued
    await t.post(`${P}adminReceiptStampUpload`, admin).attach('file', demoStampPng(120), { filename: 's.png', contentType: 'image/png' });
    const third = await binary(t.get(`${P}receiptDownload?id=${r.id}`, parent));
    expect(Buffer.compare(first.body as Buffer, third.body as Buffer)).toBe(0);
  });
});

describe('who sees what', () => {
  it('a guardian sees only their own children’s; another school’s id is not found; a teacher is refused', async () => {
    const list = (await t.get(`${P}parentReceiptList?limit=100`, parent)).body.data;
    expect(list.total).toBeGreaterThan(0);
    const { rows: mine } = await t.sql.query(`select student_id from student_guardians where user_id = $1`, [t.demo.users.parent]);
    const ids = new Set(mine.map((m) => m.student_id));
    expect(list.list.every((r: ReceiptRow) => ids.has(r.student_id))).toBe(true);
    const [theirs] = await receiptsOf(`school_id = $1 and student_id = $2`, [t.demo.schoolId, stranger]);
    expect((await t.get(`${P}receiptDownload?id=${theirs.id}`, parent)).body).toMatchObject({ code: Code.Error, msg: '未找到该收据' });
    expect((await t.get(`${P}parentReceiptList?student_id=${stranger}`, parent)).body.data.total).toBe(0);
    const other = await t.otherSchool();
    expect((await t.get(`${P}receiptDownload?id=${theirs.id}`, other.adminToken)).body).toMatchObject({ code: Code.Error, msg: '未找到该收据' });
    expect((await t.get(`${P}adminReceiptList`, other.adminToken)).body.data.list.some((r: ReceiptRow) => r.id === theirs.id)).toBe(false);
    const teacher = await t.login('teacher');
    for (const path of [
      'parentReceiptList',
      `receiptDownload?id=${theirs.id}`,
      'adminReceiptList',
      'adminReceiptStampInfo',
      'adminReceiptExport?month=2026-12',
    ])
      expect([path, (await t.get(`${P}${path}`, teacher)).body]).toEqual([path, expect.objectContaining(DENIED)]);
    expect((await t.get(`${P}adminReceiptList`, parent)).body).toMatchObject(DENIED);
  });

  it('the admin’s list filters by month, kind and keyword, paged', async () => {
    const month = (await t.sql.query(`select to_char(now() at time zone 'Asia/Shanghai', 'YYYY-MM') as m`)).rows[0].m as string;
    const all = (await t.get(`${P}adminReceiptList?month=${month}&limit=100`, admin)).body.data;
    expect(all.total).toBeGreaterThan(2);
    const refunds = (await t.get(`${P}adminReceiptList?kind=refund&limit=100`, admin)).body.data;
    expect(refunds.list.every((r: ReceiptRow) => r.kind === 'refund' && r.original_receipt_no)).toBe(true);
    const byName = (await t.get(`${P}adminReceiptList?keyword=${encodeURIComponent(childName)}&limit=100`, admin)).body.data;
    expect(byName.total).toBeGreaterThan(0);
    expect(byName.list.every((r: ReceiptRow) => r.student_name === childName)).toBe(true);
    const one = all.list[0] as ReceiptRow;
    expect((await t.get(`${P}adminReceiptList?keyword=${one.receipt_no}`, admin)).body.data.list.map((r: ReceiptRow) => r.id)).toEqual([one.id]);
    const page2 = (await t.get(`${P}adminReceiptList?month=${month}&limit=2&page=2`, admin)).body.data;
    expect(page2).toMatchObject({ page: 2, limit: 2, total: all.total });
    expect(page2.list.map((r: ReceiptRow) => r.id)).toEqual(all.list.slice(2, 4).map((r: ReceiptRow) => r.id));
    expect((await t.get(`${P}adminReceiptList?month=2001-01`, admin)).body.data.total).toBe(0);
  });

  it('exports a month as xlsx: money in yuan, local times, a totals row', async () => {
    const month = (await t.sql.query(`select to_char(now() at time zone 'Asia/Shanghai', 'YYYY-MM') as m`)).rows[0].m as string;
    const { rows } = await t.sql.query(
      `select count(*)::int as n, coalesce(sum(amount_fen) filter (where kind <> 'refund'), 0)::int as paid,
              coalesce(sum(amount_fen) filter (where kind = 'refund'), 0)::int as refunded
         from receipts where school_id = $1 and to_char(issued_at at time zone 'Asia/Shanghai', 'YYYY-MM') = $2`,
      [t.demo.schoolId, month],
    );
    const res = await binary(t.get(`${P}adminReceiptExport?month=${month}`, admin));
    expect(res.status).toBe(200);
    const wb = new Workbook();
    await wb.xlsx.load(res.body as never);
    const ws = wb.worksheets[0];
    const values = (n: number) => (ws.getRow(n).values as unknown[]).slice(1);
    expect(values(1)).toEqual(['收据号', '类型', '开具时间', '学生', '项目', '期间', '支付方式', '交易单号', '原收据号', '收款（元）', '退款（元）']);
    expect(ws.rowCount).toBe(rows[0].n + 2);
    const total = values(ws.rowCount);
    expect(total[0]).toBe('合计');
    expect(total[9]).toBeCloseTo(rows[0].paid / 100, 2);
    expect(total[10]).toBeCloseTo(rows[0].refunded / 100, 2);
    expect(String(values(2)[2])).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
  });
});

describe('bad input and the stamp', () => {
  it.each([
    ['parentReceiptList?student_id=x', 'parent'],
    ['parentReceiptList?page=0', 'parent'],
    ['parentReceiptList?nope=1', 'parent'],
    ['receiptDownload?id=0', 'parent'],
    ['receiptDownload', 'admin'],
    ['adminReceiptList?month=2026-13', 'admin'],
    ['adminReceiptList?kind=gift', 'admin'],
    ['adminReceiptExport', 'admin'],
    ['adminReceiptExport?month=202612', 'admin'],
  ] as const)('%s: code 100, nothing written', async (path, who) => {
    const before = await snap();
    const res = await t.get(`${P}${path}`, who === 'admin' ? admin : parent);
    expect(res.body.code).toBe(Code.Error);
    expect(await snap()).toEqual(before);
  });

  it('refuses a stamp that is not a PNG or JPEG by its bytes, and an unreadable one; nothing written', async () => {
    const before = await snap();
    const cases: Array<[Buffer, string, string]> = [
      [Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'), 'a.png', '印章图片只能是 PNG 或 JPEG 格式'],
      [Buffer.from('not an image at all'), 'a.png', '印章图片只能是 PNG 或 JPEG 格式'],
      [Buffer.from('%PDF-1.4 fake'), 'a.jpg', '印章图片只能是 PNG 或 JPEG 格式'],
      [
        Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('broken')]),
        'a.png',
        '无法读取该印章图片，请换一张 PNG 或 JPEG 图片',
      ],
      [Buffer.alloc(3 * 1024 * 1024, 0xff), 'big.jpg', '文件过大，最大 2 MB'],
    ];
    for (const [bytes, name, msg] of cases) {
      const res = await t.post(`${P}adminReceiptStampUpload`, admin).attach('file', bytes, { filename: name, contentType: 'image/png' });
      expect([name, res.body]).toEqual([name, expect.objectContaining({ code: Code.Error, msg })]);
    }
    expect((await t.post(`${P}adminReceiptStampUpload`, admin).send({})).body).toMatchObject({ code: Code.Error, msg: '请选择要上传的文件' });
    expect((await t.post(`${P}adminReceiptStampUpload`, parent).attach('file', demoStampPng(), 'a.png')).body).toMatchObject(DENIED);
    expect(await snap()).toEqual(before);
    expect((await t.get(`${P}adminReceiptStampInfo`, admin)).body).toMatchObject({ code: Code.Ok, data: { school_name: '阳光晚托中心（演示）' } });
  });

  it('receipts stay as issued: the table refuses updates and deletes', async () => {
    await expect(t.sql.query(`update receipts set amount_fen = 1`)).rejects.toThrow(/append-only/);
    await expect(t.sql.query(`delete from receipts`)).rejects.toThrow(/append-only/);
  });
});
