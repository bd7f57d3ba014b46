import { useQuery } from '@tanstack/react-query';
import { Card, Segmented, Space, Typography } from 'antd';
import { GROWTH_PERIODS, periodLabel, type GrowthGroup, type ParentExamScore, type TeacherStudentGrowthAnswer } from '@wantuo/shared';
import { useMemo, useState } from 'react';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { EChart, type ChartOption } from '../data/echart';
import { growthStrings } from './growth-strings';

const COLOR = { mine: '#1677ff', average: '#bfbfbf', present: '#52c41a', on_leave: '#fa8c16', absent: '#ff4d4f' } as const;
const NO_SCORES: ParentExamScore[] = [];
const NO_DAYS: TeacherStudentGrowthAnswer['attendance'] = [];
const pct = (v: number | null, full: number) => (v === null ? null : Math.round((v / full) * 1000) / 10);

/**
 * A student's growth over time on the teacher's student drawer (teacherStudentGrowth): a line of the published exam
 * scores (percent of each exam's full mark, beside the class average) and bars of attendance per week or month.
 * Loaded lazily with the chart code (ECharts, tree-shaken in data/echart.tsx) only when a drawer opens; sized for 375 px.
 */
export default function GrowthCharts({ studentId }: { studentId: number }) {
  const s = growthStrings.use();
  const [group, setGroup] = useState<GrowthGroup>('month');
  // the comments are listed by CommentList; one comment is enough here
  const q = useQuery({
    queryKey: queryKey('teacherStudentGrowth', { student_id: studentId, group, page: 1, limit: 1 }),
    queryFn: () => get('teacherStudentGrowth', { student_id: studentId, group, page: 1, limit: 1 }),
  });

  const scores = q.data?.scores ?? NO_SCORES;
  const attendance = q.data?.attendance ?? NO_DAYS;
  const scoreOption = useMemo(() => scoreChart(scores, s), [scores, s]);
  const attOption = useMemo(() => attendanceChart(attendance, q.data?.group ?? group, s), [attendance, q.data?.group, group, s]);
  const totals = attendance.reduce((t, a) => ({ present: t.present + a.present, absent: t.absent + a.absent, on_leave: t.on_leave + a.on_leave }), {
    present: 0,
    absent: 0,
    on_leave: 0,
  });
  const latest = scores.at(-1);

  return (
    <Card size="small" title={s('title')} style={{ marginTop: 16 }} styles={{ body: { padding: 12 } }} data-testid="growth-charts">
      {q.isLoading ? (
        <Loading />
      ) : q.isError ? (
        <LoadError onRetry={() => q.refetch()} />
      ) : (
        <Space orientation="vertical" size={16} style={{ width: '100%' }}>
          <section>
            <Typography.Text strong>{s('scores.title')}</Typography.Text>
            {scores.length === 0 ? (
              <EmptyState description={s('scores.empty')} />
            ) : (
              <>
                <EChart option={scoreOption} label={s('scores.title')} height={240} />
                {latest && (
                  <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginBottom: 0 }}>
                    {s('scores.latest', { name: latest.name, subject: latest.subject, day: latest.exam_day, result: resultText(latest, s) })}
                  </Typography.Paragraph>
                )}
              </>
            )}
          </section>
          <section>
            <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8, alignItems: 'center', justifyContent: 'space-between' }}>
              <Typography.Text strong>{s('att.title')}</Typography.Text>
              <Segmented<GrowthGroup>
                size="small"
                value={group}
                onChange={setGroup}
                aria-label={s('group.label')}
                options={[
                  { value: 'week', label: s('group.week') },
                  { value: 'month', label: s('group.month') },
                ]}
              />
            </div>
            {totals.present + totals.absent + totals.on_leave === 0 ? (
              <EmptyState description={s('att.empty')} />
            ) : (
              <>
                <EChart option={attOption} label={s('att.title')} height={220} />
                <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginBottom: 0 }}>
                  {s('att.summary', {
                    range: s(group === 'week' ? 'att.range.week' : 'att.range.month', { n: GROWTH_PERIODS[group] }),
                    present: totals.present,
                    leave: totals.on_leave,
                    absent: totals.absent,
                  })}
                </Typography.Paragraph>
              </>
            )}
          </section>
        </Space>
      )}
    </Card>
  );
}

type S = ReturnType<typeof growthStrings.use>;

function resultText(e: ParentExamScore, s: S): string {
  if (e.absent || e.score === null) return s('scores.absent');
  const parts = [s('scores.score', { score: e.score, full: e.full_mark })];
  if (e.class_rank !== null) parts.push(s('scores.rank', { rank: e.class_rank, count: e.class_count }));
  return parts.join(' · ');
}

/** One point per exam, oldest first: the score and the class average in percent of the exam's full mark. */
function scoreChart(scores: ParentExamScore[], s: S): ChartOption {
  return {
    tooltip: {
      trigger: 'axis',
      confine: true,
      formatter: (items: Array<{ dataIndex: number }>) => {
        const e = scores[items[0]?.dataIndex ?? 0];
        if (!e) return '';
        const lines = [`${e.name}（${e.subject}）`, e.exam_day, resultText(e, s)];
        if (e.class_average !== null) lines.push(s('scores.average', { avg: e.class_average }));
        return lines.map(escapeHtml).join('<br/>');
      },
    },
    legend: { top: 0 },
    grid: { left: 4, right: 12, top: 32, bottom: 4, containLabel: true },
    xAxis: { type: 'category', data: scores.map((e) => e.exam_day.slice(5)), axisLabel: { hideOverlap: true } },
    yAxis: { type: 'value', min: 0, max: 100, axisLabel: { formatter: '{value}%' } },
    series: [
      {
        type: 'line',
        name: s('scores.mine'),
        data: scores.map((e) => pct(e.score, e.full_mark)),
        connectNulls: true,
        symbolSize: 7,
        itemStyle: { color: COLOR.mine },
        lineStyle: { width: 2 },
      },
      {
        type: 'line',
        name: s('scores.class_average'),
        data: scores.map((e) => pct(e.class_average, e.full_mark)),
        connectNulls: true,
        symbol: 'none',
        itemStyle: { color: COLOR.average },
        lineStyle: { type: 'dashed' },
      },
    ],
  };
}

/** Days per period, stacked: present, on leave, absent. */
function attendanceChart(list: TeacherStudentGrowthAnswer['attendance'], group: GrowthGroup, s: S): ChartOption {
  const labels = list.map((a) => (group === 'week' ? s('week.of', { day: periodLabel(a.period, group) }) : periodLabel(a.period, group)));
  const bar = (key: 'present' | 'on_leave' | 'absent') => ({
    type: 'bar',
    name: s(`att.${key}`),
    stack: 'days',
    data: list.map((a) => a[key]),
    itemStyle: { color: COLOR[key] },
    barMaxWidth: 24,
  });
  return {
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, confine: true },
    legend: { top: 0 },
    grid: { left: 4, right: 8, top: 32, bottom: 4, containLabel: true },
    xAxis: { type: 'category', data: labels, axisLabel: { hideOverlap: true } },
    yAxis: { type: 'value', minInterval: 1 },
    series: [bar('present'), bar('on_leave'), bar('absent')],
  };
}

const escapeHtml = (v: string) => v.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
