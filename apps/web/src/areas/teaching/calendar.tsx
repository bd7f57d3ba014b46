import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, DatePicker, Flex, Form, Input, Modal, Popconfirm, Radio, Select, Table, Tag } from 'antd';
import { SetSchoolCalendarDayInput, type SchoolCalendarEntry } from '@wantuo/shared';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useAction } from '../../api/action';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { feedback } from '../../api/feedback';
import { zodRule } from '../../forms';
import { EmptyState, LoadError } from '../../components/states';
import { useSchoolToday } from '../../lib/school-time';
import { wdKey } from './common';
import HolidayImport from './holiday-import';
import { teachingStrings } from './strings';

interface DayValues {
  day: Dayjs;
  kind: 'holiday' | 'makeup';
  works_as?: number;
  note?: string;
}

/** The school calendar (holidays and 调休 make-up days) the schedule generator follows: a range, add or replace a day, remove one. */
export default function SchoolCalendar() {
  const s = teachingStrings.use();
  const today = useSchoolToday();
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => [dayjs(today).startOf('month'), dayjs(today).add(6, 'month').endOf('month')]);
  const [adding, setAdding] = useState(false);
  const from = range[0].format('YYYY-MM-DD');
  const to = range[1].format('YYYY-MM-DD');
  const q = useQuery({ queryKey: queryKey('schoolCalendar', { from, to }), queryFn: () => get('schoolCalendar', { from, to }) });
  // a refusal is shown by the request wrapper; the calendar is read again either way
  const del = useAction('delSchoolCalendarDay', { success: s('saved'), onDone: () => void q.refetch(), onError: () => void q.refetch() });
  const remove = (day: string) => del.run({ day });
  return (
    <Card title={s('tab.calendar')}>
      <Alert type="info" showIcon title={s('cal.hint')} style={{ marginBottom: 16 }} />
      <Flex wrap gap={8} justify="space-between" style={{ marginBottom: 16 }}>
        <DatePicker.RangePicker
          inputReadOnly
          allowClear={false}
          value={range}
          onChange={(v) => v?.[0] && v[1] && v[1].diff(v[0], 'day') <= 400 && setRange([v[0], v[1]])}
        />
        <Flex wrap gap={8}>
          <HolidayImport onImported={() => void q.refetch()} />
          <Button type="primary" onClick={() => setAdding(true)}>
            {s('cal.add')}
          </Button>
        </Flex>
      </Flex>
      {q.isError ? (
        <LoadError onRetry={() => void q.refetch()} />
      ) : (
        <Table<SchoolCalendarEntry>
          rowKey="day"
          size="small"
          loading={q.isLoading}
          dataSource={q.data?.list}
          pagination={{ pageSize: 20, hideOnSinglePage: true, showSizeChanger: false }}
          locale={{ emptyText: <EmptyState description={s('cal.empty')} /> }}
          columns={[
            { title: s('cal.day'), dataIndex: 'day', width: 120 },
            { title: s('col.weekday'), key: 'w', width: 80, render: (_, r) => s(wdKey(dayjs(r.day).day() || 7)) },
            {
              title: s('cal.kind'),
              key: 'k',
              width: 200,
              render: (_, r) =>
                r.kind === 'holiday' ? (
                  <Tag color="red">{s('cal.holiday')}</Tag>
                ) : (
                  <Tag color="orange">{s('move.makeup', { wd: s(wdKey(r.works_as ?? 1)) })}</Tag>
                ),
            },
            { title: s('cal.note'), dataIndex: 'note', render: (v: string | null) => v ?? '-' },
            {
              title: s('col.actions'),
              key: 'a',
              width: 90,
              render: (_, r) => (
                <Popconfirm title={s('cal.remove_confirm', { day: r.day })} onConfirm={() => remove(r.day)}>
                  <Button size="small" disabled={del.busy} loading={del.busy && del.input?.day === r.day}>
                    {s('cal.remove')}
                  </Button>
                </Popconfirm>
              ),
            },
          ]}
        />
      )}
      {adding && (
        <DayDialog
          onClose={() => setAdding(false)}
          onSaved={() => {
            setAdding(false);
            void q.refetch();
          }}
        />
      )}
    </Card>
  );
}

function DayDialog({ onClose, onSaved }: { onClose: () => void; onSaved: () => void }) {
  const s = teachingStrings.use();
  const [form] = Form.useForm<DayValues>();
  const kind = Form.useWatch('kind', form);
  const save = useAction('setSchoolCalendarDay', {
    onDone: (a) => {
      if (a.sessions_on_day > 0 && a.kind === 'holiday') feedback().message.info(s('cal.sessions_on_day', { n: a.sessions_on_day }));
      else feedback().message.success(s('saved'));
      onSaved();
    },
  });
  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return; // the form shows its fields' errors
    await save.run({
      day: v.day.format('YYYY-MM-DD'),
      kind: v.kind,
      works_as: v.kind === 'makeup' ? v.works_as : null,
      ...(v.note?.trim() ? { note: v.note.trim() } : {}),
    });
  };
  return (
    <Modal open title={s('cal.add')} onCancel={onClose} onOk={() => void submit()} okButtonProps={{ loading: save.busy }}>
      <Form<DayValues> form={form} layout="vertical" initialValues={{ kind: 'holiday' }}>
        <Form.Item name="day" label={s('cal.day')} rules={[{ required: true, message: s('required') }]}>
          <DatePicker inputReadOnly />
        </Form.Item>
        <Form.Item name="kind" label={s('cal.kind')}>
          <Radio.Group
            options={[
              { value: 'holiday', label: s('cal.holiday') },
              { value: 'makeup', label: s('cal.makeup') },
            ]}
          />
        </Form.Item>
        {kind === 'makeup' && (
          <Form.Item name="works_as" label={s('cal.works_as')} extra={s('cal.works_as_hint')} rules={[{ required: true, message: s('required') }]}>
            <Select options={[1, 2, 3, 4, 5].map((d) => ({ value: d, label: s(wdKey(d)) }))} style={{ width: 120 }} />
          </Form.Item>
        )}
        <Form.Item name="note" label={s('cal.note')} rules={zodRule(SetSchoolCalendarDayInput, 'note', s('cal.note'))}>
          <Input maxLength={50} placeholder={s('cal.note_ph')} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
