import { Alert, DatePicker, Flex, Segmented, Select, Space, Tabs } from 'antd';
import { addDays, addMonthsToDay, periodOf, Role, type DataGroup } from '@wantuo/shared';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { useSchoolToday } from '../../lib/school-time';
import { useSession } from '../../stores/session';
import { AttendanceTab, TeacherClockCard } from './attendance-tab';
import { MealsTab } from './meals-tab';
import { PointsTab } from './points-tab';
import { PRESETS, presetRange, rangeOk, type Preset } from './range';
import { RollCallTab } from './roll-call-tab';
import { dataStrings } from './strings';

/**
 * The data centre (/principal_data for the admin, /A_data for the head teacher): attendance, meal bookings, points
 * and the roll call of teaching and tutoring sessions by day, week or month over a range, each drawn with ECharts
 * (loaded with this page only) and exported to .xlsx by the API with the same numbers.
 */
export default function DataCentre() {
  const s = dataStrings.use();
  const role = useSession((x) => x.user?.role);
  const today = useSchoolToday();
  const [group, setGroup] = useState<DataGroup>('day');
  const [preset, setPreset] = useState<Preset | 'custom'>('30');
  const [custom, setCustom] = useState<{ from: string; to: string } | null>(null);
  const range = useMemo(
    () => (preset === 'custom' && custom ? custom : presetRange(preset === 'custom' ? PRESETS[group][0] : preset, today)),
    [preset, custom, group, today],
  );
  const ok = rangeOk(range, group);

  const changeGroup = (g: DataGroup) => {
    setGroup(g);
    setPreset(PRESETS[g][0]);
    setCustom(null);
  };

  const controls = (
    <Flex wrap gap={8} align="center" style={{ marginBottom: 12 }}>
      <Segmented<DataGroup>
        value={group}
        onChange={changeGroup}
        options={(['day', 'week', 'month'] as const).map((g) => ({ value: g, label: s(`group.${g}`) }))}
      />
      <Select<Preset | 'custom'>
        value={preset}
        onChange={(v) => setPreset(v)}
        style={{ width: 132 }}
        aria-label={s('range.label')}
        options={[
          ...PRESETS[group].map((p) => ({ value: p, label: s(`range.${p}`) })),
          ...(custom ? [{ value: 'custom' as const, label: `${custom.from} ~ ${custom.to}` }] : []),
        ]}
      />
      <DatePicker.RangePicker
        picker={group === 'month' ? 'month' : 'date'}
        allowClear={false}
        value={[dayjs(range.from), dayjs(range.to)]}
        disabledDate={(d) => d.format('YYYY-MM-DD') > today}
        onChange={(v) => {
          if (!v?.[0] || !v[1]) return;
          // the periods' bounds by the shared rule (a week starts on Monday whatever the picker's locale)
          const from = periodOf(v[0].format('YYYY-MM-DD'), group);
          const last = periodOf(v[1].format('YYYY-MM-DD'), group);
          const end = group === 'day' ? last : group === 'week' ? addDays(last, 6) : addDays(addMonthsToDay(last, 1), -1);
          setCustom({ from, to: end > today ? today : end });
          setPreset('custom');
        }}
        aria-label={s('range.label')}
        style={{ maxWidth: '100%' }}
      />
    </Flex>
  );

  const attendance = (
    <Space orientation="vertical" size={12} style={{ width: '100%' }}>
      <AttendanceTab group={group} range={range} />
      {role === Role.Admin && <TeacherClockCard group={group} range={range} />}
    </Space>
  );

  return (
    <div>
      {controls}
      {!ok ? (
        <Alert type="warning" showIcon title={s('range.too_long')} />
      ) : (
        <Tabs
          destroyOnHidden
          items={[
            { key: 'attendance', label: s('tab.attendance'), children: attendance },
            { key: 'meals', label: s('tab.meals'), children: <MealsTab group={group} range={range} /> },
            { key: 'points', label: s('tab.points'), children: <PointsTab group={group} range={range} /> },
            { key: 'roll_call', label: s('tab.roll_call'), children: <RollCallTab group={group} range={range} /> },
          ]}
        />
      )}
    </div>
  );
}
