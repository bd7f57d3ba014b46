import { Code, STUDENT_IMPORT_COLUMNS } from '@wantuo/shared';
import { Workbook } from 'exceljs';
import type { Response } from 'supertest';
import { peakRssGrowth, zipBombXlsx } from '../../../test/crafted-xlsx';
import { snapshot, startTestApp, type TestApp } from '../../../test/harness';

let t: TestApp;
let admin: string;
let teacher: string;
let adviser: string;
let parent: string;
let other: { schoolId: number; adminToken: string };
beforeAll(async () => {
  t = await startTestApp({ runJobs: false, demoPeople: true });
  [admin, teacher, adviser, parent] = await Promise.all([t.login('admin'), t.login('teacher'), t.login('adviser'), t.login('parent')]);
  other = await t.otherSchool();
});
afterAll(() => t.close());

const TEMPLATE = '/api/index/studentImportTemplate';
const IMPORT = '/api/index/studentImport';
const EXPORT = '/api/index/studentExport';
const FORBIDDEN = '当前账号没有权限执行此操作';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

type Row = (string | number | Date | null)[];
let nextMobile = 0;
/** a number in Chinese digits (names have no digits) */
const cn = (n: number) => String(n).replace(/\d/g, (d) => '零一二三四五六七八九'[Number(d)]);
const freshMobile = () => `1350000${String(++nextMobile).padStart(4, '0')}`;
/** a good row of the template columns */
const good = (name: string, mobile = freshMobile()): Row => [
  name,
  '女',
  '2018-03-01',
  '实验小学',
  '二年级',
  '1班',
  '',
  '',
  '王妈妈',
  mobile,
  '母亲',
  '是',
  '否',
];

async function xlsx(rows: Row[], header: string[] = [...STUDENT_IMPORT_COLUMNS]): Promise<Buffer> {
  const wb = new Workbook();
  const ws = wb.addWorksheet('学生');
  ws.addRow(header);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/**
 * Text as GB18030 bytes, as Excel saves a .csv on a Chinese Windows: the built-in decoder inverted (every two-byte
 * code, and the four-byte ones of the supplementary planes), so the test needs no encoding library.
 */
function gb18030(text: string): Buffer {
  const decoder = new TextDecoder('gb18030');
  const codes = new Map<string, number[]>();
  for (let a = 0x81; a <= 0xfe; a++) for (let b = 0x40; b <= 0xfe; b++) if (b !== 0x7f) codes.set(decoder.decode(Uint8Array.of(a, b)), [a, b]);
  const bytes: number[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x80) bytes.push(cp);
    else if (cp >= 0x10000) {
      // four bytes from 0x90308130 on, counted linearly from U+10000
      let n = cp - 0x10000;
      const d = n % 10;
      n = (n - d) / 10;
      const c = n % 126;
      n = (n - c) / 126;
      const b = n % 10;
      bytes.push(0x90 + (n - b) / 10, 0x30 + b, 0x81 + c, 0x30 + d);
    } else {
      const code = codes.get(ch);
      if (!code) throw new Error(`no two-byte GB18030 code for ${ch}`);
      bytes.push(...code);
    }
  }
  const out = Buffer.from(bytes);
  expect(decoder.decode(out)).toBe(text);
  return out;
}

/** binary answers (xlsx) collected as a Buffer */
const binary = (res: Response, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};

const upload = (file: Buffer, name: string, dryRun: '1' | '0', token = admin) =>
  t.post(IMPORT, token).field('dry_run', dryRun).attach('file', file, name);

async function readXlsx(buf: Buffer): Promise<string[][]> {
  const wb = new Workbook();
  await wb.xlsx.load(buf as unknown as ArrayBuffer);
  const rows: string[][] = [];
  wb.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1).map((v) => (v === null || v === undefined ? '' : String(v)))));
  return rows;
}

describe('studentImportTemplate', () => {
  it('downloads an xlsx with the Chinese headers and an RFC 5987 file name; csv with a BOM', async () => {
    const res = await t.get(`${TEMPLATE}?format=xlsx`, admin).buffer(true).parse(binary);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(XLSX);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="______.xlsx"; filename*=UTF-8''${encodeURIComponent('学生导入模板.xlsx')}`,
    );
    const rows = await readXlsx(res.body as Buffer);
    expect(rows[0]).toEqual([...STUDENT_IMPORT_COLUMNS]);
    // the birthday and mobile columns are text; the second sheet explains every column
    const wb = new Workbook();
    await wb.xlsx.load(res.body as ArrayBuffer);
    const [sheet, help] = wb.worksheets;
    expect([sheet.getColumn(3).numFmt, sheet.getColumn(10).numFmt, sheet.getColumn(1).numFmt]).toEqual(['@', '@', undefined]);
    expect([sheet.getColumn(1).width, sheet.getColumn(10).width]).toEqual([14, 14]);
    expect(help.name).toBe('填写说明');
    expect(help.getRow(1).values).toEqual([undefined, '列', '说明']);
    expect(help.getRow(1).font?.bold).toBe(true);
    expect(help.getRow(2).values).toEqual([undefined, '姓名', '必填，最多 32 个字符']);
    expect(help.rowCount).toBe(STUDENT_IMPORT_COLUMNS.length + 3);
    expect(help.getColumn(2).width).toBe(60);
    const csv = await t.get(`${TEMPLATE}?format=csv`, admin).buffer(true).parse(binary);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect((csv.body as Buffer).toString('utf8')).toBe(`\ufeff${STUDENT_IMPORT_COLUMNS.join(',')}\r\n`);
  });
  it('bad input answers the JSON envelope with code 100', async () => {
    for (const q of ['', 'format=pdf', `format=${'x'.repeat(10_000)}`, 'format=xlsx&x=1']) {
      const res = await t.get(`${TEMPLATE}?${q}`, admin);
      expect(res.body.code).toBe(Code.Error);
    }
  });
  it('a wrong role is refused', async () => {
    for (const token of [teacher, adviser, parent])
      expect((await t.get(`${TEMPLATE}?format=xlsx`, token)).body).toMatchObject({ code: Code.Error, msg: FORBIDDEN });
  });
});

describe('studentImport', () => {
  it('a good file: the dry run writes nothing, the import inserts every row with parent accounts in one go', async () => {
    const shared = freshMobile();
    const file = await xlsx([
      good('导入甲', shared),
      good('导入乙', shared),
      ['导入丙', '男', new Date(Date.UTC(2017, 8, 1)), '第二小学', '三年级', '2班', '花生', '备注', '丙爸爸', Number(freshMobile()), '父亲', '', ''],
      [],
    ]);
    const before = await snapshot(t.sql);
    const dry = await upload(file, '学生.xlsx', '1');
    expect(dry.body).toEqual({ code: Code.Ok, msg: '成功', data: { dry_run: true, total: 3, valid: 3, problems: [], imported: 0 } });
    expect(await snapshot(t.sql)).toEqual(before);
    const res = await upload(file, '学生.xlsx', '0');
    expect(res.body.data).toEqual({ dry_run: false, total: 3, valid: 3, problems: [], imported: 3 });
    const { rows } = await t.sql.query(
      `select s.name, s.gender, to_char(s.birthday, 'YYYY-MM-DD') as birthday, s.grade, s.allergies, s.needs_shuttle, s.needs_dinner,
              u.mobile, u.role, u.nickname, g.relation, g.is_primary
         from students s join student_guardians g on g.student_id = s.id join users u on u.id = g.user_id
        where s.name like '导入%' order by s.id`,
    );
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatchObject({
      name: '导入甲',
      gender: 2,
      birthday: '2018-03-01',
      needs_shuttle: true,
      needs_dinner: false,
      mobile: shared,
      role: 6,
      relation: '母亲',
      is_primary: true,
    });
    expect(rows[2]).toMatchObject({ name: '导入丙', gender: 1, birthday: '2017-09-01', allergies: '花生', needs_shuttle: false });
    const { rows: parents } = await t.sql.query(`select count(*)::int as n from users where mobile = $1`, [shared]);
    expect(parents[0].n).toBe(1);
    // importing the same file again: every row is now a duplicate
    const again = await upload(file, '学生.xlsx', '1');
    expect(again.body.data).toMatchObject({
      valid: 0,
      problems: [{ row: 2, column: '姓名', message: '系统中已有同名且监护人手机相同的学生' }, { row: 3 }, { row: 4 }],
    });
  });

  it('a bad file lists each problem in Chinese with row and column', async () => {
    const m = freshMobile();
    const file = await xlsx([
      ['', '男', '2018-13-01', '', '', '', '', '', '', '123', '', '也许', ''],
      good('重复生', m),
      good('重复生', m),
      ['<b>粗</b>', '未知', '', '', 'x'.repeat(21), '', '', '', '李老师', '13800000002', '父亲', '', ''],
      good('陈小雨', '13800000006'),
    ]);
    const res = await upload(file, 'bad.xlsx', '1');
    expect(res.body.code).toBe(Code.Ok);
    expect(res.body.data).toMatchObject({ dry_run: true, total: 5, valid: 1, imported: 0 });
    expect(res.body.data.problems).toEqual([
      { row: 2, column: '姓名', message: '必填' },
      { row: 2, column: '监护人姓名', message: '必填' },
      { row: 2, column: '与学生关系', message: '必填' },
      { row: 2, column: '监护人手机', message: '手机号格式不正确' },
      { row: 2, column: '出生日期', message: '日期格式应为 2018-09-01，且不晚于今天' },
      { row: 2, column: '需要接送', message: '只能填“是”或“否”' },
      { row: 4, column: '姓名', message: '与第 3 行重复（同名且监护人手机相同）' },
      { row: 5, column: '姓名', message: '不能包含 HTML 标签或控制字符' },
      { row: 5, column: '年级', message: '最多 20 个字符' },
      { row: 5, column: '性别', message: '只能填“男”或“女”' },
      { row: 6, column: '姓名', message: '系统中已有同名且监护人手机相同的学生' },
    ]);
  });

  it('all or nothing: a mixed file imports nothing and answers the problems', async () => {
    const file = await xlsx([good('混合甲'), good('混合乙'), ['混合丙', '', '', '', '', '', '', '', '丙妈妈', 'bad', '母亲', '', '']]);
    const before = await snapshot(t.sql);
    const res = await upload(file, 'mixed.xlsx', '0');
    expect(res.body).toMatchObject({
      code: Code.Error,
      msg: '有 1 处问题，未导入任何学生，请修改后重试',
      data: { dry_run: false, total: 3, valid: 2, imported: 0, problems: [{ row: 4, column: '监护人手机', message: '手机号格式不正确' }] },
    });
    expect(await snapshot(t.sql)).toEqual(before);
  });

  it('reads csv in UTF-8 with a BOM, quoted fields and CR LF', async () => {
    const m = freshMobile();
    const csv = `\ufeff${STUDENT_IMPORT_COLUMNS.join(',')}\r\nCSV甲,女,2018/3/5,"实验小学,北校区",一年级,2班,"对""花生""过敏",,甲妈妈,${m},母亲,是,是\r\n`;
    const res = await upload(Buffer.from(csv, 'utf8'), '学生.csv', '0');
    expect(res.body.data).toMatchObject({ total: 1, valid: 1, imported: 1 });
    const { rows } = await t.sql.query(
      `select day_school, allergies, to_char(birthday, 'YYYY-MM-DD') as b, needs_dinner from students where name = 'CSV甲'`,
    );
    expect(rows[0]).toEqual({ day_school: '实验小学,北校区', allergies: '对"花生"过敏', b: '2018-03-05', needs_dinner: true });
  });

  it('reads a csv that Excel saved on a Chinese Windows (GB18030), and its "Unicode text" (UTF-16LE, tabs)', async () => {
    const [m1, m2, m3] = [freshMobile(), freshMobile(), freshMobile()];
    const lines = [
      STUDENT_IMPORT_COLUMNS.join(','),
      `张晓燕,女,2018/3/5,"实验小学,北校区",一年级,2班,花生过敏,,张妈妈,${m1},母亲,是,否`,
      `欧阳𠮷,男,,,,,,,欧阳爸爸,${m2},父亲,,`,
    ];
    const gb = gb18030(`${lines.join('\r\n')}\r\n`);
    // the bytes really are GB18030, not UTF-8 (the old decoder refused them)
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(gb)).toThrow();
    const dry = await upload(gb, '学生.csv', '1');
    expect(dry.body).toMatchObject({ code: Code.Ok, data: { total: 2, valid: 2, problems: [] } });
    const res = await upload(gb, '学生.csv', '0');
    expect(res.body.data).toMatchObject({ total: 2, valid: 2, imported: 2 });
    const { rows } = await t.sql.query(
      `select s.name, s.day_school, s.allergies, g.relation, u.name as guardian from students s
         join student_guardians g on g.student_id = s.id join users u on u.id = g.user_id
        where u.mobile = any($1) order by s.name`,
      [[m1, m2]],
    );
    expect(rows).toEqual([
      { name: '张晓燕', day_school: '实验小学,北校区', allergies: '花生过敏', relation: '母亲', guardian: '张妈妈' },
      { name: '欧阳𠮷', day_school: null, allergies: null, relation: '父亲', guardian: '欧阳爸爸' },
    ]);
    // Excel's 另存为 "Unicode 文本": UTF-16LE with a BOM, the cells separated by tabs
    const tsv = [STUDENT_IMPORT_COLUMNS.join('\t'), ['李小龙', '男', '', '', '', '', '', '', '李妈妈', m3, '母亲', '', ''].join('\t')];
    const u16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`${tsv.join('\r\n')}\r\n`, 'utf16le')]);
    expect((await upload(u16, '学生.txt', '0')).body.data).toMatchObject({ total: 1, valid: 1, imported: 1 });
    expect((await t.sql.query(`select count(*)::int as n from students where name = '李小龙'`)).rows[0].n).toBe(1);
  });

  it('a csv that is neither UTF-8, UTF-16 nor GB18030 is refused with code 100 and nothing written', async () => {
    const header = Buffer.from(`${STUDENT_IMPORT_COLUMNS.join(',')}\r\n`, 'utf8');
    const before = await snapshot(t.sql);
    for (const file of [
      // 0xff never starts a GB18030 character, and is no UTF-8
      Buffer.concat([header, Buffer.from([0xd5, 0xc5, 0xff, 0xff, 0x2c, 0x31, 0x0d, 0x0a])]),
      // a UTF-16LE BOM and a lone surrogate
      Buffer.from([0xff, 0xfe, 0x00, 0xd8, 0x41, 0x00]),
      // a GB18030 lead byte at the very end
      Buffer.concat([gb18030(`${STUDENT_IMPORT_COLUMNS.join(',')}\r\n张三`), Buffer.from([0xd5])]),
    ]) {
      const res = await upload(file, 'x.csv', '0');
      expect(res.body).toMatchObject({ code: Code.Error, msg: '无法读取文件，请使用下载的模板（.xlsx 或 UTF-8 编码的 .csv）' });
    }
    expect(await snapshot(t.sql)).toEqual(before);
  });

  it('imports 2,000 rows quickly with a constant number of queries', async () => {
    const rows = Array.from({ length: 2000 }, (_, i) => good(`批量${cn(i)}`, `1340${String(i).padStart(7, '0')}`));
    const file = await xlsx(rows);
    const start = Date.now();
    const res = await upload(file, 'big.xlsx', '0');
    expect(res.body.data).toMatchObject({ total: 2000, valid: 2000, imported: 2000 });
    expect(Date.now() - start).toBeLessThan(10_000);
  });

  it('bad files and bad input answer code 100 and write nothing', async () => {
    const cases: Array<() => Promise<{ body: { code: number; msg: string } }>> = [
      () => t.post(IMPORT, admin).send({}),
      () => t.post(IMPORT, admin).field('dry_run', '1'),
      () => upload(Buffer.from('PK\u0003\u0004garbage'), 'x.xlsx', '1'),
      () => upload(Buffer.from([0xff, 0xfe, 0x00, 0xd8]), 'x.csv', '1'),
      () => upload(Buffer.from('名字,电话\r\n张三,13800000000\r\n'), 'x.csv', '1'),
      () => upload(Buffer.from(`${STUDENT_IMPORT_COLUMNS.join(',')}\r\n`), 'x.csv', '1'),
      () => upload(Buffer.alloc(5 * 1024 * 1024 + 1, 0x41), 'x.csv', '1'),
      () => t.post(IMPORT, admin).field('dry_run', '2').attach('file', Buffer.from('a'), 'x.csv'),
      () => t.post(IMPORT, admin).field('dry_run', 'x'.repeat(10_000)).attach('file', Buffer.from('a'), 'x.csv'),
      () => t.post(IMPORT, admin).field('dry_run', '0').field('school_id', '2').attach('file', Buffer.from('a'), 'x.csv'),
    ];
    const msgs: string[] = [];
    for (const c of cases) {
      const before = await snapshot(t.sql);
      const res = await c();
      expect(res.body.code).toBe(Code.Error);
      msgs.push(res.body.msg);
      expect(await snapshot(t.sql)).toEqual(before);
    }
    expect(msgs.slice(0, 7)).toEqual([
      '请上传 .xlsx 或 .csv 文件',
      '请上传 .xlsx 或 .csv 文件',
      '无法读取文件，请使用下载的模板（.xlsx 或 UTF-8 编码的 .csv）',
      '无法读取文件，请使用下载的模板（.xlsx 或 UTF-8 编码的 .csv）',
      expect.stringMatching(/^表头缺少列：姓名、性别/),
      '文件中没有学生数据',
      '文件过大，最大 5 MB',
    ]);
    const many = Array.from({ length: 5001 }, (_, i) => good(`超量${cn(i)}`));
    const res = await upload(await xlsx(many), 'many.xlsx', '1');
    expect(res.body).toMatchObject({ code: Code.Error, msg: '一次最多导入 5000 行' });
  });

  it('a small zip that unpacks to 200 MB is refused at once, before the workbook is loaded (memory stays flat)', async () => {
    const real = await xlsx([good('炸弹')]);
    const msg = '文件解压后超过 40 MB，无法读取：请只保留学生工作表，删除多余的行、图片和格式后重试';
    // the directory tells the truth (200 MB), and the directory lies (the sheet declared at its original size)
    for (const declare of ['true', 'lie'] as const) {
      const bomb = await zipBombXlsx(real, 200 * 1024 * 1024, declare);
      expect(bomb.length).toBeLessThan(1024 * 1024);
      const before = await snapshot(t.sql);
      const { result: res, growth, ms } = await peakRssGrowth(() => upload(bomb, 'bomb.xlsx', '0'));
      expect(res.body).toMatchObject({ code: Code.Error, msg });
      expect(ms).toBeLessThan(3000);
      expect(growth).toBeLessThan(64 * 1024 * 1024);
      expect(await snapshot(t.sql)).toEqual(before);
    }
  });

  it('reads what staff type: mobiles with spaces, dashes or a country code; dates as typed, as date cells or as serials', async () => {
    const row = (name: string, birthday: string | number | Date, mobile: string | number): Row => [
      name,
      '女 ',
      birthday,
      '实验小学',
      '二年级',
      '1班',
      '',
      '',
      '张妈妈 ',
      mobile,
      '母亲',
      '是 ',
      '否',
    ];
    const file = await xlsx([
      row('格式甲', '2018/3/15', '139 1234 5602'),
      row('格式乙', '2017.11.02', '139-1234-5603'),
      row('格式丙', 43000, '+86 13912345604'),
      row('格式丁', '43000', '0086 13912345605'),
      row('格式戊', new Date(Date.UTC(2018, 2, 15)), 13912345606),
      row('格式己', '2018年3月15日 ', '８６ １３９１２３４５６０７'),
      row('格式庚', ' 2018-03-15 ', '13912345608 '),
    ]);
    const dry = await upload(file, '学生.xlsx', '1');
    expect(dry.body.data).toMatchObject({ total: 7, valid: 7, problems: [] });
    const res = await upload(file, '学生.xlsx', '0');
    expect(res.body.data).toMatchObject({ imported: 7 });
    const { rows } = await t.sql.query(
      `select s.name, to_char(s.birthday, 'YYYY-MM-DD') as birthday, u.mobile from students s
         join student_guardians g on g.student_id = s.id join users u on u.id = g.user_id
        where s.name like '格式%' order by s.name`,
    );
    expect(Object.fromEntries(rows.map((r: { name: string; birthday: string; mobile: string }) => [r.name, [r.birthday, r.mobile]]))).toEqual({
      格式甲: ['2018-03-15', '13912345602'],
      格式乙: ['2017-11-02', '13912345603'],
      格式丙: ['2017-09-22', '13912345604'],
      格式丁: ['2017-09-22', '13912345605'],
      格式戊: ['2018-03-15', '13912345606'],
      格式己: ['2018-03-15', '13912345607'],
      格式庚: ['2018-03-15', '13912345608'],
    });
    // a csv saved from such a sheet reads the same; a mobile that is still wrong is still refused
    const csv = Buffer.from(
      `${STUDENT_IMPORT_COLUMNS.join(',')}\r\n格式辛,女,43174,,,,,,张妈妈,139 1234 5609,母亲,,\r\n格式壬,女,2018/3/1,,,,,,张妈妈,+86 139 1234 560,母亲,,\r\n`,
    );
    const c = await upload(csv, 'x.csv', '1');
    expect(c.body.data).toMatchObject({ total: 2, valid: 1, problems: [{ row: 3, column: '监护人手机', message: '手机号格式不正确' }] });
  });

  it('a wrong role is refused', async () => {
    const file = await xlsx([good('角色')]);
    for (const token of [teacher, adviser, parent]) {
      const before = await snapshot(t.sql);
      expect((await upload(file, 'x.xlsx', '0', token)).body).toMatchObject({ code: Code.Error, msg: FORBIDDEN });
      expect(await snapshot(t.sql)).toEqual(before);
    }
  });

  it('imports into the session school only; another school duplicates do not count', async () => {
    const file = await xlsx([good('陈小雨', '13800000006')]);
    const res = await upload(file, 'x.xlsx', '0', other.adminToken);
    expect(res.body.data).toMatchObject({ imported: 1 });
    const { rows } = await t.sql.query(
      `select s.school_id, u.school_id as parent_school from students s join student_guardians g on g.student_id = s.id join users u on u.id = g.user_id
        where s.school_id = $1`,
      [other.schoolId],
    );
    expect(rows).toEqual([{ school_id: other.schoolId, parent_school: other.schoolId }]);
  });
});

describe('studentExport', () => {
  it('exports the filtered list to xlsx, read back', async () => {
    const res = await t
      .get(`${EXPORT}?format=xlsx&grade=${encodeURIComponent('四年级')}&class_name=${encodeURIComponent('3班')}`, admin)
      .buffer(true)
      .parse(binary);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(XLSX);
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename=".*\.xlsx"; filename\*=UTF-8''%E5%AD%A6%E7%94%9F%E5%90%8D%E5%8D%95-\d{8}\.xlsx$/,
    );
    const rows = await readXlsx(res.body as Buffer);
    expect(rows[0]).toEqual([
      'ID',
      '姓名',
      '性别',
      '出生日期',
      '就读学校',
      '年级',
      '班级',
      '托管班',
      '监护人',
      '过敏信息',
      '需要接送',
      '需要晚餐',
      '辅导类型',
      '状态',
      '登记时间',
    ]);
    expect(rows).toHaveLength(2);
    expect(rows[1].slice(1, 14)).toEqual([
      '赵雨桐',
      '女',
      '2016-12-08',
      '实验小学',
      '四年级',
      '3班',
      '阳光一班',
      // masked by default (the admin's unmasked export: least-access.spec.ts)
      expect.stringMatching(/（母亲）139\*{4}\d{4}$/),
      '',
      '是',
      '是',
      '一对一辅导',
      '在读',
    ]);
    const archived = await t.get(`${EXPORT}?format=csv&status=0`, admin).buffer(true).parse(binary);
    const text = (archived.body as Buffer).toString('utf8');
    expect(text.startsWith('\ufeffID,姓名')).toBe(true);
    expect(text.trim().split('\r\n')).toHaveLength(3);
    expect(text).toContain('已归档');
  });
  it('the registration day and the file name are school-local days (01:30 in Shanghai is 17:30 UTC the day before)', async () => {
    const { rows } = await t.sql.query(`select id from students where school_id = $1 and name = '赵雨桐'`, [t.demo.schoolId]);
    const old = await t.sql.query(`select created_at from students where id = $1`, [rows[0].id]);
    await t.sql.query(`update students set created_at = '2026-11-26T17:30:00Z' where id = $1`, [rows[0].id]);
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
        .get(`${EXPORT}?format=xlsx&grade=${encodeURIComponent('四年级')}&class_name=${encodeURIComponent('3班')}`, admin)
        .buffer(true)
        .parse(binary);
      expect(decodeURIComponent(res.headers['content-disposition'])).toContain('学生名单-20261127.xlsx');
      const sheet = await readXlsx(res.body as Buffer);
      expect(sheet[1][14]).toBe('2026-11-27');
      const csv = await t
        .get(`${EXPORT}?format=csv&grade=${encodeURIComponent('四年级')}&class_name=${encodeURIComponent('3班')}`, admin)
        .buffer(true)
        .parse(binary);
      expect(decodeURIComponent(csv.headers['content-disposition'])).toContain('学生名单-20261127.csv');
      expect((csv.body as Buffer).toString('utf8').trim().endsWith(',2026-11-27')).toBe(true);
    } finally {
      jest.useRealTimers();
      await t.sql.query(`update students set created_at = $2 where id = $1`, [rows[0].id, old.rows[0].created_at]);
    }
  });

  it('bad input answers code 100', async () => {
    for (const q of ['', 'format=doc', 'format=xlsx&status=5', `format=xlsx&keyword=${'x'.repeat(10_000)}`, 'format=xlsx&class_id=abc']) {
      expect((await t.get(`${EXPORT}?${q}`, admin)).body.code).toBe(Code.Error);
    }
  });
  it('a wrong role is refused', async () => {
    for (const token of [teacher, adviser, parent])
      expect((await t.get(`${EXPORT}?format=xlsx`, token)).body).toMatchObject({ code: Code.Error, msg: FORBIDDEN });
  });
  it('another school exports its own students only', async () => {
    const res = await t.get(`${EXPORT}?format=csv`, other.adminToken).buffer(true).parse(binary);
    const lines = (res.body as Buffer).toString('utf8').trim().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('陈小雨');
    expect(lines.join()).not.toContain('赵雨桐');
  });
});
