import { useQuery } from '@tanstack/react-query';
import { Card, Select, Typography } from 'antd';
import { periodLabel, periodsBetween, Role, type DataGroup } from '@wantuo/shared';
import { useMemo, useState } from 'react';
import { get } from '../../api/http';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { useSession } from '../../stores/session';
import { FLOW_HEX } from '../flow/flow-look';
import { ChartCard } from './chart-card';
import { EChart, type ChartOption } from './echart';
import { dataStrings } from './strings';
import { queryKey } from '../../api/query';

type State = 'left' | 'in_centre' | 'picked_up' | 'on_leave' | 'expected';
const STATES: State[] = ['left', 'in_centre', 'picked_up', 'on_leave', 'expected'];
// the not-yet-arrived in a light grey: the chart's rest
const COLOR: Record<State, string> = { ...FLOW_HEX, expected: '#d9d9d9' };

/** Bars stacked per period with a zoom slider once there are many periods (shared by the data centre's charts). */
export function barOption(
  labels: string[],
  series: Array<{ name: string; data: Array<number | null>; color: string; stack?: string; yAxisIndex?: number; type?: 'bar' | 'line' }>,
  extra: Partial<ChartOption> = {},
): ChartOption {
  return {
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    legend: { top: 0, type: 'scroll' },
    grid: { left: 8, right: 8, top: 36, bottom: labels.length > 16 ? 48 : 8, containLabel: true },
    xAxis: { type: 'category', data: labels, axisTick: { alignWithLabel: true } },
    yAxis: [{ type: 'value', minInterval: 1 }],
    dataZoom: labels.length > 16 ? [{ type: 'slider', start: Math.max(0, 100 - (16 / labels.length) * 100), end: 100, height: 18, bottom: 8 }] : [],
    series: series.map((s) => ({
      type: s.type ?? 'bar',
      name: s.name,
      data: s.data,
      stack: s.stack,
      yAxisIndex: s.yAxisIndex ?? 0,
      itemStyle: { color: s.color },
      color: s.color,
      barMaxWidth: 36,
      emphasis: { focus: 'series' },
    })),
    ...extra,
  };
}

/** Students per period by state (studentClockingInCount grouped), a class at a time or all, with the rate and the export. */
export function AttendanceTab({ group, range }: { group: DataGroup; range: { from: string; to: string } }) {
  const s = dataStrings.use();
  const role = useSession((x) => x.user?.role);
  const [classId, setClassId] = useState<number | undefined>(undefined);
  const params = { date_from: range.from, date_to: range.to, group, ...(classId ? { class_id: classId } : {}) };
  const q = useQuery({
    queryKey: queryKey('studentClockingInCount', params),
    queryFn: () => get('studentClockingInCount', params),
  });
  // the classes seen in the unfiltered answer, so the filter keeps its options while filtered
  const [classes, setClasses] = useState<{ id: number; name: string }[]>([]);
  const seen = useMemo(() => {
    const m = new Map<number, string>();
    for (const r of q.data?.list ?? []) if (r.class_id) m.set(r.class_id, r.class_name ?? String(r.class_id));
    return [...m].map(([id, name]) => ({ id, name }));
  }, [q.data]);
  if (!classId && seen.length && seen.map((c) => c.id).join() !== classes.map((c) => c.id).join()) setClasses(seen);

  const periods = useMemo(() => periodsBetween(range.from, range.to, group), [range, group]);
  const per = useMemo(() => {
    const m = new Map<string, Record<State | 'total', number>>(
      periods.map((p) => [p, { total: 0, left: 0, in_centre: 0, picked_up: 0, on_leave: 0, expected: 0 }]),
    );
    for (const r of q.data?.list ?? []) {
      const acc = m.get(r.day);
      if (!acc) continue;
      acc.total += r.total;
      for (const st of STATES) acc[st] += r[st];
    }
    return m;
  }, [q.data, periods]);
  // a period nobody came or was on leave in (a holiday, or before the school recorded attendance here) shows as a
  // gap and stays out of the totals: its scheduled "not arrived" would only drag the rate down
  const recorded = (v: Record<State | 'total', number>) => v.left + v.in_centre + v.picked_up + v.on_leave > 0;
  const totals = useMemo(() => {
    const t = { total: 0, left: 0, in_centre: 0, picked_up: 0, on_leave: 0, expected: 0 };
    for (const v of per.values()) if (recorded(v)) for (const k of Object.keys(t) as Array<keyof typeof t>) t[k] += v[k];
    return t;
  }, [per]);
  const came = totals.left + totals.in_centre + totals.picked_up;
  const rateOf = (v: Record<State | 'total', number>) =>
    v.total - v.on_leave > 0 ? Math.round(((v.left + v.in_centre + v.picked_up) / (v.total - v.on_leave)) * 1000) / 10 : null;

  const option = useMemo(() => {
    const labels = periods.map((p) => (group === 'week' ? s('week.of', { day: periodLabel(p, group) }) : periodLabel(p, group)));
    return barOption(
      labels,
      [
        ...STATES.map((st) => ({
          name: s(`att.${st}`),
          data: periods.map((p) => (recorded(per.get(p)!) ? per.get(p)![st] : null)),
          color: COLOR[st],
          stack: 'students',
        })),
        {
          name: s('att.rate'),
          type: 'line' as const,
          yAxisIndex: 1,
          color: '#13c2c2',
          data: periods.map((p) => (recorded(per.get(p)!) ? rateOf(per.get(p)!) : null)),
        },
      ],
      {
        yAxis: [
          { type: 'value', minInterval: 1 },
          { type: 'value', max: 100, axisLabel: { formatter: '{value}%' }, splitLine: { show: false } },
        ],
      },
    );
  }, [per, periods, group, s]);

  return (
    <ChartCard
      title={s('att.title')}
      query={q}
      empty={came + totals.on_leave === 0}
      emptyText={s('att.empty')}
      option={option}
      summary={
        <>
          {s('att.summary', { total: totals.total, came, leave: totals.on_leave, rate: `${rateOf(totals) ?? 0}%` })}
          {s('att.gaps')}
        </>
      }
      exportAs={{ action: 'studentClockingInExport', params, filename: `${s('export.attendance')}-${range.from}-${range.to}.xlsx` }}
      before={
        role !== Role.HeadTeacher || classes.length > 1 ? (
          <Select
            allowClear
            placeholder={s('class.all')}
            value={classId}
            onChange={(v) => setClassId(v)}
            options={classes.map((c) => ({ value: c.id, label: c.name }))}
            style={{ width: 220, maxWidth: '100%', marginBottom: 12 }}
            aria-label={s('class.label')}
          />
        ) : null
      }
    />
  );
}

/** Teachers' clock-ins per day (the admin only; counted by day over at most 31 days). */
export function TeacherClockCard({ group, range }: { group: DataGroup; range: { from: string; to: string } }) {
  const s = dataStrings.use();
  const days = useMemo(() => periodsBetween(range.from, range.to, 'day'), [range.from, range.to]);
  const usable = group === 'day' && days.length <= 31;
  const q = useQuery({
    queryKey: queryKey('teacherClockingInCount', { date_from: range.from, date_to: range.to, page: 1, limit: 1 }),
    queryFn: () => get('teacherClockingInCount', { date_from: range.from, date_to: range.to, page: 1, limit: 1 }),
    enabled: usable,
  });
  const option = useMemo(() => {
    const rows = q.data?.days ?? [];
    const by = new Map(rows.map((d) => [d.day, d]));
    const at = (day: string) => by.get(day) ?? { on_job: 0, clocked_in: 0, clocked_out: 0 };
    return barOption(
      days.map((d) => periodLabel(d, 'day')),
      [
        { name: s('clock.out'), data: days.map((d) => at(d).clocked_out), color: '#52c41a', stack: 'c' },
        { name: s('clock.in'), data: days.map((d) => Math.max(0, at(d).clocked_in - at(d).clocked_out)), color: '#1677ff', stack: 'c' },
        { name: s('clock.none'), data: days.map((d) => Math.max(0, at(d).on_job - at(d).clocked_in)), color: '#d9d9d9', stack: 'c' },
      ],
    );
  }, [q.data, days, s]);
  return (
    <Card size="small" title={s('clock.title')}>
      {!usable ? (
        <Typography.Text type="secondary">{s('clock.days_only')}</Typography.Text>
      ) : q.isLoading ? (
        <Loading />
      ) : q.isError ? (
        <LoadError onRetry={() => q.refetch()} />
      ) : !(q.data?.days ?? []).some((d) => d.clocked_in > 0) ? (
        <EmptyState description={s('clock.empty')} />
      ) : (
        <EChart option={option} height={260} label={s('clock.title')} />
      )}
    </Card>
  );
}
