import { useQuery } from '@tanstack/react-query';
import { Button, Checkbox, Form, Input, Modal, Popconfirm, Space } from 'antd';
import { HHMM_RE, startsBeforeEnd, type ClassTime } from '@wantuo/shared';
import { useState } from 'react';
import { useAction } from '../../api/action';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { ServerTable } from '../../components/server-table';
import { EmptyState } from '../../components/states';
import { useT } from '../../stores/preferences';
import { useSlotText, WEEKDAY_KEYS } from './care-common';
import { careStrings } from './strings';

const PAGE_SIZE = 20;

interface SlotValues {
  name: string;
  start: string;
  end: string;
  weekdays: number[];
}

/** The school's time slots: list (server-paged, searchable), add, edit (with version), delete unused. */
export default function TimeSlots() {
  const t = useT();
  const tc = careStrings.use();
  const slotText = useSlotText();
  const [name, setName] = useState('');
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<ClassTime | 'new' | null>(null);
  const [form] = Form.useForm<SlotValues>();
  const listInput = { page, limit: PAGE_SIZE, ...(name ? { name } : {}) };
  const q = useQuery({
    queryKey: queryKey('classTimeList', listInput),
    queryFn: () => get('classTimeList', listInput),
  });

  const open = (slot: ClassTime | 'new') => {
    setEditing(slot);
    form.setFieldsValue(
      slot === 'new'
        ? { name: '', start: '16:00', end: '18:00', weekdays: [1, 2, 3, 4, 5] }
        : { name: slot.name, start: slot.start_time, end: slot.end_time, weekdays: slot.weekdays },
    );
  };
  const refetch = () => void q.refetch();
  const saved = {
    success: t('common.saved'),
    onDone: () => {
      setEditing(null);
      refetch();
    },
    onError: refetch,
  };
  const add = useAction('addClassTime', saved);
  const edit = useAction('editClassTime', saved);
  const delSlot = useAction('delClassTime', { success: tc('care.deleted'), onDone: refetch, onError: refetch });
  const save = async (v: SlotValues) => {
    const input = { name: v.name.trim(), start_time: v.start, end_time: v.end, weekdays: v.weekdays };
    if (editing === 'new') await add.run(input);
    else if (editing) await edit.run({ id: editing.id, version: editing.version, ...input });
  };
  const del = (slot: ClassTime) => delSlot.run({ id: slot.id });

  return (
    <>
      <Space wrap style={{ marginBottom: 16, width: '100%', justifyContent: 'space-between' }}>
        <Input.Search
          allowClear
          maxLength={50}
          placeholder={tc('care.search_slot')}
          style={{ width: 220, maxWidth: '100%' }}
          onSearch={(v) => {
            setName(v.trim());
            setPage(1);
          }}
        />
        <Button type="primary" onClick={() => open('new')}>
          {tc('care.new_slot')}
        </Button>
      </Space>
      <ServerTable<ClassTime>
        query={q}
        page={page}
        onPage={setPage}
        pageSize={PAGE_SIZE}
        scroll={{ x: 760 }}
        locale={{ emptyText: <EmptyState description={name ? tc('care.empty_search') : tc('care.empty_slots')} /> }}
        columns={[
          { title: tc('care.slot_name'), dataIndex: 'name', width: 140 },
          { title: tc('care.slot_time'), key: 'time', width: 260, render: (_, s) => slotText(s) },
          {
            title: tc('care.slot_use'),
            key: 'use',
            width: 160,
            render: (_, s) => tc('care.slot_use_text', { classes: s.class_count ?? 0, students: s.student_count ?? 0 }),
          },
          {
            title: tc('care.actions'),
            key: 'actions',
            width: 160,
            render: (_, s) => (
              <Space size={4}>
                <Button size="small" onClick={() => open(s)}>
                  {tc('care.edit')}
                </Button>
                <Popconfirm title={tc('care.confirm_delete_slot', { name: s.name })} onConfirm={() => del(s)}>
                  <Button size="small" danger>
                    {tc('care.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <Modal
        open={editing !== null}
        title={editing === 'new' ? tc('care.new_slot') : tc('care.edit_slot')}
        onCancel={() => setEditing(null)}
        onOk={() => form.submit()}
        confirmLoading={add.busy || edit.busy}
        destroyOnHidden
        forceRender
      >
        <Form<SlotValues> form={form} layout="vertical" onFinish={save}>
          <Form.Item
            name="name"
            label={tc('care.slot_name')}
            rules={[{ required: true, whitespace: true, max: 30, message: tc('care.slot_name_rule') }]}
          >
            <Input maxLength={30} />
          </Form.Item>
          <Space wrap>
            <Form.Item name="start" label={tc('care.start_time')} rules={[{ required: true, pattern: HHMM_RE, message: tc('care.time_required') }]}>
              <Input type="time" style={{ width: 140 }} />
            </Form.Item>
            <Form.Item
              name="end"
              label={tc('care.end_time')}
              dependencies={['start']}
              rules={[
                { required: true, pattern: HHMM_RE, message: tc('care.time_required') },
                ({ getFieldValue }) => ({
                  validator: (_, end: string | undefined) => {
                    const start = getFieldValue('start') as string | undefined;
                    if (!start || !end || !HHMM_RE.test(start) || !HHMM_RE.test(end) || startsBeforeEnd({ start_time: start, end_time: end }))
                      return Promise.resolve();
                    return Promise.reject(new Error(tc('care.start_before_end')));
                  },
                }),
              ]}
            >
              <Input type="time" style={{ width: 140 }} />
            </Form.Item>
          </Space>
          <Form.Item
            name="weekdays"
            label={tc('care.weekdays')}
            rules={[{ required: true, type: 'array', min: 1, message: tc('care.weekdays_required') }]}
          >
            <Checkbox.Group options={WEEKDAY_KEYS.map((k, i) => ({ value: i + 1, label: tc(k) }))} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
