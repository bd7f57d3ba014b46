import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Flex, Input, Select, Typography } from 'antd';
import type { AvailabilityWindow, TeacherAvailability } from '@wantuo/shared';
import { useState } from 'react';
import { useAction } from '../../api/action';
import { queryKey } from '../../api/query';
import { useSchoolClock } from '../../lib/school-time';
import { wdKey } from './common';
import { scheduleStrings } from './strings';

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

/** The teacher's weekly availability windows and note (teacherSchedule POST with the version read). */
export function AvailabilityForm({ availability }: { availability: TeacherAvailability }) {
  const s = scheduleStrings.use();
  const clock = useSchoolClock();
  const qc = useQueryClient();
  const [windows, setWindows] = useState<AvailabilityWindow[]>(availability.windows);
  const [note, setNote] = useState(availability.note);
  // a refusal is shown by the request wrapper (a stale version says so)
  const saving = useAction('teacherSchedule', {
    success: s('avail.saved'),
    onDone: () => qc.invalidateQueries({ queryKey: queryKey('teacherSchedule') }),
  });
  const busy = saving.busy;
  const bad = windows.some((w) => !HHMM.test(w.start_time) || !HHMM.test(w.end_time));
  const set = (i: number, patch: Partial<AvailabilityWindow>) => setWindows((ws) => ws.map((w, j) => (j === i ? { ...w, ...patch } : w)));
  const save = () => saving.run({ windows, note, version: availability.version });
  return (
    <Card size="small" title={s('avail.title')} data-testid="availability" styles={{ body: { padding: 12 } }}>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        {s('avail.hint')}
      </Typography.Paragraph>
      <Flex vertical gap={6}>
        {windows.length === 0 && <Typography.Text type="secondary">{s('avail.none')}</Typography.Text>}
        {windows.map((w, i) => (
          <Flex key={i} gap={4} align="center" wrap="wrap">
            <Select
              size="small"
              style={{ width: 76 }}
              value={w.weekday}
              onChange={(v) => set(i, { weekday: v })}
              options={[1, 2, 3, 4, 5, 6, 7].map((n) => ({ value: n, label: s(wdKey(n)) }))}
              aria-label="weekday"
            />
            <Input
              size="small"
              style={{ width: 72 }}
              value={w.start_time}
              placeholder={s('avail.start')}
              aria-label={s('avail.start')}
              status={HHMM.test(w.start_time) ? undefined : 'error'}
              onChange={(e) => set(i, { start_time: e.target.value })}
            />
            <span>-</span>
            <Input
              size="small"
              style={{ width: 72 }}
              value={w.end_time}
              placeholder={s('avail.end')}
              aria-label={s('avail.end')}
              status={HHMM.test(w.end_time) ? undefined : 'error'}
              onChange={(e) => set(i, { end_time: e.target.value })}
            />
            <Button size="small" type="link" danger onClick={() => setWindows((ws) => ws.filter((_, j) => j !== i))}>
              {s('avail.remove')}
            </Button>
          </Flex>
        ))}
        {bad && <Typography.Text type="danger">{s('avail.time_bad')}</Typography.Text>}
        <Button
          size="small"
          style={{ alignSelf: 'flex-start' }}
          onClick={() => setWindows((ws) => [...ws, { weekday: 1, start_time: '16:00', end_time: '18:00' }])}
        >
          + {s('avail.add')}
        </Button>
        <Input.TextArea
          rows={2}
          maxLength={500}
          value={note}
          placeholder={s('avail.note')}
          aria-label={s('avail.note')}
          onChange={(e) => setNote(e.target.value)}
        />
        <Flex justify="space-between" align="center" gap={8} wrap="wrap">
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {availability.updated_at ? s('avail.updated', { at: clock.dateTime(availability.updated_at) }) : ''}
          </Typography.Text>
          <Button type="primary" size="small" loading={busy} disabled={bad} onClick={() => void save()}>
            {s('avail.save')}
          </Button>
        </Flex>
      </Flex>
    </Card>
  );
}
