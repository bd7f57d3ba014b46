import { Button, Card, DatePicker, Flex, Image, List, Space, Tag, Timeline, Typography } from 'antd';
import { commentText, type DailyReport, type ParentChild } from '@wantuo/shared';
import dayjs from 'dayjs';
import { useSearchParams } from 'react-router';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { localTime, useSchoolToday } from '../../lib/school-time';
import { usePreferences } from '../../stores/preferences';
import { reportIsEmpty, reportSteps, useDailyReport, useReportDays } from './daily-report';
import { reportsStrings } from './strings';
import { ChildSwitcher, ParentChildren } from '../parent/children-gate';

/** /parent_report?student=&day=: a child's day on one page (the 'report.daily' message links here), earlier days below. */
export default function ParentReport() {
  const s = reportsStrings.use();
  return (
    <Flex vertical gap={12} style={{ maxWidth: 640, margin: '0 auto', width: '100%' }}>
      <ParentChildren empty={s('no_children')}>{(kids) => <ChildReport kids={kids} />}</ParentChildren>
    </Flex>
  );
}

function ChildReport({ kids }: { kids: ParentChild[] }) {
  const s = reportsStrings.use();
  const [params, setParams] = useSearchParams();
  const today = useSchoolToday();
  const asked = Number(params.get('student'));
  const current = kids.some((k) => k.id === asked) ? asked : kids[0].id;
  const day = /^\d{4}-\d{2}-\d{2}$/.test(params.get('day') ?? '') ? params.get('day')! : today;
  const go = (student: number, d: string) => setParams({ student: String(student), day: d }, { replace: true });
  const q = useDailyReport(current, day);
  return (
    <>
      <ChildSwitcher kids={kids} value={current} onChange={(id) => go(id, day)} />
      <DatePicker
        aria-label={s('day')}
        value={dayjs(day)}
        allowClear={false}
        inputReadOnly
        onChange={(d) => d && go(current, d.format('YYYY-MM-DD'))}
        style={{ width: '100%' }}
      />
      {q.isLoading ? <Loading /> : q.isError || !q.data ? <LoadError onRetry={() => void q.refetch()} /> : <ReportView r={q.data} />}
      <History studentId={current} day={day} onPick={(d) => go(current, d)} />
    </>
  );
}

/** One day's report: the timeline, homework with photos, points, the comment. */
export function ReportView({ r }: { r: DailyReport }) {
  const s = reportsStrings.use();
  const lang = usePreferences((p) => p.lang);
  const empty = reportIsEmpty(r);
  return (
    <Flex vertical gap={12} data-testid="daily-report">
      <Card size="small" title={`${r.student_name} · ${r.day}`} extra={r.class_name}>
        {r.on_leave ? (
          <Tag color="orange">{s('on_leave')}</Tag>
        ) : empty ? (
          <EmptyState description={s('empty_day')} />
        ) : (
          <Timeline
            items={[
              ...reportSteps(r).map(({ label, at, by }) => ({
                color: at ? 'green' : 'gray',
                children: (
                  <Space size={6} wrap>
                    <Typography.Text strong>{s(label)}</Typography.Text>
                    <Typography.Text>{at ? localTime(at) : s('not_yet')}</Typography.Text>
                    {by && <Typography.Text type="secondary">{s('by', { name: by })}</Typography.Text>}
                  </Space>
                ),
              })),
              {
                color: r.left_at ? 'green' : 'gray',
                children: (
                  <Space size={6} wrap data-testid="report-departure">
                    <Typography.Text strong>{s('left')}</Typography.Text>
                    <Typography.Text>{r.left_at ? localTime(r.left_at) : s('not_yet')}</Typography.Text>
                    {r.pickup?.name && (
                      <Typography.Text>
                        {s('pickup_by', { name: `${r.pickup.name}${r.pickup.relation ? `（${r.pickup.relation}）` : ''}` })}
                      </Typography.Text>
                    )}
                    {r.pickup && <Tag color={r.pickup.how === 'verified' ? 'green' : 'orange'}>{s(r.pickup.how)}</Tag>}
                    {r.pickup?.override && <Typography.Text type="secondary">{s('override', { reason: r.pickup.override })}</Typography.Text>}
                  </Space>
                ),
              },
            ]}
          />
        )}
      </Card>
      <Card size="small" title={s('homework')}>
        {r.homework.length === 0 ? (
          <Typography.Text type="secondary">{s('homework_empty')}</Typography.Text>
        ) : (
          <Flex vertical gap={10}>
            {r.homework.map((h) => (
              <div key={h.homework_id} data-testid="report-homework">
                <Space size={6} wrap>
                  <Typography.Text strong>{h.title}</Typography.Text>
                  <Tag color={h.state === 'checked' ? 'green' : h.state === 'done' ? 'blue' : 'default'}>{s(`hw.${h.state}`)}</Tag>
                </Space>
                {h.note && <div>{s('teacher_note', { note: h.note })}</div>}
                {h.photos.length > 0 && (
                  <Image.PreviewGroup>
                    <Flex gap={6} wrap style={{ marginTop: 6 }}>
                      {h.photos.map((p) => (
                        <Image
                          key={p}
                          src={p}
                          width={72}
                          height={72}
                          style={{ objectFit: 'cover', borderRadius: 4 }}
                          data-testid="report-homework-photo"
                        />
                      ))}
                    </Flex>
                  </Image.PreviewGroup>
                )}
              </div>
            ))}
          </Flex>
        )}
      </Card>
      <Card size="small" title={s('points')} extra={<Typography.Text strong>{r.points > 0 ? `+${r.points}` : r.points}</Typography.Text>}>
        {r.points_entries.length === 0 ? (
          <Typography.Text type="secondary">{s('points_none')}</Typography.Text>
        ) : (
          r.points_entries.map((p, i) => (
            <div key={i}>
              {p.delta > 0 ? `+${p.delta}` : p.delta} {p.reason}
            </div>
          ))
        )}
      </Card>
      <Card size="small" title={s('comment')} data-testid="report-comment">
        {r.comment ? (
          <>
            <Typography.Paragraph style={{ marginBottom: 4 }}>{commentText(r.comment, lang === 'en' ? 'en' : 'zh')}</Typography.Paragraph>
            {r.comment.author_name && <Typography.Text type="secondary">— {r.comment.author_name}</Typography.Text>}
            {r.comment.photos.length > 0 && (
              <Image.PreviewGroup>
                <Flex gap={6} wrap style={{ marginTop: 6 }}>
                  {r.comment.photos.map((p) => (
                    <Image
                      key={p}
                      src={p}
                      width={72}
                      height={72}
                      style={{ objectFit: 'cover', borderRadius: 4 }}
                      alt={s('photos')}
                      data-testid="report-comment-photo"
                    />
                  ))}
                </Flex>
              </Image.PreviewGroup>
            )}
          </>
        ) : (
          <Typography.Text type="secondary">{s('comment_none')}</Typography.Text>
        )}
      </Card>
    </Flex>
  );
}

function History({ studentId, day, onPick }: { studentId: number; day: string; onPick: (day: string) => void }) {
  const s = reportsStrings.use();
  const q = useReportDays(studentId);
  const list = q.data?.pages.flatMap((p) => p.list) ?? [];
  return (
    <Card size="small" title={s('history')}>
      {q.isLoading ? (
        <Loading />
      ) : q.isError ? (
        <LoadError onRetry={() => void q.refetch()} />
      ) : list.length === 0 ? (
        <EmptyState description={s('history_empty')} />
      ) : (
        <>
          <List
            size="small"
            dataSource={list}
            renderItem={(d) => (
              <List.Item
                onClick={() => onPick(d.day)}
                style={{ cursor: 'pointer', fontWeight: d.day === day ? 600 : undefined }}
                data-testid="report-day"
                extra={d.has_comment ? <Tag color="green">{s('has_comment')}</Tag> : null}
              >
                <Space size={8} wrap>
                  <span>{d.day}</span>
                  {d.on_leave ? <Tag>{s('on_leave')}</Tag> : <span>{d.left_at ? `${s('left')} ${localTime(d.left_at)}` : ''}</span>}
                  {d.points !== 0 && <span>{d.points > 0 ? `+${d.points}` : d.points}</span>}
                </Space>
              </List.Item>
            )}
          />
          {q.hasNextPage && (
            <Button block onClick={() => void q.fetchNextPage()} loading={q.isFetchingNextPage}>
              {s('more')}
            </Button>
          )}
        </>
      )}
    </Card>
  );
}
