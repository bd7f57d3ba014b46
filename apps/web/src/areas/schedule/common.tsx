import { Button, Flex, Grid, Tag, Typography } from 'antd';
import { addDays, type ScheduleDay, type ScheduleEntry } from '@wantuo/shared';
import { scheduleStrings, type ScheduleKey } from './strings';

export const wdKey = (n: number) => `wd${n}` as ScheduleKey;

// Day arithmetic on YYYY-MM-DD strings is the shared rules' (addDays, mondayOf); re-exported for the schedule screens.
export { addDays, mondayOf } from '@wantuo/shared';

/** The kind a timetable entry is coloured by: a teaching or tutoring session, or a care class (on duty or as its head). */
export type EntryKind = 'teaching' | 'tutoring' | 'care';

export const KIND_COLOR: Record<EntryKind, { bg: string; border: string; tag: string }> = {
  teaching: { bg: '#e6f4ff', border: '#1677ff', tag: 'blue' },
  tutoring: { bg: '#f9f0ff', border: '#722ed1', tag: 'purple' },
  care: { bg: '#fff7e6', border: '#fa8c16', tag: 'orange' },
};

export const STATE_COLOR: Record<ScheduleEntry['state'], string> = { planned: 'default', held: 'green', cancelled: 'red' };

/** A phone-sized screen (antd's md breakpoint: under 768 px). */
export function useIsPhone(): boolean {
  const screens = Grid.useBreakpoint();
  return screens.md === false;
}

/** ◀ 本周 ▶ with the week's range. */
export function WeekNav({ week, onChange, thisWeek }: { week: string; onChange: (week: string) => void; thisWeek: string }) {
  const s = scheduleStrings.use();
  return (
    <Flex align="center" gap={8} wrap="wrap" data-testid="week-nav">
      <Button size="small" onClick={() => onChange(addDays(week, -7))} aria-label={s('week.prev')}>
        ◀ {s('week.prev')}
      </Button>
      <Button size="small" disabled={week === thisWeek} onClick={() => onChange(thisWeek)}>
        {s('week.this')}
      </Button>
      <Button size="small" onClick={() => onChange(addDays(week, 7))} aria-label={s('week.next')}>
        {s('week.next')} ▶
      </Button>
      <Typography.Text type="secondary" data-testid="week-range">
        {s('week.range', { from: week, to: addDays(week, 6) })}
      </Typography.Text>
    </Flex>
  );
}

/** 放假 / 调休 marks of a day. */
export function DayMarks({ day }: { day: ScheduleDay }) {
  const s = scheduleStrings.use();
  if (!day.calendar) return null;
  const note = day.calendar.note ? ` · ${day.calendar.note}` : '';
  const style = { marginInlineEnd: 0, whiteSpace: 'normal', maxWidth: '100%', textAlign: 'center' } as const;
  return day.calendar.kind === 'holiday' ? (
    <Tag color="red" style={style}>
      {s('day.holiday')}
      {note}
    </Tag>
  ) : (
    <Tag color="cyan" style={style}>
      {s('day.makeup', { wd: s(wdKey(day.calendar.works_as ?? day.weekday)) })}
      {note}
    </Tag>
  );
}

/** The label of an entry's kind: a care class on a teacher's week is their duty there (or the class they head). */
export function kindLabel(s: ReturnType<typeof scheduleStrings.use>, e: { kind: EntryKind; duty?: 'head' | 'duty' }) {
  return e.duty === 'head' ? s('kind.head') : e.duty === 'duty' ? s('kind.duty') : s(`kind.${e.kind}`);
}

/** The colours of the kinds; on a teacher's week (careAsDuty) care classes are their care duty. */
export function KindLegend({ kinds = ['teaching', 'tutoring', 'care'], careAsDuty = false }: { kinds?: EntryKind[]; careAsDuty?: boolean }) {
  const s = scheduleStrings.use();
  return (
    <Flex gap={4} wrap="wrap" align="center">
      {kinds.map((k) => (
        <Tag key={k} color={KIND_COLOR[k].tag}>
          {k === 'care' && careAsDuty ? s('kind.duty') : s(`kind.${k}`)}
        </Tag>
      ))}
    </Flex>
  );
}
