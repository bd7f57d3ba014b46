import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, DatePicker, Flex, Form, Input, List, Modal, Segmented, Space, Tag, Typography } from 'antd';
import type { Clash, GetAction, PostAction, SessionState, TeachingSession } from '@wantuo/shared';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useAction } from '../../api/action';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { feedback } from '../../api/feedback';
import { ServerTable } from '../../components/server-table';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { ClashList, clashesOf, HHMM, RoomSelect, SessionStateTag, toHHMM, toMin, wdKey } from './common';
import { teachingStrings } from './strings';

const PAGE = 20;
type StateFilter = SessionState | 'all';
/** A teaching class's sessions or a tutoring class's: the same rows, their own list, move and cancel actions. */
export type SessionKind = 'teaching' | 'tutoring';
const ACTIONS = {
  teaching: { list: 'teachingClassScheduling', move: 'moveTeachingSession', cancel: 'cancelTeachingSession' },
  tutoring: { list: 'tutorialScheduling', move: 'tutorialChangeScheduling', cancel: 'cancelTutorialSession' },
} as const satisfies Record<SessionKind, { list: GetAction; move: PostAction; cancel: PostAction }>;
type Actions = (typeof ACTIONS)[SessionKind];

/** A class's sessions (teachingClassScheduling or tutorialScheduling) with their state and roll call; move or cancel a planned one. */
export function SessionsTab({ cls, onChanged, kind = 'teaching' }: { cls: { id: number }; onChanged: () => void; kind?: SessionKind }) {
  const s = teachingStrings.use();
  const [state, setState] = useState<StateFilter>('all');
  const [page, setPage] = useState(1);
  const [moving, setMoving] = useState<TeachingSession | null>(null);
  const [cancelling, setCancelling] = useState<TeachingSession | null>(null);
  const input = { class_id: cls.id, page, limit: PAGE, ...(state === 'all' ? {} : { state }) };
  const q = useQuery({
    queryKey: queryKey(ACTIONS[kind].list, input),
    queryFn: () => get(ACTIONS[kind].list, input),
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <Segmented<StateFilter>
        style={{ marginBottom: 12 }}
        value={state}
        onChange={(v) => {
          setState(v);
          setPage(1);
        }}
        options={(['all', 'planned', 'held', 'cancelled'] as StateFilter[]).map((k) => ({
          value: k,
          label: k === 'all' ? s('ses.all') : s(`state.${k}`),
        }))}
      />
      <ServerTable<TeachingSession>
        query={q}
        page={page}
        onPage={setPage}
        pageSize={PAGE}
        scroll={{ x: 900 }}
        locale={{ emptyText: <EmptyState description={s('ses.empty')} /> }}
        columns={[
          { title: s('col.lesson'), dataIndex: 'lesson_no', width: 90, render: (v: number | null) => v ?? '-' },
          { title: s('col.day'), dataIndex: 'day', width: 110 },
          {
            title: s('col.weekday'),
            key: 'weekday',
            width: 130,
            render: (_, r) => {
              const own = dayjs(r.day).day() || 7;
              return own === r.weekday ? s(wdKey(own)) : <Tag color="orange">{s('col.runs_as', { wd: s(wdKey(own)), as: s(wdKey(r.weekday)) })}</Tag>;
            },
          },
          { title: s('col.time'), key: 't', width: 110, render: (_, r) => `${r.start_time}-${r.end_time}` },
          { title: s('col.room'), dataIndex: 'room_name', width: 100, render: (v: string | null) => v ?? '-' },
          { title: s('col.teacher'), dataIndex: 'teacher_name', width: 90 },
          {
            title: s('col.state'),
            key: 'state',
            width: 160,
            render: (_, r) => (
              <Space direction="vertical" size={0}>
                <SessionStateTag state={r.state} />
                {r.cancel_reason && (
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {r.cancel_reason}
                  </Typography.Text>
                )}
              </Space>
            ),
          },
          { title: s('col.roll'), key: 'roll', width: 160, render: (_, r) => (r.roll_call ? s('ses.roll', r.roll_call) : '-') },
          {
            title: s('col.actions'),
            key: 'a',
            fixed: 'right',
            width: 130,
            render: (_, r) =>
              r.state === 'planned' ? (
                <Space size={4}>
                  <Button size="small" onClick={() => setMoving(r)}>
                    {s('ses.move')}
                  </Button>
                  <Button size="small" danger onClick={() => setCancelling(r)}>
                    {s('ses.cancel')}
                  </Button>
                </Space>
              ) : null,
          },
        ]}
      />
      {moving && (
        <MoveDialog
          session={moving}
          action={ACTIONS[kind].move}
          onClose={() => setMoving(null)}
          onMoved={() => {
            setMoving(null);
            void q.refetch();
            onChanged();
          }}
        />
      )}
      {cancelling && (
        <CancelDialog
          session={cancelling}
          action={ACTIONS[kind].cancel}
          onClose={() => setCancelling(null)}
          onDone={() => {
            setCancelling(null);
            void q.refetch();
            onChanged();
          }}
        />
      )}
    </>
  );
}

function CancelDialog({
  session,
  action,
  onClose,
  onDone,
}: {
  session: TeachingSession;
  action: Actions['cancel'];
  onClose: () => void;
  onDone: () => void;
}) {
  const s = teachingStrings.use();
  const [form] = Form.useForm<{ reason: string }>();
  const cancel = useAction(action, { success: s('ses.cancelled'), onDone });
  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return; // the form shows its fields' errors
    await cancel.run({ id: session.id, version: session.version, reason: v.reason.trim() });
  };
  return (
    <Modal
      open
      title={s('ses.cancel_title', { day: session.day, start: session.start_time, end: session.end_time })}
      onCancel={onClose}
      okText={s('ses.cancel_ok')}
      okButtonProps={{ danger: true, loading: cancel.busy }}
      onOk={() => void submit()}
    >
      <Form form={form} layout="vertical">
        <Form.Item
          name="reason"
          label={s('ses.cancel_reason')}
          rules={[{ required: true, whitespace: true, min: 2, max: 200, message: s('ses.cancel_reason_rule') }]}
        >
          <Input.TextArea rows={2} maxLength={200} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

interface MoveValues {
  day: Dayjs;
  start_time: string;
  end_time: string;
  room_id: number | null;
}

/** Moving one session: the week's free windows of its teacher and room (teachingClassChangeScheduling), then the move (moveTeachingSession or tutorialChangeScheduling) on the version read. */
function MoveDialog({
  session,
  action,
  onClose,
  onMoved,
}: {
  session: TeachingSession;
  action: Actions['move'];
  onClose: () => void;
  onMoved: () => void;
}) {
  const s = teachingStrings.use();
  const [week, setWeek] = useState<string | null>(null);
  const [form] = Form.useForm<MoveValues>();
  const [refused, setRefused] = useState<Clash[] | null>(null);
  // silent: a clash is listed in the dialog, any other refusal shown here
  const move = useAction(action, {
    silent: true,
    success: (_, i) => s('move.done', { day: i.day, start: i.start_time, end: i.end_time }),
    onDone: onMoved,
    onError: (err) => {
      const clashes = clashesOf(err);
      if (clashes) setRefused(clashes);
      else feedback().message.error(err.message);
    },
  });
  const q = useQuery({
    queryKey: queryKey('teachingClassChangeScheduling', { id: session.id, ...(week ? { week } : {}) }),
    queryFn: () => get('teachingClassChangeScheduling', { id: session.id, ...(week ? { week } : {}) }),
    placeholderData: keepPreviousData,
  });
  const length = toMin(session.end_time) - toMin(session.start_time);
  const shift = (weeks: number) => q.data && setWeek(dayjs(q.data.week).add(weeks, 'week').format('YYYY-MM-DD'));
  const pick = (day: string, start: string) => {
    const end = toMin(start) + length;
    form.setFieldsValue({ day: dayjs(day), start_time: start, end_time: toHHMM(end) });
    setRefused(null);
  };
  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return; // the form shows its fields' errors
    setRefused(null);
    await move.run({
      id: session.id,
      version: session.version,
      day: v.day.format('YYYY-MM-DD'),
      start_time: v.start_time,
      end_time: v.end_time,
      room_id: v.room_id ?? null,
    });
  };
  return (
    <Modal
      open
      width={760}
      title={s('move.title', { no: session.lesson_no ?? '-', day: session.day, start: session.start_time, end: session.end_time })}
      onCancel={onClose}
      okText={s('move.ok')}
      okButtonProps={{ loading: move.busy }}
      onOk={() => void submit()}
    >
      {q.isLoading ? (
        <Loading />
      ) : q.isError || !q.data ? (
        <LoadError onRetry={() => void q.refetch()} />
      ) : (
        <>
          <Flex justify="space-between" align="center" style={{ marginBottom: 8 }}>
            <Button size="small" onClick={() => shift(-1)}>
              {s('move.prev')}
            </Button>
            <Typography.Text strong>
              {s('move.week', { from: q.data.week, to: dayjs(q.data.week).add(6, 'day').format('YYYY-MM-DD') })}
            </Typography.Text>
            <Button size="small" onClick={() => shift(1)}>
              {s('move.next')}
            </Button>
          </Flex>
          <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
            {s('move.pick_hint')}
            {q.data.days.some((d) => d.offered !== null) ? ` ${s('move.offered_hint')}` : ` ${s('move.no_availability')}`}
            {q.data.availability_note ? ` ${s('move.teacher_note', { note: q.data.availability_note })}` : ''}
          </Typography.Paragraph>
          <List
            size="small"
            bordered
            style={{ marginBottom: 16 }}
            dataSource={q.data.days}
            renderItem={(d) => (
              <List.Item data-testid={`move-day-${d.day}`}>
                <Flex vertical gap={4} style={{ width: '100%' }}>
                  <Space wrap size={4}>
                    <Typography.Text strong>{`${d.day} ${s(wdKey(dayjs(d.day).day() || 7))}`}</Typography.Text>
                    {d.calendar?.kind === 'holiday' && (
                      <Tag color="red">{`${s('move.holiday')}${d.calendar.note ? `：${d.calendar.note}` : ''}`}</Tag>
                    )}
                    {d.calendar?.kind === 'makeup' && d.weekday && <Tag color="orange">{s('move.makeup', { wd: s(wdKey(d.weekday)) })}</Tag>}
                  </Space>
                  {d.weekday !== null && d.offered !== null && (
                    <Space wrap size={4} data-testid="move-suggested">
                      <Typography.Text type="secondary">{s('move.suggested')}：</Typography.Text>
                      {d.suggested.length === 0 ? (
                        <Typography.Text type="secondary">{d.offered.length === 0 ? s('move.not_offered') : s('move.no_free')}</Typography.Text>
                      ) : (
                        d.suggested.map((w) => (
                          <Button key={w.start_time} size="small" type="primary" ghost onClick={() => pick(d.day, w.start_time)}>
                            {`${w.start_time}-${w.end_time}`}
                          </Button>
                        ))
                      )}
                    </Space>
                  )}
                  {d.weekday !== null && (
                    <Space wrap size={4}>
                      <Typography.Text type="secondary">{s('move.free')}：</Typography.Text>
                      {d.free.length === 0 ? (
                        <Typography.Text type="secondary">{s('move.no_free')}</Typography.Text>
                      ) : (
                        d.free.map((w) => (
                          <Button key={w.start_time} size="small" type="dashed" onClick={() => pick(d.day, w.start_time)}>
                            {`${w.start_time}-${w.end_time}`}
                          </Button>
                        ))
                      )}
                    </Space>
                  )}
                  {(d.teacher_busy.length > 0 || d.room_busy.length > 0) && (
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {[
                        ...d.teacher_busy.map((b) => `${s('move.teacher_busy')} ${b.start_time}-${b.end_time} ${b.label}`),
                        ...d.room_busy.map((b) => `${s('move.room_busy')} ${b.start_time}-${b.end_time} ${b.label}`),
                      ].join('；')}
                    </Typography.Text>
                  )}
                </Flex>
              </List.Item>
            )}
          />
        </>
      )}
      <Form<MoveValues>
        form={form}
        layout="inline"
        initialValues={{ day: dayjs(session.day), start_time: session.start_time, end_time: session.end_time, room_id: session.room_id }}
        onValuesChange={() => setRefused(null)}
      >
        <Form.Item name="day" label={s('move.day')} rules={[{ required: true, message: s('required') }]}>
          <DatePicker inputReadOnly allowClear={false} />
        </Form.Item>
        <Form.Item name="start_time" label={s('move.start')} rules={[{ required: true, pattern: HHMM, message: s('gen.time_rule') }]}>
          <Input maxLength={5} style={{ width: 72 }} />
        </Form.Item>
        <Form.Item
          name="end_time"
          label={s('move.end')}
          dependencies={['start_time']}
          rules={[
            { required: true, pattern: HHMM, message: s('gen.time_rule') },
            ({ getFieldValue }) => ({
              validator: (_, v: string | undefined) => {
                const start = getFieldValue('start_time') as string | undefined;
                return !v || !start || !HHMM.test(v) || !HHMM.test(start) || toMin(start) < toMin(v)
                  ? Promise.resolve()
                  : Promise.reject(new Error(s('gen.order_rule')));
              },
            }),
          ]}
        >
          <Input maxLength={5} style={{ width: 72 }} />
        </Form.Item>
        <Form.Item name="room_id" label={s('move.room')} style={{ minWidth: 200 }}>
          <RoomSelect />
        </Form.Item>
      </Form>
      {refused && (
        <div style={{ marginTop: 16 }}>
          <ClashList title={s('move.refused', { n: refused.length })} clashes={refused} />
        </div>
      )}
    </Modal>
  );
}
