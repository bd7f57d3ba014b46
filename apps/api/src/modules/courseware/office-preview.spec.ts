import { Code, OFFICE_PREVIEW_LIMITS } from '@wantuo/shared';
import { Workbook } from 'exceljs';
import JSZip from 'jszip';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestApp, type TestApp } from '../../../test/harness';

let t: TestApp;
let admin: string;
let teacher: string;
let parent: string;
let operator: string;
let other: { schoolId: number; adminToken: string };

const W =
  'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** A real minimal .docx: a heading, a paragraph whose text is a script tag, and a javascript: hyperlink. */
async function docx(): Promise<Buffer> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
  );
  zip.file(
    '_rels/.rels',
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="word/document.xml"/></Relationships>`,
  );
  zip.file(
    'word/_rels/document.xml.rels',
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId9" Type="${REL}/hyperlink" Target="javascript:alert(1)" TargetMode="External"/></Relationships>`,
  );
  zip.file(
    'word/document.xml',
    `<?xml version="1.0" encoding="UTF-8"?><w:document ${W}><w:body>
      <w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>春游安排</w:t></w:r></w:p>
      <w:p><w:r><w:t>周五上午九点在校门口集合</w:t></w:r></w:p>
      <w:p><w:r><w:t>&lt;script&gt;alert(1)&lt;/script&gt;</w:t></w:r></w:p>
      <w:p><w:hyperlink r:id="rId9"><w:r><w:t>点我</w:t></w:r></w:hyperlink></w:p>
    </w:body></w:document>`,
  );
  // a part of its own per file: two files made in the same second would be the same bytes, and so share one cached
  // conversion (the cache test below rewrites its entry)
  zip.file('docProps/nonce.xml', `<?xml version="1.0" encoding="UTF-8"?><nonce>${randomUUID()}</nonce>`);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/** A real .xlsx of two sheets, the first larger than the preview shows. */
async function xlsx(): Promise<Buffer> {
  const wb = new Workbook();
  const big = wb.addWorksheet('成绩');
  for (let r = 1; r <= 250; r++) big.addRow(Array.from({ length: 35 }, (_, c) => (r === 1 && c === 0 ? '姓名' : `r${r}c${c + 1}`)));
  wb.addWorksheet('说明').addRow(['本表仅供教研']);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const slide = (title: string, text: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><p:sld xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"><p:cSld><p:spTree>
    <p:sp><p:nvSpPr><p:cNvPr id="2" name="Title"/><p:cNvSpPr/><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr><p:txBody><a:p><a:r><a:t>${title}</a:t></a:r></a:p></p:txBody></p:sp>
    <p:sp><p:nvSpPr><p:cNvPr id="3" name="Body"/><p:cNvSpPr/><p:nvPr><p:ph idx="1"/></p:nvPr></p:nvSpPr><p:txBody><a:p><a:r><a:t>${text}</a:t></a:r><a:r><a:t>（续）</a:t></a:r></a:p></p:txBody></p:sp>
  </p:spTree></p:cSld></p:sld>`;

/** A minimal .pptx of two slides (slide 10 after slide 2: ordered by number, not by name). */
async function pptx(): Promise<Buffer> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`,
  );
  zip.file('ppt/slides/slide10.xml', slide('课堂小结', '今天学了分数'));
  zip.file('ppt/slides/slide2.xml', slide('认识分数', '把一个整体平均分'));
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

const upload = async (token: string, buf: Buffer, filename: string, action = 'upload') => {
  const res = await t.post(`/api/index/${action}`, token).attach('file', buf, { filename });
  expect(res.body).toMatchObject({ code: Code.Ok });
  return res.body.data.id as string;
};
const preview = async (token: string, id: string) => (await t.get(`/api/index/preview?id=${id}`, token)).body;
const cacheDir = () => join(t.config.uploadDir, '.preview');
const cached = () => (existsSync(cacheDir()) ? readdirSync(cacheDir()) : []);

beforeAll(async () => {
  t = await startTestApp({ runJobs: false, redis: false, listen: true });
  admin = await t.login('admin');
  teacher = await t.login('teacher');
  parent = await t.login('parent');
  operator = await t.login('operator');
  other = await t.otherSchool();
}, 120_000);
afterAll(() => t.close());

describe('preview of office files', () => {
  it('a .docx is sanitised HTML: its text, no script, no javascript: link; cached by hash, so a second opening reads the cache', async () => {
    const id = await upload(teacher, await docx(), '春游通知.docx');
    const body = await preview(parent, id);
    expect(body).toMatchObject({ code: Code.Ok, data: { id, kind: 'html', pages: 1, truncated: false, name: '春游通知.docx' } });
    const html: string = body.data.html;
    expect(html).toContain('<h1>春游安排</h1>');
    expect(html).toContain('周五上午九点在校门口集合');
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('&lt;script&gt;'); // the text stays text
    expect(html).not.toMatch(/javascript:/i);
    expect(html).toContain('点我');
    // the conversion is cached beside the other previews, by the file's hash: the second answer is the cache's
    const [entry] = cached();
    expect(entry).toMatch(/^v1-[0-9a-f]{64}\.json$/);
    const path = join(cacheDir(), entry);
    writeFileSync(path, JSON.stringify({ ...JSON.parse(readFileSync(path, 'utf8')), html: '<p>from the cache</p>' }));
    expect((await preview(teacher, id)).data).toMatchObject({ kind: 'html', html: '<p>from the cache</p>' });
    // another school's upload is simply not found
    expect(await preview(other.adminToken, id)).toMatchObject({ code: Code.Error, msg: '未找到该文件' });
  });

  it('a .xlsx is its first sheets as tables, cut at the limits (and says so)', async () => {
    const id = await upload(teacher, await xlsx(), '成绩.xlsx');
    const { code, data } = await preview(teacher, id);
    expect(code).toBe(Code.Ok);
    expect(data).toMatchObject({ kind: 'html', pages: 2, truncated: true });
    expect(data.html).toContain('<h3>成绩</h3>');
    expect(data.html).toContain('<td>姓名</td>');
    expect(data.html).toContain('<td>本表仅供教研</td>');
    expect(data.html).toContain(`<td>r${OFFICE_PREVIEW_LIMITS.rows}c${OFFICE_PREVIEW_LIMITS.columns}</td>`);
    expect(data.html).not.toContain(`r${OFFICE_PREVIEW_LIMITS.rows + 1}c1<`);
    expect(data.html).not.toContain(`c${OFFICE_PREVIEW_LIMITS.columns + 1}<`);
    expect(data.html.match(/<tr>/g)).toHaveLength(OFFICE_PREVIEW_LIMITS.rows + 1);
  });

  it('a .pptx is each slide’s title and text, in slide order', async () => {
    const id = await upload(teacher, await pptx(), '分数.pptx');
    const { code, data } = await preview(admin, id);
    expect(code).toBe(Code.Ok);
    expect(data).toMatchObject({ kind: 'html', pages: 2, truncated: false });
    expect(data.html).toContain('<h3>1. 认识分数</h3><p>把一个整体平均分（续）</p>');
    expect(data.html.indexOf('认识分数')).toBeLessThan(data.html.indexOf('课堂小结'));
    expect(data.html).toContain('<h3>2. 课堂小结</h3>');
  });

  it('a courseware .docx: only for schools that bought it (and its staff), the operator always', async () => {
    const id = await upload(operator, await docx(), '讲义.docx', 'coursewareUpload');
    const subject = (await t.get('/api/index/subjectList', operator)).body.data[0].id;
    const pub = await t.post('/api/index/publishCourseware', operator).send({
      title: '春游安全课',
      subject_id: subject,
      price_fen: 1_000,
      description: '安全',
      sections: [{ title: '第一讲', files: [{ file_id: id, name: '讲义' }] }],
    });
    expect(pub.body.code).toBe(Code.Ok);
    expect((await preview(operator, id)).data).toMatchObject({ kind: 'html', pages: 1 });
    // not bought: not found, as another school's would be; a parent never opens courseware
    expect(await preview(admin, id)).toMatchObject({ code: Code.Error, msg: '未找到该文件' });
    expect(await preview(other.adminToken, id)).toMatchObject({ code: Code.Error, msg: '未找到该文件' });
    expect(await preview(parent, id)).toMatchObject({ code: Code.Error, msg: '未找到该文件' });
    expect((await t.get(`/api/index/preview?id=${id}`)).body.code).toBe(Code.Untoken);
    // once the school bought it, its staff preview it (the parent still does not)
    expect((await t.post('/api/index/setDealPwd', admin).send({ deal_pwd: '135790', password: 'Demo@2026' })).body.code).toBe(Code.Ok);
    await t.sql.query(
      `with s as (update schools set balance_fen = balance_fen + 1000 where id = $1 returning balance_fen)
       insert into ledger_entries (school_id, type, amount_fen, balance_after_fen, ref_kind, idempotency_key)
       select $1, 'adjustment', 1000, s.balance_fen, 'test', 'test:office-preview' from s`,
      [t.demo.schoolId],
    );
    const buy = await t
      .post('/api/index/balancePayCourseware', admin)
      .send({ id: pub.body.data.id, deal_pwd: '135790', request_id: 'office-preview-buy' });
    expect(buy.body.code).toBe(Code.Ok);
    expect((await preview(teacher, id)).data).toMatchObject({ kind: 'html', pages: 1 });
    expect((await preview(teacher, id)).data.html).toContain('春游安排');
    expect((await preview(admin, id)).data.expires_at).toEqual(expect.any(String));
    expect(await preview(parent, id)).toMatchObject({ code: Code.Error, msg: '未找到该文件' });
  });

  it('a damaged office file is refused with code 100 (nothing cached); the legacy binary formats are not previewed', async () => {
    const before = cached();
    const broken = await upload(teacher, Buffer.from('PK\x03\x04rest'), '坏.docx');
    expect(await preview(teacher, broken)).toMatchObject({ code: Code.Error, msg: '文件已损坏或格式不正确，无法预览' });
    // a readable zip that is no workbook / no presentation / no document
    const zip = await new JSZip().file('a.txt', 'hello').generateAsync({ type: 'nodebuffer' });
    for (const name of ['空.docx', '空.xlsx', '空.pptx']) {
      expect(await preview(teacher, await upload(teacher, zip, name))).toMatchObject({ code: Code.Error, msg: '文件已损坏或格式不正确，无法预览' });
    }
    expect(cached()).toEqual(before);
    const ole = Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(512)]);
    expect(await preview(teacher, await upload(teacher, ole, '旧.doc'))).toMatchObject({
      code: Code.Error,
      msg: '旧版 Office 格式（.doc）不支持在线预览，请下载后查看',
    });
    const en = await t.get(`/api/index/preview?id=${await upload(teacher, ole, 'old.xls')}`, teacher).set('lang', 'en');
    expect(en.body).toMatchObject({ code: Code.Error, msg: 'The old Office format (.xls) cannot be previewed: download it' });
  });
});
