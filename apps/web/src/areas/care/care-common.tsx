import { useQuery } from '@tanstack/react-query';
import { Select, Tag } from 'antd';
import type { CareClass, ClassTimeOption, Duty, DutyAssignment, GetAction } from '@wantuo/shared';
import { useState } from 'react';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { useT } from '../../stores/preferences';
import { careStrings, type CareKey } from './strings';

export const WEEKDAY_KEYS: CareKey[] = ['care.wd1', 'care.wd2', 'care.wd3', 'care.wd4', 'care.wd5', 'care.wd6', 'care.wd7'];
export const DUTY_KEYS: Record<Duty, CareKey> = { shuttle: 'care.duty_shuttle', tutor: 'care.duty_tutor', head: 'care.duty_head' };
export const DUTY_COLOR: Record<Duty, string> = { shuttle: 'cyan', tutor: 'geekblue', head: 'purple' };

/** Runs of consecutive weekdays: [1,2,3,5] -> [[1,3],[5,5]]. */
export function weekdayRuns(days: readonly number[]): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  for (const d of [...days].sort((a, b) => a - b)) {
    const last = runs[runs.length - 1];
    if (last && d === last[1] + 1) last[1] = d;
    else runs.push([d, d]);
  }
  return runs;
}

/** "周一至周五 16:00-18:00" style text of a slot. */
export function useSlotText() {
  const tc = careStrings.use();
  return (s: Pick<ClassTimeOption, 'start_time' | 'end_time' | 'weekdays'> | null | undefined) =>
    s && s.weekdays
      ? `${weekdayRuns(s.weekdays)
          .map(([a, b]) =>
            a === b
              ? tc(WEEKDAY_KEYS[a - 1])
              : b - a === 1
                ? `${tc(WEEKDAY_KEYS[a - 1])} ${tc(WEEKDAY_KEYS[b - 1])}`
                : tc('care.wd_range', { from: tc(WEEKDAY_KEYS[a - 1]), to: tc(WEEKDAY_KEYS[b - 1]) }),
          )
          .join(' ')} ${s.start_time}-${s.end_time}`
      : '-';
}

/** The slot of a class row. */
export function classSlot(c: Pick<CareClass, 'start_time' | 'end_time' | 'weekdays'>) {
  return c.start_time && c.end_time && c.weekdays ? { start_time: c.start_time, end_time: c.end_time, weekdays: c.weekdays } : null;
}

export function DutyTags({ duties }: { duties: DutyAssignment[] }) {
  const tc = careStrings.use();
  if (!duties.length) return <>-</>;
  return (
    <>
      {duties.map((d) => (
        <Tag key={d.id} color={DUTY_COLOR[d.duty]}>
          {tc(DUTY_KEYS[d.duty])}：{d.teacher_name}
        </Tag>
      ))}
    </>
  );
}

const PICKER_OF = { head: 'selectClassTeacher', shuttle: 'shuttleTeacher', tutor: 'tutorTeacher' } as const satisfies Record<Duty, GetAction>;

/**
 * A searchable teacher select backed by the staff duty pickers. `current` keeps the chosen teacher's name visible
 * when it is not on the first page of the picker.
 */
export function TeacherSelect({
  duty,
  value,
  onChange,
  current,
  allowClear,
  style,
}: {
  duty: Duty;
  value?: number | null;
  onChange?: (v: number | null) => void;
  current?: { id: number; name: string } | null;
  allowClear?: boolean;
  style?: React.CSSProperties;
}) {
  const t = useT();
  const tc = careStrings.use();
  const [keyword, setKeyword] = useState('');
  const input = { limit: 50, ...(keyword ? { keyword } : {}) };
  const q = useQuery({ queryKey: queryKey(PICKER_OF[duty], input), queryFn: () => get(PICKER_OF[duty], input) });
  const options = (q.data?.list ?? []).map((p) => ({ value: p.id, label: p.name }));
  if (current && !options.some((o) => o.value === current.id)) options.unshift({ value: current.id, label: current.name });
  return (
    <Select<number>
      showSearch={{ filterOption: false, onSearch: (v) => setKeyword(v.trim().slice(0, 64)) }}
      allowClear={allowClear}
      loading={q.isLoading}
      placeholder={tc('care.pick_teacher')}
      value={value ?? undefined}
      onChange={(v) => onChange?.(v ?? null)}
      options={options}
      style={style ?? { width: '100%' }}
      notFoundContent={t('common.empty')}
    />
  );
}

/** A select of the school's time slots (selectClassTime). */
export function SlotSelect({ value, onChange }: { value?: number | null; onChange?: (v: number | null) => void }) {
  const tc = careStrings.use();
  const slotText = useSlotText();
  const q = useQuery({ queryKey: queryKey('selectClassTime'), queryFn: () => get('selectClassTime') });
  return (
    <Select<number>
      allowClear
      loading={q.isLoading}
      placeholder={tc('care.pick_slot')}
      value={value ?? undefined}
      onChange={(v) => onChange?.(v ?? null)}
      options={(q.data?.list ?? []).map((s) => ({ value: s.id, label: `${s.name}（${slotText(s)}）` }))}
      style={{ width: '100%' }}
      notFoundContent={tc('care.no_slots')}
    />
  );
}
