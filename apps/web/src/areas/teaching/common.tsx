import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Divider, Input, Select, Space, Tag } from 'antd';
import type { Clash, SessionState } from '@wantuo/shared';
import { useState } from 'react';
import { useAction } from '../../api/action';
import { ApiError, get } from '../../api/http';
import { queryKey } from '../../api/query';
import { teachingStrings, type TeachingKey } from './strings';

export const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;
export const wdKey = (n: number) => `wd${n}` as TeachingKey;

export const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;
export const toMin = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));
export const toHHMM = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

const STATE_COLOR: Record<SessionState, string> = { planned: 'blue', held: 'green', cancelled: 'default' };

export function SessionStateTag({ state }: { state: SessionState }) {
  const s = teachingStrings.use();
  return <Tag color={STATE_COLOR[state]}>{s(`state.${state}`)}</Tag>;
}

/** The clash list of a refused generation or move: `data.clashes` of the error answer. */
export function clashesOf(err: unknown): Clash[] | null {
  if (!(err instanceof ApiError)) return null;
  const c = (err.data as { clashes?: Clash[] } | null)?.clashes;
  return Array.isArray(c) ? c : null;
}

/** One plain line per clash: who, when, with what and when. */
export function useClashText() {
  const s = teachingStrings.use();
  return (c: Clash) =>
    s('clash.line', {
      kind: s(`clash.${c.kind}`),
      who: c.who_name ?? `#${c.who}`,
      day: c.day,
      start: c.start_time,
      end: c.end_time,
      with: `${s(`src.${c.with.source}`)}「${c.with.label}」`,
      wday: c.with.day,
      wstart: c.with.start_time,
      wend: c.with.end_time,
    });
}

export function ClashList({ clashes, title }: { clashes: Clash[]; title: string }) {
  const text = useClashText();
  return (
    <Alert
      type="error"
      showIcon
      title={title}
      description={
        <ol style={{ margin: 0, paddingInlineStart: 20 }} data-testid="clash-list">
          {clashes.map((c, i) => (
            <li key={i}>{text(c)}</li>
          ))}
        </ol>
      }
    />
  );
}

/** On-job teachers and head teachers (teachersList), searchable. */
export function StaffSelect({
  value,
  onChange,
  current,
}: {
  value?: number;
  onChange?: (v: number) => void;
  current?: { id: number; name: string } | null;
}) {
  const s = teachingStrings.use();
  const [keyword, setKeyword] = useState('');
  const input = { page: 1, limit: 50, job_status: 1, ...(keyword ? { keyword } : {}) } as const;
  const q = useQuery({
    queryKey: queryKey('teachersList', input),
    queryFn: () => get('teachersList', input),
  });
  const options = (q.data?.list ?? []).map((p) => ({ value: p.id, label: p.name }));
  if (current && !options.some((o) => o.value === current.id)) options.unshift({ value: current.id, label: current.name });
  return (
    <Select<number>
      showSearch={{ filterOption: false, onSearch: (v) => setKeyword(v.trim().slice(0, 32)) }}
      loading={q.isLoading}
      placeholder={s('f.teacher_ph')}
      value={value}
      onChange={(v) => onChange?.(v)}
      options={options}
      style={{ width: '100%' }}
    />
  );
}

export const ROOMS_KEY = queryKey('roomList', { page: 1, limit: 100 });

export function useRooms() {
  return useQuery({ queryKey: ROOMS_KEY, queryFn: () => get('roomList', { page: 1, limit: 100 }), staleTime: 30_000 });
}

/** A room select with "add a room" under its options (addRoom), the new room then chosen. */
export function RoomSelect({
  value,
  onChange,
  allowClear = true,
}: {
  value?: number | null;
  onChange?: (v: number | null) => void;
  allowClear?: boolean;
}) {
  const s = teachingStrings.use();
  const client = useQueryClient();
  const rooms = useRooms();
  const [name, setName] = useState('');
  const addRoom = useAction('addRoom', {
    success: (_, i) => s('f.room_added', { name: i.name }),
    // the new room among the options before it is chosen
    onDone: async (room) => {
      setName('');
      await client.invalidateQueries({ queryKey: queryKey('roomList') });
      onChange?.(room.id);
    },
  });
  const busy = addRoom.busy;
  const add = async () => {
    const n = name.trim();
    if (n) await addRoom.run({ name: n });
  };
  return (
    <Select<number>
      allowClear={allowClear}
      loading={rooms.isLoading}
      placeholder={s('f.room_ph')}
      value={value ?? undefined}
      onChange={(v) => onChange?.(v ?? null)}
      options={(rooms.data?.list ?? []).map((r) => ({ value: r.id, label: r.capacity ? `${r.name}（${r.capacity}）` : r.name }))}
      style={{ width: '100%' }}
      popupRender={(menu) => (
        <>
          {menu}
          <Divider style={{ margin: '8px 0' }} />
          <Space.Compact style={{ width: '100%', padding: '0 8px 4px' }}>
            <Input
              placeholder={s('f.room_new')}
              maxLength={30}
              value={name}
              onChange={(e) => setName(e.target.value)}
              onKeyDown={(e) => e.stopPropagation()}
            />
            <Button onClick={() => void add()} loading={busy} disabled={!name.trim()}>
              {s('f.room_add')}
            </Button>
          </Space.Compact>
        </>
      )}
    />
  );
}
