import { Alert, Button, DatePicker, Flex, Form, Input, Select, Space, Table, Tag, Typography } from 'antd';
import type { AddTutorialSchoolCareAnswer, CourseSchedulingAnswer, CourseSchedulingInput, Clash } from '@wantuo/shared';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useAction } from '../../api/action';
import { feedback } from '../../api/feedback';
import { useSchoolToday } from '../../lib/school-time';
import { ClashList, clashesOf, HHMM, toMin, WEEKDAYS, wdKey } from './common';
import { teachingStrings } from './strings';

interface GenValues {
  pattern: Array<{ weekday: number; start_time: string; end_time: string }>;
  range: [Dayjs, Dayjs];
}

const inputOf = (classId: number, v: GenValues, preview: boolean): CourseSchedulingInput => ({
  class_id: classId,
  from: v.range[0].format('YYYY-MM-DD'),
  to: v.range[1].format('YYYY-MM-DD'),
  pattern: v.pattern.map((p) => ({ weekday: p.weekday, start_time: p.start_time, end_time: p.end_time })),
  preview,
});

/**
 * The schedule generator of a teaching class: weekly pattern and date range, a preview (the sessions to create, the
 * days skipped for holidays and make-up swaps, every clash named), then the generation itself (all or nothing).
 */
export function ScheduleGenerator({ classId, onWritten }: { classId: number; onWritten?: (n: number) => void }) {
  const s = teachingStrings.use();
  const today = useSchoolToday();
  const [form] = Form.useForm<GenValues>();
  const [preview, setPreview] = useState<CourseSchedulingAnswer | null>(null);
  const [refused, setRefused] = useState<Clash[] | null>(null);
  // the preview's refusal is shown by the request wrapper, its clashes listed too
  const previewing = useAction('teachingClassCourseScheduling', {
    onDone: (answer) => setPreview(answer),
    onError: (err) => setRefused(clashesOf(err)),
  });
  // the write is silent: its clashes listed, any other refusal shown here
  const writing = useAction('teachingClassCourseScheduling', {
    silent: true,
    success: (answer) => s('gen.written', { n: answer.written }),
    onDone: (answer) => {
      setPreview(null);
      onWritten?.(answer.written);
    },
    onError: (err) => {
      const clashes = clashesOf(err);
      if (clashes) setRefused(clashes);
      else feedback().message.error(err.message);
    },
  });
  const busy = previewing.busy ? 'preview' : writing.busy ? 'write' : null;

  const run = async (write: boolean) => {
    // a form that fails validation shows its fields' errors; nothing to send (its rejection is not an error to report)
    const v = await form.validateFields().catch(() => null);
    if (!v || busy) return;
    setRefused(null);
    await (write ? writing : previewing).run(inputOf(classId, v, !write));
  };

  return (
    <Flex vertical gap={16}>
      <Form<GenValues>
        form={form}
        layout="vertical"
        style={{ maxWidth: 640 }}
        initialValues={{
          pattern: [{ weekday: 2, start_time: '16:30', end_time: '17:30' }],
          range: [dayjs(today).add(1, 'day'), dayjs(today).add(8, 'week')],
        }}
        onValuesChange={() => {
          setPreview(null);
          setRefused(null);
        }}
      >
        <PatternFields />
        <Space wrap>
          <Button onClick={() => void run(false)} loading={busy === 'preview'}>
            {s('gen.preview')}
          </Button>
          <Button
            type="primary"
            disabled={!preview || preview.clashes.length > 0 || preview.sessions.length === 0}
            loading={busy === 'write'}
            onClick={() => void run(true)}
          >
            {s('gen.confirm', { n: preview?.sessions.length ?? 0 })}
          </Button>
        </Space>
      </Form>
      {refused && <ClashList title={s('gen.refused')} clashes={refused} />}
      {preview && <PreviewView answer={preview} />}
    </Flex>
  );
}

/**
 * The weekly pattern (weekday, start, end; at most 14 slots) and the date range of a generation, as fields of the
 * enclosing form (`pattern`, `range`). endOptional: a slot's end may stay empty (the tutoring type's duration).
 */
export function PatternFields({ endOptional = false }: { endOptional?: boolean }) {
  const s = teachingStrings.use();
  const weekdayText = (n: number) => s(wdKey(n));
  return (
    <>
      <Form.Item label={s('gen.pattern')} required>
        <Form.List name="pattern">
          {(fields, { add, remove }) => (
            <Flex vertical gap={8}>
              {fields.map((f) => (
                <Space key={f.key} wrap align="start" data-testid="pattern-row">
                  <Form.Item name={[f.name, 'weekday']} noStyle rules={[{ required: true, message: s('required') }]}>
                    <Select
                      aria-label={s('gen.weekday')}
                      style={{ width: 90 }}
                      options={WEEKDAYS.map((d) => ({ value: d, label: weekdayText(d) }))}
                    />
                  </Form.Item>
                  <Form.Item name={[f.name, 'start_time']} noStyle rules={[{ required: true, pattern: HHMM, message: s('gen.time_rule') }]}>
                    <Input aria-label={s('gen.start')} placeholder="16:30" maxLength={5} style={{ width: 80 }} />
                  </Form.Item>
                  <span style={{ lineHeight: '32px' }}>-</span>
                  <Form.Item
                    name={[f.name, 'end_time']}
                    noStyle
                    dependencies={[['pattern', f.name, 'start_time']]}
                    rules={[
                      { required: !endOptional, pattern: HHMM, message: s('gen.time_rule') },
                      ({ getFieldValue }) => ({
                        validator: (_, v: string | undefined) => {
                          const start = getFieldValue(['pattern', f.name, 'start_time']) as string | undefined;
                          return !v || !start || !HHMM.test(v) || !HHMM.test(start) || toMin(start) < toMin(v)
                            ? Promise.resolve()
                            : Promise.reject(new Error(s('gen.order_rule')));
                        },
                      }),
                    ]}
                  >
                    <Input aria-label={s('gen.end')} placeholder={endOptional ? s('gen.end_auto') : '17:30'} maxLength={5} style={{ width: 80 }} />
                  </Form.Item>
                  {fields.length > 1 && <Button onClick={() => remove(f.name)}>×</Button>}
                </Space>
              ))}
              {fields.length < 14 && (
                <Button
                  type="dashed"
                  onClick={() => add({ weekday: 4, start_time: '16:30', end_time: endOptional ? undefined : '17:30' })}
                  style={{ width: 200 }}
                >
                  {s('gen.add_slot')}
                </Button>
              )}
            </Flex>
          )}
        </Form.List>
      </Form.Item>
      <Form.Item
        name="range"
        label={s('gen.range')}
        rules={[
          {
            required: true,
            validator: (_, v: [Dayjs, Dayjs] | undefined) =>
              v?.[0] && v[1] && v[1].diff(v[0], 'day') <= 400 ? Promise.resolve() : Promise.reject(new Error(s('gen.range_rule'))),
          },
        ]}
      >
        <DatePicker.RangePicker inputReadOnly allowClear={false} />
      </Form.Item>
    </>
  );
}

/** A generation preview: the sessions to create, the days skipped (holidays, make-up swaps), every clash named. */
export function PreviewView({ answer }: { answer: CourseSchedulingAnswer | AddTutorialSchoolCareAnswer }) {
  // a teaching class's generation tells the planned sessions it replaces; a new tutoring class has none
  const replaced = 'replaced' in answer ? answer.replaced : 0;
  const s = teachingStrings.use();
  return (
    <Flex vertical gap={12} data-testid="schedule-preview">
      {answer.sessions.length === 0 ? (
        <Alert type="warning" showIcon title={s('gen.none')} />
      ) : (
        <Alert
          type={answer.clashes.length ? 'warning' : 'success'}
          showIcon
          title={`${s('gen.summary', { n: answer.sessions.length })}${replaced ? s('gen.replaces', { n: replaced }) : ''}`}
          description={answer.limit_reached ? s('gen.limit') : undefined}
        />
      )}
      {answer.clashes.length > 0 ? (
        <ClashList title={s('gen.clashes', { n: answer.clashes.length })} clashes={answer.clashes} />
      ) : (
        answer.sessions.length > 0 && (
          <Tag color="green" style={{ alignSelf: 'flex-start' }}>
            {s('gen.no_clash')}
          </Tag>
        )
      )}
      {answer.skipped.length > 0 && (
        <>
          <Typography.Title level={5} style={{ margin: 0 }}>
            {s('gen.skipped')}
          </Typography.Title>
          <Table
            size="small"
            rowKey={(r) => `${r.day} ${r.start_time}`}
            pagination={false}
            dataSource={answer.skipped}
            columns={[
              { title: s('col.day'), dataIndex: 'day', width: 120 },
              { title: s('col.weekday'), dataIndex: 'weekday', width: 80, render: (v: number) => s(wdKey(v)) },
              { title: s('col.time'), key: 't', width: 120, render: (_, r) => `${r.start_time}-${r.end_time}` },
              {
                title: s('col.note'),
                key: 'n',
                render: (_, r) => `${r.reason === 'holiday' ? s('gen.skip_holiday') : s('gen.skip_makeup')}${r.note ? `：${r.note}` : ''}`,
              },
            ]}
          />
        </>
      )}
      {answer.sessions.length > 0 && (
        <>
          <Typography.Title level={5} style={{ margin: 0 }}>
            {s('gen.sessions')}
          </Typography.Title>
          <Table
            size="small"
            rowKey={(r) => `${r.day} ${r.start_time}`}
            pagination={answer.sessions.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
            dataSource={answer.sessions.map((x, i) => ({ ...x, no: i + 1 }))}
            columns={[
              { title: '#', dataIndex: 'no', width: 50 },
              { title: s('col.day'), dataIndex: 'day', width: 120 },
              {
                title: s('col.weekday'),
                key: 'w',
                width: 160,
                render: (_, r) => (r.makeup ? <Tag color="orange">{s('gen.makeup', { wd: s(wdKey(r.weekday)) })}</Tag> : s(wdKey(r.weekday))),
              },
              { title: s('col.time'), key: 't', render: (_, r) => `${r.start_time}-${r.end_time}` },
            ]}
          />
        </>
      )}
    </Flex>
  );
}
