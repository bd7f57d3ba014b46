import { Card, Flex, List, Segmented, Tag, Typography } from 'antd';
import type { ScheduleDay, ScheduleEntry } from '@wantuo/shared';
import { lazy, Suspense, useState } from 'react';
import { EmptyState, Loading } from '../../components/states';
import { DayMarks, KIND_COLOR, kindLabel, STATE_COLOR, useIsPhone, wdKey } from './common';
import { scheduleStrings } from './strings';

/** An entry of a week view: a session or a care slot, with the teacher's part in a care class where it has one. */
export type ViewEntry = ScheduleEntry & { duty?: 'head' | 'duty' };
export type ViewDay = ScheduleDay & { entries: ViewEntry[] };

export interface WeekViewProps {
  days: ViewDay[];
  today: string;
  /** a tap on an entry (the pages decide what it opens) */
  onEntry?: (entry: ViewEntry) => void;
  /** entries a tap does something for (drawn as buttons) */
  tappable?: (entry: ViewEntry) => boolean;
}

const WeekCalendar = lazy(() => import('./week-calendar'));

/** A week of entries: the calendar's week grid on a desktop, one day at a time as a list on a phone. */
export function WeekView(props: WeekViewProps) {
  const phone = useIsPhone();
  if (phone) return <DayList {...props} />;
  return (
    <Suspense fallback={<Loading />}>
      <WeekCalendar {...props} />
    </Suspense>
  );
}

export function entryTitle(e: ViewEntry, s: ReturnType<typeof scheduleStrings.use>) {
  return e.class_name ?? s(`kind.${e.kind}`);
}

function DayList({ days, today, onEntry, tappable }: WeekViewProps) {
  const s = scheduleStrings.use();
  const initial = days.find((d) => d.day === today)?.day ?? days[0]?.day;
  const [picked, setPicked] = useState(initial);
  const day = days.find((d) => d.day === picked) ?? days[0];
  if (!day) return <EmptyState description={s('week.empty')} />;
  return (
    <Flex vertical gap={8}>
      <Segmented
        block
        size="small"
        value={day.day}
        onChange={(v) => setPicked(v)}
        options={days.map((d) => ({
          value: d.day,
          label: (
            <div style={{ lineHeight: 1.2, padding: '2px 0' }} data-testid={`day-chip-${d.day}`}>
              <div>{s(wdKey(d.weekday))}</div>
              <div style={{ fontSize: 11, color: d.calendar?.kind === 'holiday' ? '#cf1322' : undefined }}>
                {d.day.slice(8)}
                {d.entries.length > 0 ? '•' : ''}
              </div>
            </div>
          ),
        }))}
      />
      <Card size="small" styles={{ body: { padding: 8 } }} data-testid={`day-${day.day}`}>
        <Flex gap={6} align="center" wrap="wrap" style={{ marginBottom: 4 }}>
          <Typography.Text strong>
            {s(wdKey(day.weekday))} {day.day}
          </Typography.Text>
          {day.day === today && <Tag color="gold">{s('day.today')}</Tag>}
          <DayMarks day={day} />
        </Flex>
        {day.entries.length === 0 ? (
          <EmptyState description={s('day.empty')} />
        ) : (
          <List
            dataSource={day.entries}
            renderItem={(e) => {
              const tap = tappable?.(e) ?? false;
              return (
                <List.Item
                  style={{
                    padding: '6px 8px',
                    marginBottom: 6,
                    borderInlineStart: `4px solid ${KIND_COLOR[e.kind].border}`,
                    background: KIND_COLOR[e.kind].bg,
                    borderRadius: 6,
                    cursor: tap ? 'pointer' : undefined,
                  }}
                  onClick={tap ? () => onEntry?.(e) : undefined}
                  data-testid="schedule-entry"
                  role={tap ? 'button' : undefined}
                >
                  <Flex vertical style={{ minWidth: 0, width: '100%' }}>
                    <Flex justify="space-between" gap={4} wrap="wrap">
                      <Typography.Text strong ellipsis style={{ maxWidth: '100%' }}>
                        {e.start_time}-{e.end_time} {entryTitle(e, s)}
                      </Typography.Text>
                      <span>
                        <Tag color={KIND_COLOR[e.kind].tag}>{kindLabel(s, e)}</Tag>
                        {e.id !== null && <Tag color={STATE_COLOR[e.state]}>{s(`state.${e.state}`)}</Tag>}
                      </span>
                    </Flex>
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {[e.room_name, e.teacher_name].filter(Boolean).join(' · ')}
                    </Typography.Text>
                  </Flex>
                </List.Item>
              );
            }}
          />
        )}
      </Card>
    </Flex>
  );
}
