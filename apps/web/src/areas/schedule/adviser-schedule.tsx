import { useQuery } from '@tanstack/react-query';
import { Card, Flex, Segmented, Select, Typography } from 'antd';
import { Role, type ScheduleClassKind } from '@wantuo/shared';
import { useState } from 'react';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { useSchoolToday } from '../../lib/school-time';
import { useSession } from '../../stores/session';
import { KindLegend, mondayOf, WeekNav } from './common';
import { scheduleStrings } from './strings';
import { MyWeek } from './teacher-schedule';
import { WeekView } from './week-view';

/** /AClassSchedule: the head teacher's class week (classSchedule) and their own week (teacherSchedule) with availability. */
export default function AdviserSchedulePage() {
  const s = scheduleStrings.use();
  const [tab, setTab] = useState<'class' | 'mine'>('class');
  return (
    <Flex vertical gap={12}>
      <Segmented
        value={tab}
        onChange={(v) => setTab(v as 'class' | 'mine')}
        options={[
          { value: 'class', label: s('class.title') },
          { value: 'mine', label: s('mine.title') },
        ]}
      />
      {tab === 'class' ? <ClassWeek /> : <MyWeek title={s('mine.title')} />}
    </Flex>
  );
}

/**
 * The classes whose week may be shown: the admin every running care and teaching class of the school (classList,
 * teachingClassList), a head teacher their own (teacherSchedule's classes).
 */
function useScheduleClasses(thisWeek: string) {
  const admin = useSession((x) => x.user?.role) === Role.Admin;
  return useQuery({
    queryKey: ['scheduleClasses', admin, admin ? null : thisWeek],
    queryFn: async (): Promise<Array<{ kind: ScheduleClassKind; id: number; name: string }>> => {
      if (!admin) return (await get('teacherSchedule', { week: thisWeek })).classes;
      const [care, teaching] = await Promise.all([
        get('classList', { page: 1, limit: 100, status: 1 }),
        get('teachingClassList', { page: 1, limit: 100, status: 1 }),
      ]);
      return [
        ...care.list.map((c) => ({ kind: 'care' as const, id: c.id, name: c.name })),
        ...teaching.list.map((c) => ({ kind: 'teaching' as const, id: c.id, name: c.name })),
      ];
    },
  });
}

/** A class's week (classSchedule) with the class picker: /AClassSchedule's first tab, and /principal_class_schedule. */
export function ClassWeek() {
  const s = scheduleStrings.use();
  const today = useSchoolToday();
  const thisWeek = mondayOf(today);
  const [week, setWeek] = useState(thisWeek);
  const [picked, setPicked] = useState<string | null>(null);
  const mine = useScheduleClasses(thisWeek);
  const classes = mine.data ?? [];
  const current = classes.find((c) => `${c.kind}:${c.id}` === picked) ?? classes[0];
  const q = useQuery({
    queryKey: queryKey('classSchedule', current && { kind: current.kind, class_id: current.id, week }),
    queryFn: () => get('classSchedule', { kind: current!.kind, class_id: current!.id, week }),
    enabled: !!current,
  });
  const slot = q.data?.class.time_slot;
  return (
    <Card size="small" title={s('class.title')} styles={{ body: { padding: 12 } }}>
      {mine.isLoading ? (
        <Loading />
      ) : mine.isError ? (
        <LoadError onRetry={() => void mine.refetch()} />
      ) : !current ? (
        <EmptyState description={s('class.none')} />
      ) : (
        <Flex vertical gap={8}>
          <Select
            style={{ width: '100%', maxWidth: 360 }}
            aria-label={s('class.pick')}
            value={`${current.kind}:${current.id}`}
            onChange={setPicked}
            options={classes.map((c) => ({
              value: `${c.kind}:${c.id}`,
              label: `${c.name}（${s(c.kind === 'care' ? 'kind.care' : 'kind.teaching')}）`,
            }))}
          />
          <WeekNav week={week} thisWeek={thisWeek} onChange={setWeek} />
          <KindLegend kinds={[current.kind]} />
          {slot && (
            <Typography.Text type="secondary">{s('class.slot', { name: slot.name, start: slot.start_time, end: slot.end_time })}</Typography.Text>
          )}
          {q.isLoading ? (
            <Loading />
          ) : q.isError || !q.data ? (
            <LoadError onRetry={() => void q.refetch()} />
          ) : (
            <>
              {q.data.days.every((d) => d.sessions.length === 0) && <Typography.Text type="secondary">{s('week.empty')}</Typography.Text>}
              <WeekView days={q.data.days.map((d) => ({ ...d, entries: d.sessions }))} today={today} />
            </>
          )}
        </Flex>
      )}
    </Card>
  );
}
