import Card from 'antd-mobile/es/components/card';
import DatePicker from 'antd-mobile/es/components/date-picker';
import ImageViewer from 'antd-mobile/es/components/image-viewer';
import InfiniteScroll from 'antd-mobile/es/components/infinite-scroll';
import List from 'antd-mobile/es/components/list';
import Tag from 'antd-mobile/es/components/tag';
import { addDays, commentText, type DailyReport, type ParentChild } from '@wantuo/shared';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { localTime, useSchoolToday } from '../../lib/school-time';
import { inWechat, userAgent } from '../../lib/wechat-env';
import { givenName, useParentChildren } from '../../areas/parent/children';
import { useChosenChild } from '../../areas/parent/chosen-child';
import { parentStrings } from '../../areas/parent/strings';
import { reportIsEmpty, reportSteps, useDailyReport, useReportDays } from '../../areas/reports/daily-report';
import { reportsStrings } from '../../areas/reports/strings';
import { usePreferences } from '../../stores/preferences';
import { PhonePage, QueryView } from '../ui/page';
import { PhoneEmpty, PhoneError, PhoneLoading } from '../ui/states';
import { PhoneChildSwitcher } from './child-switcher';
import { todayStrings } from './today-strings';
import './today.css';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** YYYY-MM-DD of a date the picker chose (its local calendar day). */
const dayOf = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
const dateOf = (day: string) => {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y, m - 1, d);
};

type ShareCard = { title: string; desc: string; link: string; imgUrl?: string };

/**
 * Inside WeChat: the card a parent forwards from the page's menu (the JS-SDK, loaded only inside WeChat). It names the
 * child by the given name only and says nothing else of the day (no other child, nothing of the school's own); the
 * link is this page.
 */
async function shareInWechat(card: ShareCard): Promise<boolean> {
  if (!inWechat(userAgent())) return false;
  try {
    const { wechatShare } = await import('../wechat/jssdk');
    return await wechatShare(card);
  } catch {
    // the SDK's code did not load (offline): the page's menu shares the plain link
    return false;
  }
}

/** /m/parent_report?student=&day=: a child's day (每日反馈; the 'report.daily' message links here), earlier days below. */
export default function ParentReportPhone() {
  const s = reportsStrings.use();
  const q = useParentChildren();
  return (
    <PhonePage onRefresh={() => q.refetch()}>
      <QueryView query={q} isEmpty={(d) => d.list.length === 0} empty={s('no_children')}>
        {(d) => <ChildReport kids={d.list} />}
      </QueryView>
    </PhonePage>
  );
}

function ChildReport({ kids }: { kids: ParentChild[] }) {
  const s = reportsStrings.use();
  const tt = todayStrings.use();
  const tp = parentStrings.use();
  const [params, setParams] = useSearchParams();
  const today = useSchoolToday();
  const [child, choose] = useChosenChild(kids);
  const asked = kids.find((k) => k.id === Number(params.get('student')));
  // a message's link names the child: that child becomes the chosen one
  useEffect(() => {
    if (asked && asked.id !== child?.id) choose(asked.id);
  }, [asked, child, choose]);
  const current = asked ?? child ?? kids[0];
  const day = DAY.test(params.get('day') ?? '') && params.get('day')! <= today ? params.get('day')! : today;
  const go = (student: number, d: string) => setParams({ student: String(student), day: d }, { replace: true });
  const [picking, setPicking] = useState(false);
  const q = useDailyReport(current.id, day);

  // the share card of the page inside WeChat: the child's given name, a neutral line, this page's address
  const first = givenName(current.name);
  useEffect(() => {
    if (!inWechat(userAgent())) return;
    void shareInWechat({ title: tt('pt.share_title', { name: first }), desc: tt('pt.share_desc'), link: window.location.href });
  }, [first, current.id, day, tt]);

  return (
    <>
      <PhoneChildSwitcher kids={kids} value={current.id} onChange={(id) => (choose(id), go(id, day))} />
      <List className="m-section">
        <List.Item extra={day === today ? `${day}（${tp('parent.today')}）` : day} onClick={() => setPicking(true)} arrowIcon>
          {s('day')}
        </List.Item>
      </List>
      <DatePicker
        visible={picking}
        title={tt('pt.choose_day')}
        value={dateOf(day)}
        min={dateOf(addDays(today, -365))}
        max={dateOf(today)}
        onClose={() => setPicking(false)}
        onConfirm={(d) => go(current.id, dayOf(d))}
      />
      {q.isPending ? <PhoneLoading /> : !q.data ? <PhoneError error={q.error} onRetry={() => void q.refetch()} /> : <ReportView r={q.data} />}
      <History studentId={current.id} day={day} onPick={(d) => go(current.id, d)} />
    </>
  );
}

/** Photos as thumbnails; a tap opens them full screen (swipe between them). */
function Photos({ urls, label, testId }: { urls: string[]; label: string; testId: string }) {
  return (
    <div className="m-photos">
      {urls.map((p, i) => (
        <button
          key={p}
          type="button"
          aria-label={label}
          onClick={() => ImageViewer.Multi.show({ images: urls, defaultIndex: i })}
          data-testid={testId}
        >
          <img src={p} alt="" loading="lazy" />
        </button>
      ))}
    </div>
  );
}

/** One day's report: the timeline, homework with photos, points, the comment. */
function ReportView({ r }: { r: DailyReport }) {
  const s = reportsStrings.use();
  const lang = usePreferences((p) => p.lang);
  return (
    <div data-testid="daily-report">
      <Card className="m-section" title={`${r.student_name} · ${r.day}`} extra={<span className="m-muted">{r.class_name}</span>}>
        {r.on_leave ? (
          <Tag color="warning">{s('on_leave')}</Tag>
        ) : reportIsEmpty(r) ? (
          <div className="m-muted">{s('empty_day')}</div>
        ) : (
          <ol className="m-steps">
            {reportSteps(r).map(({ label, at, by }) => (
              <li key={label}>
                <time>{at ? localTime(at) : '--:--'}</time>
                <span>
                  <span className="m-strong">{s(label)}</span> {!at && <span className="m-muted">{s('not_yet')}</span>}
                  {by && <span className="m-muted"> · {s('by', { name: by })}</span>}
                </span>
              </li>
            ))}
            <li data-testid="report-departure">
              <time>{r.left_at ? localTime(r.left_at) : '--:--'}</time>
              <span>
                <span className="m-strong">{s('left')}</span> {!r.left_at && <span className="m-muted">{s('not_yet')}</span>}
                {r.pickup?.name && <span> {s('pickup_by', { name: `${r.pickup.name}${r.pickup.relation ? `（${r.pickup.relation}）` : ''}` })}</span>}
                {r.pickup && (
                  <Tag color={r.pickup.how === 'verified' ? 'success' : 'warning'} style={{ marginLeft: 4 }}>
                    {s(r.pickup.how)}
                  </Tag>
                )}
                {r.pickup?.override && <div className="m-muted">{s('override', { reason: r.pickup.override })}</div>}
              </span>
            </li>
          </ol>
        )}
      </Card>
      <Card className="m-section" title={s('homework')}>
        {r.homework.length === 0 ? (
          <div className="m-muted">{s('homework_empty')}</div>
        ) : (
          r.homework.map((h) => (
            <div key={h.homework_id} data-testid="report-homework" style={{ marginBottom: 10 }}>
              <span className="m-strong">{h.title}</span>{' '}
              <Tag color={h.state === 'checked' ? 'success' : h.state === 'done' ? 'primary' : 'default'}>{s(`hw.${h.state}`)}</Tag>
              {h.note && <div className="m-sub">{s('teacher_note', { note: h.note })}</div>}
              {h.photos.length > 0 && <Photos urls={h.photos} label={s('photos')} testId="report-homework-photo" />}
            </div>
          ))
        )}
      </Card>
      <Card className="m-section" title={s('points')} extra={<span className="m-strong">{r.points > 0 ? `+${r.points}` : r.points}</span>}>
        {r.points_entries.length === 0 ? (
          <div className="m-muted">{s('points_none')}</div>
        ) : (
          r.points_entries.map((p, i) => (
            <div key={i} className="m-kv">
              <span>{p.reason}</span>
              <span>{p.delta > 0 ? `+${p.delta}` : p.delta}</span>
            </div>
          ))
        )}
      </Card>
      <Card className="m-section" title={s('comment')} data-testid="report-comment">
        {r.comment ? (
          <>
            <p style={{ margin: '0 0 4px', fontSize: 15, lineHeight: 1.6 }}>{commentText(r.comment, lang === 'en' ? 'en' : 'zh')}</p>
            {r.comment.author_name && <div className="m-muted">— {r.comment.author_name}</div>}
            {r.comment.photos.length > 0 && <Photos urls={r.comment.photos} label={s('photos')} testId="report-comment-photo" />}
          </>
        ) : (
          <div className="m-muted">{s('comment_none')}</div>
        )}
      </Card>
    </div>
  );
}

/** The earlier days, paged by the server as the list scrolls; a tap shows that day. */
function History({ studentId, day, onPick }: { studentId: number; day: string; onPick: (day: string) => void }) {
  const s = reportsStrings.use();
  const q = useReportDays(studentId);
  const list = q.data?.pages.flatMap((p) => p.list) ?? [];
  return (
    <div className="m-section">
      <List header={s('history')}>
        {q.isPending ? (
          <PhoneLoading rows={3} />
        ) : q.isError && list.length === 0 ? (
          <PhoneError error={q.error} onRetry={() => void q.refetch()} />
        ) : list.length === 0 ? (
          <PhoneEmpty description={s('history_empty')} />
        ) : (
          list.map((d) => (
            <List.Item
              key={d.day}
              data-testid="report-day"
              onClick={() => onPick(d.day)}
              extra={d.has_comment ? <Tag color="success">{s('has_comment')}</Tag> : null}
              description={
                d.on_leave
                  ? s('on_leave')
                  : d.left_at
                    ? `${s('left')} ${localTime(d.left_at)}`
                    : d.arrived_at
                      ? `${s('arrived')} ${localTime(d.arrived_at)}`
                      : undefined
              }
            >
              <span style={{ fontWeight: d.day === day ? 600 : undefined }}>{d.day}</span>
              {d.points !== 0 && <span className="m-muted"> · {d.points > 0 ? `+${d.points}` : d.points}</span>}
            </List.Item>
          ))
        )}
      </List>
      {list.length > 0 && (
        <InfiniteScroll
          hasMore={Boolean(q.hasNextPage)}
          loadMore={async () => {
            await q.fetchNextPage();
          }}
        />
      )}
    </div>
  );
}
