import { useQuery } from '@tanstack/react-query';
import { periodLabel, periodsBetween, Role, type DataGroup } from '@wantuo/shared';
import { useMemo } from 'react';
import { get } from '../../api/http';
import { useSession } from '../../stores/session';
import { barOption } from './attendance-tab';
import { ChartCard } from './chart-card';
import { dataStrings } from './strings';
import { queryKey } from '../../api/query';

/**
 * Points per period: awarded, deducted and spent on exchanges as bars, exchange orders as a line on a second axis;
 * the admin's school (scoreOrderCount), the head teacher's own students (classScoreCount); exported with the same
 * numbers (scoreOrderCountExport).
 */
export function PointsTab({ group, range }: { group: DataGroup; range: { from: string; to: string } }) {
  const s = dataStrings.use();
  const role = useSession((x) => x.user?.role);
  const action = role === Role.HeadTeacher ? 'classScoreCount' : 'scoreOrderCount';
  const params = { date_from: range.from, date_to: range.to, group };
  const q = useQuery({ queryKey: queryKey(action, params), queryFn: () => get(action, params) });
  const periods = useMemo(() => periodsBetween(range.from, range.to, group), [range, group]);

  const option = useMemo(() => {
    const by = new Map((q.data?.rows ?? []).map((r) => [r.period, r]));
    const at = (p: string, k: 'awarded' | 'deducted' | 'spent' | 'orders') => by.get(p)?.[k] ?? 0;
    const labels = periods.map((p) => (group === 'week' ? s('week.of', { day: periodLabel(p, group) }) : periodLabel(p, group)));
    return barOption(
      labels,
      [
        { name: s('pts.awarded'), data: periods.map((p) => at(p, 'awarded')), color: '#52c41a' },
        { name: s('pts.deducted'), data: periods.map((p) => at(p, 'deducted')), color: '#ff4d4f' },
        { name: s('pts.spent'), data: periods.map((p) => at(p, 'spent')), color: '#faad14' },
        { name: s('pts.orders'), type: 'line' as const, yAxisIndex: 1, data: periods.map((p) => at(p, 'orders')), color: '#1677ff' },
      ],
      {
        yAxis: [
          { type: 'value', name: s('pts.axis_points'), minInterval: 1 },
          { type: 'value', name: s('pts.axis_orders'), minInterval: 1, splitLine: { show: false } },
        ],
      },
    );
  }, [q.data, periods, group, s]);

  const t = q.data?.totals;
  return (
    <ChartCard
      title={s('pts.title')}
      query={q}
      empty={!t || t.awarded + t.deducted + t.spent + t.orders === 0}
      emptyText={s('pts.empty')}
      option={option}
      summary={
        t
          ? s('pts.summary', {
              awarded: t.awarded,
              deducted: t.deducted,
              spent: t.spent,
              orders: t.orders,
              handed: t.handed_over,
              cancelled: t.cancelled,
            })
          : null
      }
      exportAs={{ action: 'scoreOrderCountExport', params, filename: `${s('export.points')}-${range.from}-${range.to}.xlsx` }}
    />
  );
}
