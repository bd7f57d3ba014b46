import { useQuery } from '@tanstack/react-query';
import { Card, Flex, Typography } from 'antd';
import type { TeacherScheduleAnswer } from '@wantuo/shared';
import { useState } from 'react';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { LoadError, Loading } from '../../components/states';
import { useSchoolToday } from '../../lib/school-time';
import { AvailabilityForm } from './availability-form';
import { KindLegend, mondayOf, WeekNav } from './common';
import { RollCallDrawer, type RollCallEntry } from './roll-call-drawer';
import { scheduleStrings } from './strings';
import { WeekView, type ViewDay, type ViewEntry } from './week-view';

/** The caller's week as view days: their sessions and the care classes they head or are on duty in, by start. */
export function teacherDays(a: TeacherScheduleAnswer): ViewDay[] {
  return a.days.map((d) => ({ ...d, entries: [...d.sessions, ...d.care].sort((x, y) => x.start_time.localeCompare(y.start_time)) }));
}

export function useTeacherWeek() {
  const today = useSchoolToday();
  const thisWeek = mondayOf(today);
  const [week, setWeek] = useState(thisWeek);
  const q = useQuery({ queryKey: queryKey('teacherSchedule', { week }), queryFn: () => get('teacherSchedule', { week }) });
  return { today, thisWeek, week, setWeek, q };
}

/** The teacher's own week with roll call from today's sessions and their availability below (works at 375 px as a day list). */
export function MyWeek({ title }: { title: string }) {
  const s = scheduleStrings.use();
  const { today, thisWeek, week, setWeek, q } = useTeacherWeek();
  const [calling, setCalling] = useState<RollCallEntry | null>(null);
  const tappable = (e: ViewEntry) => e.id !== null && e.kind !== 'care' && e.day === today && e.state !== 'cancelled';
  return (
    <Flex vertical gap={12}>
      <Card size="small" title={title} styles={{ body: { padding: 12 } }}>
        <Flex vertical gap={8}>
          <WeekNav week={week} thisWeek={thisWeek} onChange={setWeek} />
          <Flex gap={8} wrap="wrap" align="center">
            <KindLegend careAsDuty />
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {s('tap.rollcall')}
            </Typography.Text>
          </Flex>
          {q.isLoading ? (
            <Loading />
          ) : q.isError || !q.data ? (
            <LoadError onRetry={() => void q.refetch()} />
          ) : (
            <>
              {q.data.days.every((d) => d.sessions.length + d.care.length === 0) && (
                <Typography.Text type="secondary">{s('week.empty')}</Typography.Text>
              )}
              <WeekView
                days={teacherDays(q.data)}
                today={today}
                tappable={tappable}
                onEntry={(e) => {
                  if (e.id !== null) setCalling({ ...e, id: e.id });
                }}
              />
            </>
          )}
        </Flex>
      </Card>
      {q.data && <AvailabilityForm key={q.data.availability.version} availability={q.data.availability} />}
      {calling && <RollCallDrawer entry={calling} onClose={() => setCalling(null)} onSaved={() => void q.refetch()} />}
    </Flex>
  );
}

/** /Teacher_classSchedule */
export default function TeacherSchedulePage() {
  const s = scheduleStrings.use();
  return <MyWeek title={s('mine.title')} />;
}
