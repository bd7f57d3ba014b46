import { useQuery } from '@tanstack/react-query';
import { periodLabel, periodsBetween, type DataGroup } from '@wantuo/shared';
import { Select } from 'antd';
import { useMemo, useState } from 'react';
import { get } from '../../api/http';
import { barOption } from './attendance-tab';
import { ChartCard } from './chart-card';
import { dataStrings } from './strings';
import { queryKey } from '../../api/query';

const STATUSES = [
  { key: 'present', color: '#52c41a' },
  { key: 'late', color: '#faad14' },
  { key: 'absent', color: '#ff4d4f' },
  { key: 'leave', color: '#8c8c8c' },
] as const;

type Kind = 'teaching' | 'tutoring';

/**
 * Roll call of the sessions (teaching classes and home tutoring) per period: present, late, absent and leave stacked
 * (rollCallCount: the admin's school, a head teacher's own sessions), of one kind or both, exported with the same
 * numbers (rollCallExport).
 */
export function RollCallTab({ group, range }: { group: DataGroup; range: { from: string; to: string } }) {
  const s = dataStrings.use();
  const [kind, setKind] = useState<Kind | undefined>(undefined);
  const params = { date_from: range.from, date_to: range.to, group, ...(kind ? { kind } : {}) };
  const q = useQuery({ queryKey: queryKey('rollCallCount', params), queryFn: () => get('rollCallCount', params) });
  const periods = useMemo(() => periodsBetween(range.from, range.to, group), [range, group]);

  const totals = useMemo(() => {
    const t = { sessions: 0, total: 0, present: 0, late: 0, absent: 0, leave: 0 };
    for (const r of q.data?.list ?? []) for (const k of Object.keys(t) as Array<keyof typeof t>) t[k] += r[k];
    return t;
  }, [q.data]);

  const option = useMemo(() => {
    // the kinds of a period summed
    const by = new Map<string, Record<(typeof STATUSES)[number]['key'], number>>();
    for (const r of q.data?.list ?? []) {
      const acc = by.get(r.period) ?? { present: 0, late: 0, absent: 0, leave: 0 };
      for (const st of STATUSES) acc[st.key] += r[st.key];
      by.set(r.period, acc);
    }
    const labels = periods.map((p) => (group === 'week' ? s('week.of', { day: periodLabel(p, group) }) : periodLabel(p, group)));
    return barOption(
      labels,
      STATUSES.map((st) => ({ name: s(`roll.${st.key}`), data: periods.map((p) => by.get(p)?.[st.key] ?? 0), color: st.color, stack: 'roll' })),
    );
  }, [q.data, periods, group, s]);

  const rate = totals.total ? `${Math.round(((totals.present + totals.late) / totals.total) * 1000) / 10}%` : '-';
  return (
    <ChartCard
      title={s('roll.title')}
      query={q}
      empty={totals.total === 0}
      emptyText={s('roll.empty')}
      option={option}
      before={
        <Select<Kind | 'all'>
          value={kind ?? 'all'}
          onChange={(v) => setKind(v === 'all' ? undefined : v)}
          aria-label={s('roll.kind')}
          style={{ width: 140, marginBottom: 8 }}
          options={[
            { value: 'all', label: s('roll.kind_all') },
            { value: 'teaching', label: s('roll.kind_teaching') },
            { value: 'tutoring', label: s('roll.kind_tutoring') },
          ]}
        />
      }
      summary={s('roll.summary', {
        sessions: totals.sessions,
        total: totals.total,
        present: totals.present,
        late: totals.late,
        absent: totals.absent,
        leave: totals.leave,
        rate,
      })}
      exportAs={{ action: 'rollCallExport', params, filename: `${s('export.roll_call')}-${range.from}-${range.to}.xlsx` }}
    />
  );
}
