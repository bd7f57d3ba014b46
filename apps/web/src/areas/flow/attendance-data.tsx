import { useQuery } from '@tanstack/react-query';
import { Card, Segmented, Select, Space, Tooltip, Typography } from 'antd';
import { Role, type StudentDayCount, type TeacherClockingInCount } from '@wantuo/shared';
import { useMemo, useState } from 'react';
import { get } from '../../api/http';
import { EmptyState, LoadError, Loading } from '../../components/states';
import type { MessageKey } from '../../i18n/messages';
import { useT } from '../../stores/preferences';
import { useSession } from '../../stores/session';
import './attendance-data.css';

type State = 'in_centre' | 'left' | 'picked_up' | 'on_leave' | 'expected';
const STATES: State[] = ['left', 'in_centre', 'picked_up', 'on_leave', 'expected'];
const COLOR: Record<State, string> = { expected: '#bfbfbf', picked_up: '#1677ff', in_centre: '#52c41a', left: '#722ed1', on_leave: '#fa8c16' };

/** Today in the school's timezone, and the `n` days ending today (YYYY-MM-DD, oldest first). */
function lastDays(n: number, timeZone = 'Asia/Shanghai', now = new Date()): string[] {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  const base = Date.parse(`${today}T00:00:00Z`);
  return Array.from({ length: n }, (_, i) => new Date(base - (n - 1 - i) * 86_400_000).toISOString().slice(0, 10));
}

interface Bar {
  day: string;
  parts: { key: string; value: number; color: string; label: string }[];
}

/** Stacked bars per day drawn with plain divs; a day's height is its total against the largest day. */
function StackedBars({ bars, legend }: { bars: Bar[]; legend: { label: string; color: string }[] }) {
  const max = Math.max(1, ...bars.map((b) => b.parts.reduce((n, p) => n + p.value, 0)));
  return (
    <div>
      <Space wrap size={12} style={{ marginBottom: 8 }}>
        {legend.map((l) => (
          <span key={l.label} className="chart-legend">
            <i style={{ background: l.color }} />
            {l.label}
          </span>
        ))}
      </Space>
      <div className="chart-scroll">
        <div className="chart" style={{ minWidth: bars.length * 22 }} role="img">
          {bars.map((b) => {
            const total = b.parts.reduce((n, p) => n + p.value, 0);
            return (
              <Tooltip key={b.day} title={<div>{b.day}{b.parts.filter((p) => p.value).map((p) => <div key={p.key}>{p.label}：{p.value}</div>)}</div>}>
                <div className="chart-col">
                  <span className="chart-total">{total || ''}</span>
                  <div className="chart-area">
                    <div className="chart-stack" style={{ height: `${(total / max) * 100}%` }}>
                      {b.parts.map((p) => (p.value ? <div key={p.key} style={{ flexGrow: p.value, background: p.color }} /> : null))}
                    </div>
                  </div>
                  <span className="chart-day">{bars.length > 10 ? b.day.slice(8) : b.day.slice(5)}</span>
                </div>
              </Tooltip>
            );
          })}
        </div>
      </div>
    </div>
  );
}

function TeacherClockChart({ days }: { days: string[] }) {
  const t = useT();
  const q = useQuery({
    queryKey: ['teacherClockingInCount', days[0], days[days.length - 1]],
    queryFn: () => get<TeacherClockingInCount>('teacherClockingInCount', { date_from: days[0], date_to: days[days.length - 1], page: 1, limit: 1 }),
  });
  if (q.isLoading) return <Loading />;
  if (q.isError) return <LoadError onRetry={() => q.refetch()} />;
  const rows = q.data?.days ?? [];
  if (!rows.some((d) => d.clocked_in > 0)) return <EmptyState description={t('ops.data_clock_empty')} />;
  const label = { out: t('ops.clocked_out_n'), in: t('ops.clocked_in_only'), none: t('ops.not_clocked_n') };
  const bars: Bar[] = rows.map((d) => ({
    day: d.day,
    parts: [
      { key: 'out', value: d.clocked_out, color: '#52c41a', label: label.out },
      { key: 'in', value: Math.max(0, d.clocked_in - d.clocked_out), color: '#1677ff', label: label.in },
      { key: 'none', value: Math.max(0, d.on_job - d.clocked_in), color: '#d9d9d9', label: label.none },
    ],
  }));
  return (
    <StackedBars
      bars={bars}
      legend={[
        { label: label.out, color: '#52c41a' },
        { label: label.in, color: '#1677ff' },
        { label: label.none, color: '#d9d9d9' },
      ]}
    />
  );
}

/**
 * The data centre (/principal_data for the admin, /A_data for the head teacher): students per day by state over the
 * last 7 or 30 days (studentClockingInCount, a class at a time or all), and for the admin the teachers' clock-ins.
 */
export default function AttendanceData() {
  const t = useT();
  const tz = useSession((s) => s.user?.school?.timezone);
  const role = useSession((s) => s.user?.role);
  const [span, setSpan] = useState<7 | 30>(7);
  const [classId, setClassId] = useState<number | undefined>(undefined);
  const days = useMemo(() => lastDays(span, tz), [span, tz]);
  const q = useQuery({
    queryKey: ['studentClockingInCount', days[0], days[days.length - 1], classId],
    queryFn: () => get<{ list: StudentDayCount[] }>('studentClockingInCount', { date_from: days[0], date_to: days[days.length - 1], ...(classId ? { class_id: classId } : {}) }),
  });
  // the classes seen in the unfiltered answer, so the filter keeps its options while filtered
  const [classes, setClasses] = useState<{ id: number; name: string }[]>([]);
  const seen = useMemo(() => {
    const m = new Map<number, string>();
    for (const r of q.data?.list ?? []) if (r.class_id) m.set(r.class_id, r.class_name ?? String(r.class_id));
    return [...m].map(([id, name]) => ({ id, name }));
  }, [q.data]);
  if (!classId && seen.length && seen.map((c) => c.id).join() !== classes.map((c) => c.id).join()) setClasses(seen);

  const bars: Bar[] = useMemo(() => {
    const per = new Map<string, Record<State, number>>(days.map((d) => [d, { expected: 0, picked_up: 0, in_centre: 0, left: 0, on_leave: 0 }]));
    for (const r of q.data?.list ?? []) {
      const acc = per.get(r.day);
      if (acc) for (const s of STATES) acc[s] += r[s];
    }
    return days.map((d) => ({ day: d, parts: STATES.map((s) => ({ key: s, value: per.get(d)![s], color: COLOR[s], label: t(`ops.chart_${s}` as MessageKey) })) }));
  }, [q.data, days, t]);
  const empty = bars.every((b) => b.parts.every((p) => p.value === 0));
  const totals = STATES.map((s) => ({ s, n: bars.reduce((acc, b) => acc + (b.parts.find((p) => p.key === s)?.value ?? 0), 0) }));

  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }}>
      <Card
        size="small"
        title={t('ops.data_title')}
        extra={<Segmented size="small" value={span} onChange={(v) => setSpan(v as 7 | 30)} options={[{ value: 7, label: t('ops.days_7') }, { value: 30, label: t('ops.days_30') }]} />}
      >
        <Select
          allowClear
          placeholder={t('ops.class_all')}
          value={classId}
          onChange={(v) => setClassId(v)}
          options={classes.map((c) => ({ value: c.id, label: c.name }))}
          style={{ width: 220, maxWidth: '100%', marginBottom: 12 }}
          aria-label={t('ops.class')}
        />
        {q.isLoading ? (
          <Loading />
        ) : q.isError ? (
          <LoadError onRetry={() => q.refetch()} />
        ) : empty ? (
          <EmptyState description={t('ops.data_empty')} />
        ) : (
          <>
            <StackedBars bars={bars} legend={STATES.map((s) => ({ label: t(`ops.chart_${s}` as MessageKey), color: COLOR[s] }))} />
            <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0, fontSize: 12 }}>
              {totals.map((x) => `${t(`ops.chart_${x.s}` as MessageKey)} ${x.n}`).join(' · ')}
            </Typography.Paragraph>
          </>
        )}
      </Card>
      {role === Role.Admin && (
        <Card size="small" title={t('ops.teacher_clock')}>
          <TeacherClockChart days={days} />
        </Card>
      )}
    </Space>
  );
}
