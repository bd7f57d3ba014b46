import { addDays, itemSlides, parsePages, type LessonPlanStep } from '@wantuo/shared';
import type { ShowcaseContext } from './demo-showcase';
import { demoMoney } from './demo-orders';
import type { DemoTeaching } from './demo-teaching';
import { COURSEWARE_KIND } from '../modules/courseware/courseware-sql';

/** The courseware the demo school bought (titles of the demo catalogue, demo-courseware.ts). */
const BOUGHT = ['三年级数学上册专题精讲', '三年级语文上册同步课堂'];

interface DemoPlan {
  author: 'teacher' | 'zhao';
  class: 'running' | 'tutoring';
  /** the lesson's day: the n-th school day from today (negative: before), or the tutoring class's next session */
  when: number | 'next_tutoring';
  title: string;
  objectives: string;
  steps: LessonPlanStep[];
  /** courseware title, section title, pages as typed ("1-3", "" for all), and whether the section's video is shown too */
  items: Array<{ courseware: string; section: string; pages: string; video?: boolean; note: string }>;
}

const PLANS: DemoPlan[] = [
  {
    author: 'teacher',
    class: 'running',
    when: -3,
    title: '秋天的雨：阅读指导',
    objectives: '读懂课文写了秋天的哪些景物；积累描写颜色和气味的词语；能仿写一句话。',
    steps: [
      { title: '朗读课文', minutes: 10, content: '学生自由朗读，圈出喜欢的词语。' },
      { title: '讲解课件', minutes: 15, content: '结合课件第 2–4 页讲解重点段落。' },
      { title: '仿写练习', minutes: 15, content: '仿照“秋天的雨，有一盒五彩缤纷的颜料”写一句话。' },
    ],
    items: [{ courseware: '三年级语文上册同步课堂', section: '第二单元 秋天的雨', pages: '1-4', note: '重点看第 3 页' }],
  },
  {
    author: 'teacher',
    class: 'running',
    when: 1,
    title: '倍的认识：作业辅导',
    objectives: '理解“几倍”的含义，会解决“求一个数是另一个数的几倍”的问题。',
    steps: [
      { title: '复习导入', minutes: 5, content: '口算 10 题。' },
      { title: '看讲解视频', minutes: 10 },
      { title: '例题精讲', minutes: 15, content: '课件第 3、4 页的两道例题。' },
      { title: '分层练习', minutes: 20, content: '基础题全体完成，拓展题选做。' },
    ],
    items: [
      { courseware: '三年级数学上册专题精讲', section: '倍的认识', pages: '1-3, 5', note: '例题与练习' },
      { courseware: '三年级数学上册专题精讲', section: '万以内的加法和减法', pages: '', video: true, note: '课前复习' },
    ],
  },
  {
    author: 'zhao',
    class: 'tutoring',
    when: 'next_tutoring',
    title: '万以内的加法和减法：小组辅导',
    objectives: '熟练掌握连续进位加法和退位减法，能验算。',
    steps: [
      { title: '错题回顾', minutes: 15, content: '讲评上次作业中的典型错误。' },
      { title: '专项练习', minutes: 30, content: '课件练习页，逐题订正。' },
      { title: '小结', minutes: 15 },
    ],
    items: [{ courseware: '三年级数学上册专题精讲', section: '万以内的加法和减法', pages: '2-5', note: '' }],
  },
];

/**
 * Two courseware of the demo catalogue bought from the balance (as balancePayCourseware charges: a paid balance payment,
 * the ledger's debit, the purchase) and lesson plans built from them: one past and one coming for 阳光一班 by its tutoring
 * teacher, one for the tutoring class's next session by its teacher, each with its first revision. Pages are typed as
 * the editor takes them (parsePages) and the slides counted by the module's rule (itemSlides).
 */
export async function seedDemoLessons(c: ShowcaseContext, teaching: DemoTeaching): Promise<{ coursewares_owned: number; lesson_plans: number }> {
  const { em, schoolId, users } = c;
  const catalogue: Array<{ id: number; title: string; price_fen: number }> = await em.query(
    `select id, title, price_fen::float8 as price_fen from coursewares where school_id is null and status = 1 and title = any($1::text[]) order by id`,
    [BOUGHT],
  );
  for (const [i, cw] of catalogue.entries()) {
    const at = c.at(addDays(c.today, -10 + i), '14:00');
    const description = `购买课件：${cw.title}`.slice(0, 127);
    const outTradeNo = await demoMoney(c, {
      kind: COURSEWARE_KIND,
      method: 'balance',
      prefix: 'C',
      refId: String(cw.id),
      description,
      amountFen: cw.price_fen,
      at,
      key: `courseware:demo-${cw.id}`,
      meta: { courseware_id: cw.id },
    });
    await em.query(
      `insert into courseware_purchases (school_id, courseware_id, price_fen, method, out_trade_no, bought_by, created_at) values ($1, $2, $3, 'balance', $4, $5, $6)`,
      [schoolId, cw.id, cw.price_fen, outTradeNo, users.admin, at],
    );
  }
  if (!catalogue.length) return { coursewares_owned: 0, lesson_plans: 0 };

  const files: Array<{ id: number; courseware: string; section: string; kind: 'pdf' | 'video'; pages: number | null }> = await em.query(
    `select f.id, c.title as courseware, s.title as section, f.kind, f.pages from courseware_files f
       join courseware_sections s on s.id = f.section_id join coursewares c on c.id = s.courseware_id
      where c.id = any($1::int[]) order by f.id`,
    [catalogue.map((x) => x.id)],
  );
  const ahead = c.schoolDays(c.today, addDays(c.today, 14)).filter((d) => d > c.today);
  const behind = c.schoolDays(addDays(c.today, -14), addDays(c.today, -1)).reverse();
  let plans = 0;
  for (const plan of PLANS) {
    const items: Array<{ file_id: number; pages: number[] | null; note: string }> = [];
    let slides = 0;
    for (const it of plan.items) {
      const pdf = files.find((f) => f.courseware === it.courseware && f.section === it.section && f.kind === 'pdf');
      if (!pdf) continue;
      const parsed = parsePages(it.pages, pdf.pages);
      if (!parsed.ok) throw new Error(`demo lesson plan pages "${it.pages}" refused: ${parsed.error}`);
      items.push({ file_id: pdf.id, pages: parsed.pages, note: it.note });
      slides += itemSlides({ kind: 'pdf', pages: parsed.pages, total: pdf.pages });
      const video = it.video && files.find((f) => f.courseware === it.courseware && f.section === it.section && f.kind === 'video');
      if (video) {
        items.push({ file_id: video.id, pages: null, note: '讲解视频' });
        slides += itemSlides({ kind: 'video', pages: null, total: null });
      }
    }
    if (!items.length) continue;
    const day =
      plan.when === 'next_tutoring'
        ? (teaching.upcoming.find((u) => u.kind === 'tutoring' && u.day > c.today)?.day ?? ahead[0])
        : plan.when > 0
          ? ahead[plan.when - 1]
          : behind[-plan.when - 1];
    if (!day) continue;
    const classId = plan.class === 'tutoring' ? teaching.tutoring.id : c.classes.running;
    const author = plan.author === 'zhao' ? users.zhao : users.teacher;
    const savedAt = new Date(Math.min(Date.now(), c.at(addDays(day, -1), '20:30').getTime()));
    const [p]: Array<{ id: number }> = await em.query(
      `insert into lesson_plans (school_id, author_id, title, class_kind, class_id, lesson_date, objectives, steps, items, slides, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6::date, $7, $8::jsonb, $9, $10, $11, $11) returning id`,
      [
        schoolId,
        author,
        plan.title,
        plan.class === 'tutoring' ? 'tutoring' : 'care',
        classId,
        day,
        plan.objectives,
        JSON.stringify(plan.steps),
        items.length,
        slides,
        savedAt,
      ],
    );
    await em.query(
      `insert into lesson_plan_items (plan_id, position, courseware_file_id, pages, note)
       select $1, e.ord - 1, (e.v->>'file_id')::int,
              case when jsonb_typeof(e.v->'pages') = 'array' then array(select jsonb_array_elements_text(e.v->'pages')::int) end, coalesce(e.v->>'note', '')
         from jsonb_array_elements($2::jsonb) with ordinality e(v, ord)`,
      [p.id, JSON.stringify(items)],
    );
    // its first revision, as the module appends one on each save
    await em.query(
      `insert into lesson_plan_revisions (plan_id, version, action, saved_by, saved_at, plan)
       select p.id, p.version, 'create', $2, $3, jsonb_build_object(
                'title', p.title, 'class_kind', p.class_kind, 'class_id', p.class_id, 'lesson_date', p.lesson_date, 'objectives', p.objectives,
                'steps', p.steps, 'items', coalesce((select jsonb_agg(jsonb_build_object('file_id', i.courseware_file_id, 'pages', i.pages, 'note', i.note) order by i.position)
                                                       from lesson_plan_items i where i.plan_id = p.id), '[]'::jsonb))
         from lesson_plans p where p.id = $1`,
      [p.id, author, savedAt],
    );
    plans++;
  }
  return { coursewares_owned: catalogue.length, lesson_plans: plans };
}
