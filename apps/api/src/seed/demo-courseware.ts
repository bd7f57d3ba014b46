import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import PDFDocument from 'pdfkit';
import type { DataSource } from 'typeorm';
import { storeCoursewareBytes } from '../modules/courseware/courseware-files.service';

/** The CJK font the seed renders Chinese with (fonts-wqy-zenhei, installed where Chromium runs); Latin text without it. */
export const CJK_FONT = '/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc';
const CJK_FACE = 'WenQuanYiZenHei';
/** Part of the PDF cache's key: change it when renderSectionPdf draws something else. */
const PDF_CACHE_VERSION = 1;

interface DemoCourseware {
  title: string;
  subject: string;
  discipline: string;
  grade: string;
  term: string;
  tixi: string;
  edition: string;
  priceFen: number;
  description: string;
  sections: string[];
}

/** The demo catalogue: a realistic spread of subjects, grades and editions. */
export const DEMO_COURSEWARE: DemoCourseware[] = [
  {
    title: '三年级语文上册同步课堂',
    subject: '语文',
    discipline: '小学',
    grade: '三年级',
    term: '上学期',
    tixi: '同步课堂',
    edition: '部编版',
    priceFen: 19_900,
    description: '紧扣部编版三年级上册课文，每课含生字词、课文理解与课堂练习，适合晚托时段的作业辅导。',
    sections: ['第一单元 大青树下的小学', '第二单元 秋天的雨'],
  },
  {
    title: '三年级数学上册专题精讲',
    subject: '数学',
    discipline: '小学',
    grade: '三年级',
    term: '上学期',
    tixi: '专题精讲',
    edition: '人教版',
    priceFen: 29_900,
    description: '万以内的加法和减法、测量、倍的认识：专题讲解、例题与分层练习。',
    sections: ['万以内的加法和减法', '倍的认识', '长方形和正方形'],
  },
  {
    title: '四年级英语下册同步课堂',
    subject: '英语',
    discipline: '小学',
    grade: '四年级',
    term: '下学期',
    tixi: '同步课堂',
    edition: '人教版',
    priceFen: 15_900,
    description: '单词、句型与情景对话，配套听说练习。',
    sections: ['Unit 1 My school', 'Unit 2 What time is it?'],
  },
  {
    title: '五年级数学思维拓展',
    subject: '数学',
    discipline: '小学',
    grade: '五年级',
    term: '上学期',
    tixi: '思维拓展',
    edition: '北师大版',
    priceFen: 39_900,
    description: '小数乘除法、多边形面积中的思维训练题，培养推理与建模能力。',
    sections: ['小数的巧算', '多边形的面积'],
  },
  {
    title: '六年级语文阅读与写作',
    subject: '语文',
    discipline: '小学',
    grade: '六年级',
    term: '下学期',
    tixi: '阅读与写作',
    edition: '部编版',
    priceFen: 25_900,
    description: '现代文阅读方法与习作指导，每讲附范文与评改要点。',
    sections: ['记叙文阅读方法', '习作：家乡的风俗'],
  },
  {
    title: '二年级数学课后托管练习',
    subject: '数学',
    discipline: '小学',
    grade: '二年级',
    term: '上学期',
    tixi: '课后托管练习',
    edition: '苏教版',
    priceFen: 9_900,
    description: '100 以内加减法与乘法口诀的每日练习，老师可直接打印使用。',
    sections: ['100 以内的加法和减法', '表内乘法'],
  },
  {
    title: '一年级语文拼音启蒙',
    subject: '语文',
    discipline: '小学',
    grade: '一年级',
    term: '上学期',
    tixi: '同步课堂',
    edition: '部编版',
    priceFen: 12_900,
    description: '汉语拼音声母、韵母与整体认读音节，配儿歌与认读卡。',
    sections: ['声母', '韵母'],
  },
  {
    title: '五年级科学探究实验',
    subject: '科学',
    discipline: '小学',
    grade: '五年级',
    term: '下学期',
    tixi: '专题精讲',
    edition: '苏教版',
    priceFen: 17_900,
    description: '沉浮、热传递与生物与环境的探究实验设计与记录单。',
    sections: ['沉与浮', '热传递'],
  },
  {
    title: '七年级数学上册同步课堂',
    subject: '数学',
    discipline: '初中',
    grade: '七年级',
    term: '上学期',
    tixi: '同步课堂',
    edition: '人教版',
    priceFen: 34_900,
    description: '有理数、整式的加减、一元一次方程：知识梳理、例题精讲与课后巩固。',
    sections: ['有理数', '整式的加减', '一元一次方程'],
  },
  {
    title: '八年级物理专题精讲',
    subject: '物理',
    discipline: '初中',
    grade: '八年级',
    term: '上学期',
    tixi: '专题精讲',
    edition: '人教版',
    priceFen: 36_900,
    description: '机械运动、声现象与光现象的专题讲解与实验题训练。',
    sections: ['机械运动', '光现象'],
  },
  {
    title: '八年级英语下册同步课堂',
    subject: '英语',
    discipline: '初中',
    grade: '八年级',
    term: '下学期',
    tixi: '同步课堂',
    edition: '外研版',
    priceFen: 22_900,
    description: '词汇、语法与阅读理解，按模块同步。',
    sections: ['Module 1 Feelings and impressions', 'Module 2 Experiences'],
  },
  {
    title: '九年级化学寒假专题',
    subject: '化学',
    discipline: '初中',
    grade: '九年级',
    term: '寒假',
    tixi: '专题精讲',
    edition: '人教版',
    priceFen: 28_900,
    description: '寒假托管用：化学方程式、溶液与酸碱盐的专题复习。',
    sections: ['化学方程式', '酸和碱'],
  },
];

/** Exercises written into each lesson's PDF (readable text, several pages). */
const PAGES = ['教学目标', '知识讲解', '课堂练习', '课后托管作业'];

/** A real PDF of one section: a cover, then a page for each part, Chinese with the CJK font (Latin without it). */
export function renderSectionPdf(course: DemoCourseware, section: string, font: Buffer | null): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', margin: 56, info: { Title: `${course.title} ${section}`, Author: '晚托管理平台' } });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    const zh = (text: string, latin: string) => (font ? text : latin);
    if (font) {
      doc.registerFont('cjk', font, CJK_FACE);
      doc.font('cjk');
    } else {
      doc.font('Helvetica');
    }
    doc.fontSize(26).text(zh(course.title, 'Courseware'), { align: 'center' });
    doc.moveDown();
    doc.fontSize(18).text(zh(section, 'Section'), { align: 'center' });
    doc.moveDown(2);
    doc
      .fontSize(12)
      .text(
        zh(
          `${course.discipline} · ${course.grade} · ${course.term} · ${course.subject} · ${course.edition} · ${course.tixi}`,
          'Demo courseware of the after-school platform',
        ),
        { align: 'center' },
      );
    doc.moveDown();
    doc.text(zh(course.description, 'Generated at seed time.'), { align: 'left' });
    PAGES.forEach((part, i) => {
      doc.addPage();
      doc.fontSize(20).text(zh(`${i + 1}. ${part}`, `${i + 1}. Part ${i + 1}`));
      doc.moveDown();
      doc.fontSize(12);
      for (let n = 1; n <= 8; n++) {
        doc.text(
          zh(
            `（${n}）${section}：${part}第 ${n} 条。请学生先独立完成，再与同桌交流思路；老师在晚托时段巡视，记录共性问题并在下一节课集中讲解。`,
            `(${n}) Item ${n} of part ${i + 1}: students work on their own first, then compare with a partner.`,
          ),
        );
        doc.moveDown(0.5);
      }
      doc.fontSize(9).text(zh(`第 ${i + 2} 页`, `Page ${i + 2}`), 56, 760, { width: 483, align: 'center', lineBreak: false });
    });
    doc.end();
  });
}

/**
 * The demo catalogue, once per database (site_settings 'seed.courseware'): the courseware above with their sections,
 * each section a real PDF generated here (five pages), the first section of each also a video link. Stored privately
 * like any courseware file. Needs the operator account of the demo (seedDemo).
 */
export async function seedDemoCourseware(db: DataSource, uploadDir: string): Promise<number> {
  const [op]: Array<{ id: number }> = await db.query(`select id from users where username = 'operator'`);
  if (!op) return 0;
  const inserted: unknown[] = await db.query(
    `insert into site_settings (key, value) values ('seed.courseware', jsonb_build_object('at', now())) on conflict (key) do nothing returning key`,
  );
  if (!inserted.length) return 0;
  const font = existsSync(CJK_FONT) ? readFileSync(CJK_FONT) : null;
  // the rendered PDFs are the same for every demo database: kept in the machine's temp folder, rendered once per
  // machine (each demo start, every browser test's stack included, rendered 26 of them: about 2.5 s)
  const cacheDir = join(tmpdir(), 'wantuo-demo-pdfs');
  const render = async (course: DemoCourseware, section: string): Promise<Buffer> => {
    const key = createHash('sha256')
      .update(JSON.stringify([PDF_CACHE_VERSION, course.title, course.subject, course.grade, section, font ? 'cjk' : 'latin']))
      .digest('hex')
      .slice(0, 32);
    const cached = join(cacheDir, `${key}.pdf`);
    if (existsSync(cached)) return readFileSync(cached);
    const pdf = await renderSectionPdf(course, section, font);
    mkdirSync(cacheDir, { recursive: true });
    const tmp = `${cached}.${process.pid}.tmp`;
    writeFileSync(tmp, pdf);
    renameSync(tmp, cached);
    return pdf;
  };
  const dicts: Array<{ kind: string; name: string; id: number }> = await db.query(`select kind, name, id from courseware_dicts`);
  const dict = (kind: string, name: string) => dicts.find((d) => d.kind === kind && d.name === name)?.id ?? null;
  for (const course of DEMO_COURSEWARE) {
    const files = [];
    for (const section of course.sections) {
      const pdf = await render(course, section);
      files.push(
        await storeCoursewareBytes(db, uploadDir, {
          buf: pdf,
          name: `${section}.pdf`,
          mime: 'application/pdf',
          ext: 'pdf',
          schoolId: null,
          userId: op.id,
        }),
      );
    }
    const [c]: Array<{ id: number }> = await db.query(
      `insert into coursewares (title, subject_id, discipline_id, grade_id, term_id, tixi_id, edition_id, description, price_fen, created_by)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning id`,
      [
        course.title,
        dict('subject', course.subject),
        dict('discipline', course.discipline),
        dict('grade', course.grade),
        dict('term', course.term),
        dict('tixi', course.tixi),
        dict('edition', course.edition),
        course.description,
        course.priceFen,
        op.id,
      ],
    );
    const sections: Array<{ id: number }> = await db.query(
      `insert into courseware_sections (courseware_id, title, sort, created_by)
       select $1, u.title, u.ord * 10, $3 from unnest($2::text[]) with ordinality as u(title, ord) order by u.ord returning id`,
      [c.id, course.sections, op.id],
    );
    const ids = sections.map((s) => s.id).sort((a, b) => a - b);
    await db.query(
      `insert into courseware_files (section_id, kind, file_id, name, pages, sort)
       select s, 'pdf', f, n, p, 10 from unnest($1::int[], $2::uuid[], $3::text[], $4::int[]) as u(s, f, n, p)`,
      [ids, files.map((f) => f.id), files.map((f) => f.name), files.map((f) => f.pages)],
    );
    await db.query(`insert into courseware_files (section_id, kind, video_url, name, sort) values ($1, 'video', $2, $3, 20)`, [
      ids[0],
      'https://www.example.com/video/courseware-demo.mp4',
      `${course.sections[0]}（讲解视频）`,
    ]);
  }
  return DEMO_COURSEWARE.length;
}
