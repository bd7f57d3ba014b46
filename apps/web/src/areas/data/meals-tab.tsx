import { useQuery } from '@tanstack/react-query';
import { periodLabel, periodsBetween, Role, type DataGroup } from '@wantuo/shared';
import { useMemo } from 'react';
import { get } from '../../api/http';
import { useSession } from '../../stores/session';
import { barOption } from './attendance-tab';
import { ChartCard } from './chart-card';
import { dataStrings } from './strings';
import { queryKey } from '../../api/query';

const ITEM_COLORS = ['#1677ff', '#52c41a', '#faad14', '#722ed1', '#eb2f96', '#13c2c2', '#fa541c', '#2f54eb'];

/**
 * Meals per period, the admin's school (orderMealCount) or the head teacher's classes (classMealCount): the dinners
 * booked stacked by item, the dinners served without a booking, and the dinners served as a line; exported by
 * orderMealCountExport with the same numbers.
 */
export function MealsTab({ group, range }: { group: DataGroup; range: { from: string; to: string } }) {
  const s = dataStrings.use();
  const role = useSession((x) => x.user?.role);
  const action = role === Role.HeadTeacher ? 'classMealCount' : 'orderMealCount';
  const params = { from: range.from, to: range.to, group };
  const q = useQuery({ queryKey: queryKey(action, params), queryFn: () => get(action, params) });
  const periods = useMemo(() => periodsBetween(range.from, range.to, group), [range, group]);

  const option = useMemo(() => {
    const rows = q.data?.rows ?? [];
    const items = new Map<number, string>();
    for (const r of rows) if (r.goods_id !== null) items.set(r.goods_id, r.goods_name ?? String(r.goods_id));
    const at = (period: string, pick: (r: (typeof rows)[number]) => number, goods?: number) =>
      rows.filter((r) => r.period === period && (goods === undefined || r.goods_id === goods)).reduce((n, r) => n + pick(r), 0);
    const labels = periods.map((p) => (group === 'week' ? s('week.of', { day: periodLabel(p, group) }) : periodLabel(p, group)));
    return barOption(labels, [
      ...[...items].map(([id, name], i) => ({
        name: `${s('meal.booked')}·${name}`,
        data: periods.map((p) => at(p, (r) => r.booked, id)),
        color: ITEM_COLORS[i % ITEM_COLORS.length],
        stack: 'booked',
      })),
      { name: s('meal.unbooked'), data: periods.map((p) => at(p, (r) => r.unbooked_served)), color: '#bfbfbf', stack: 'booked' },
      { name: s('meal.served'), type: 'line' as const, data: periods.map((p) => at(p, (r) => r.served + r.unbooked_served)), color: '#f5222d' },
    ]);
  }, [q.data, periods, group, s]);

  const t = q.data?.totals;
  return (
    <ChartCard
      title={s('meal.title')}
      query={q}
      empty={!t || t.booked + t.cancelled + t.served + t.unbooked_served === 0}
      emptyText={s('meal.empty')}
      option={option}
      summary={t ? s('meal.summary', { booked: t.booked, cancelled: t.cancelled, served: t.served, unbooked: t.unbooked_served }) : null}
      exportAs={{ action: 'orderMealCountExport', params, filename: `${s('export.meals')}-${range.from}-${range.to}.xlsx` }}
    />
  );
}
