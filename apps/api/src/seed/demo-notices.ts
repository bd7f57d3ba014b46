import { addDays, smsSendAt } from '@wantuo/shared';
import sanitizeHtml from 'sanitize-html';
import type { ShowcaseContext } from './demo-showcase';
import { plainSummary, PUBLISH_SQL } from '../modules/notices/notices-sql';
import { NOTICE_HTML } from '../modules/notices/publish.service';

interface DemoNotice {
  author: 'admin' | 'adviser' | 'teacher' | 'liu';
  scope: 'school' | 'classes';
  classes?: Array<'running' | 'second'>;
  audience: 'guardians' | 'staff' | 'all';
  important?: boolean;
  title: string;
  content: string;
  /** published this many days ago at `time` */
  daysAgo: number;
  time: string;
  /** about this share (0..10) of the recipients has read it; the demo parent has when `parentRead` */
  readTenths: number;
  parentRead: boolean;
}

const NOTICES: DemoNotice[] = [
  {
    author: 'admin',
    scope: 'school',
    audience: 'all',
    title: '晚托中心冬季作息调整',
    daysAgo: 12,
    time: '09:00',
    readTenths: 9,
    parentRead: true,
    content:
      '<p>各位家长、老师：</p><p>自下周一起，晚托中心<b>冬季作息</b>如下：</p><ul><li>16:00 接孩子入园</li><li>17:30 晚餐</li><li>18:00–19:00 作业辅导</li><li>19:30 前家长接回</li></ul><p>天气转凉，请为孩子备好外套。</p>',
  },
  {
    author: 'adviser',
    scope: 'classes',
    classes: ['running'],
    audience: 'guardians',
    important: true,
    title: '本周五提前至 18:30 放学',
    daysAgo: 5,
    time: '12:10',
    readTenths: 8,
    parentRead: true,
    content: '<p>因中心消防演练，本周五阳光一班提前至 <b>18:30</b> 放学，晚餐照常。请家长合理安排接送时间，如需延时请提前联系张老师。</p>',
  },
  {
    author: 'admin',
    scope: 'school',
    audience: 'staff',
    title: '本月教研会议安排',
    daysAgo: 3,
    time: '10:00',
    readTenths: 6,
    parentRead: false,
    content: '<p>本月教研会议定于周三 14:00 在 101 教室召开，主题：<u>作业辅导的分层策略</u>。请各位老师带上本班近两周的作业情况记录。</p>',
  },
  {
    author: 'teacher',
    scope: 'classes',
    classes: ['running'],
    audience: 'guardians',
    title: '请为孩子准备书法课用品',
    daysAgo: 2,
    time: '16:40',
    readTenths: 5,
    parentRead: false,
    content:
      '<p>参加少儿书法兴趣班的同学，请在本周内准备：</p><ol><li>毛笔（中楷）一支</li><li>墨汁一瓶</li><li>米字格练习纸一刀</li></ol><p>用品也可在中心统一代购。</p>',
  },
  {
    author: 'liu',
    scope: 'classes',
    classes: ['second'],
    audience: 'all',
    title: '阳光二班下周作业辅导安排',
    daysAgo: 1,
    time: '18:20',
    readTenths: 3,
    parentRead: false,
    content: '<p>下周起阳光二班作业辅导分为语文、数学两组，每组由一位老师负责，孩子完成作业后由老师逐题检查。</p>',
  },
];

/**
 * Notices of the last two weeks, published with the notices module's own statement (PUBLISH_SQL: the recipients, the
 * notice and one receipt each) and its sanitising, dated when they were sent: to the whole school, to a class's
 * guardians (one important), to the staff. Part of each notice's recipients has read it (the read count follows the
 * receipts); the demo parent has read the older ones and has two unread.
 */
export async function seedDemoNotices(c: ShowcaseContext): Promise<number> {
  const { em, schoolId } = c;
  const authors = { admin: c.users.admin, adviser: c.users.adviser, teacher: c.users.teacher, liu: c.users.liu };
  for (const [i, n] of NOTICES.entries()) {
    const at = c.at(addDays(c.today, -n.daysAgo), n.time);
    const content = sanitizeHtml(n.content, NOTICE_HTML).trim();
    const classIds = (n.classes ?? []).map((k) => c.classes[k]);
    const [p]: Array<{ id: number | null }> = await em.query(PUBLISH_SQL, [
      schoolId,
      n.scope,
      classIds,
      n.audience,
      authors[n.author],
      n.title,
      content,
      plainSummary(content),
      '[]',
      !!n.important,
      smsSendAt(at, c.timezone),
      `demo:notice:${i + 1}`,
      at,
    ]);
    if (!p.id) continue;
    // the reads: a share of the recipients within a day of the notice, the demo parent as said
    await em.query(
      `with r as (
         update notice_receipts r set read_at = least(now(), $2::timestamptz + make_interval(mins => 20 + ((r.user_id * 37) % 600)))
          where r.notice_id = $1 and (case when r.user_id = $3 then $4 else ((r.user_id * 7919 + $5 * 104729) % 10) < $6 end)
          returning 1)
       update notices set read_count = (select count(*) from r) where id = $1`,
      [p.id, at, c.users.parent, n.parentRead, i + 1, n.readTenths],
    );
  }
  return NOTICES.length;
}
