import { useQuery } from '@tanstack/react-query';
import { Button, DatePicker, Form, Input, List, Modal, Popconfirm, Select, Tag } from 'antd';
import type { Dayjs } from 'dayjs';
import type { LeaveRequestRow, ParentChild } from '@wantuo/shared';
import { useState } from 'react';
import { useAction } from '../../api/action';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { useT } from '../../stores/preferences';
import { flowStrings, type FlowKey } from '../flow/strings';

const LEAVE_PAGE = { page: 1, limit: 20 };
const STATUS_COLOR = ['gold', 'green', 'red', 'default'] as const;

/** The parent's leave requests: ask for a child, see the decision, cancel. */
export function LeaveRequests({ kids }: { kids: ParentChild[] }) {
  const t = useT();
  const tf = flowStrings.use();
  const [open, setOpen] = useState(false);
  const q = useQuery({ queryKey: queryKey('parentLeaveList', LEAVE_PAGE), queryFn: () => get('parentLeaveList', LEAVE_PAGE) });

  // refusals are shown by the request wrapper
  const send = useAction('submitLeave', {
    success: tf('leave.sent'),
    onDone: () => {
      setOpen(false);
      return q.refetch();
    },
  });
  const withdraw = useAction('cancelLeave', { onDone: () => q.refetch() });
  const submit = (v: { student_id: number; range: [Dayjs, Dayjs]; reason: string }) =>
    send.run({
      student_id: v.student_id,
      start_day: v.range[0].format('YYYY-MM-DD'),
      end_day: v.range[1].format('YYYY-MM-DD'),
      reason: v.reason.trim(),
    });
  const cancel = (r: LeaveRequestRow) => withdraw.run({ id: r.id, version: r.version });

  return (
    <>
      <Button type="primary" size="large" block onClick={() => setOpen(true)} disabled={kids.length === 0} style={{ marginBottom: 12 }}>
        {tf('leave.ask')}
      </Button>
      {q.isLoading ? (
        <Loading />
      ) : q.isError ? (
        <LoadError onRetry={() => q.refetch()} />
      ) : !q.data?.list.length ? (
        <EmptyState description={tf('leave.none')} />
      ) : (
        <List
          dataSource={q.data.list}
          renderItem={(r) => (
            <List.Item
              actions={
                r.status === 0 || r.status === 1
                  ? [
                      <Popconfirm key="c" title={tf('leave.cancel_confirm')} onConfirm={() => cancel(r)}>
                        <Button size="small" loading={withdraw.busy && withdraw.input?.id === r.id}>
                          {t('common.cancel')}
                        </Button>
                      </Popconfirm>,
                    ]
                  : []
              }
            >
              <List.Item.Meta
                title={
                  <span>
                    {r.student_name} <Tag color={STATUS_COLOR[r.status]}>{tf(`leave.status_${r.status}` as FlowKey)}</Tag>
                  </span>
                }
                description={`${r.start_day} ~ ${r.end_day}（${r.days}）· ${r.reason}${r.review_note ? ` · ${r.review_note}` : ''}`}
              />
            </List.Item>
          )}
        />
      )}
      <Modal open={open} title={tf('leave.ask')} footer={null} onCancel={() => setOpen(false)} destroyOnHidden>
        <Form layout="vertical" onFinish={submit} initialValues={{ student_id: kids[0]?.id }}>
          <Form.Item name="student_id" label={tf('leave.child')} rules={[{ required: true }]}>
            <Select options={kids.map((c) => ({ value: c.id, label: c.name }))} />
          </Form.Item>
          <Form.Item name="range" label={tf('leave.days')} rules={[{ required: true, message: tf('leave.days') }]}>
            <DatePicker.RangePicker style={{ width: '100%' }} inputReadOnly />
          </Form.Item>
          <Form.Item name="reason" label={tf('leave.reason')} rules={[{ required: true, whitespace: true, max: 500, message: tf('leave.reason') }]}>
            <Input.TextArea rows={3} maxLength={500} showCount />
          </Form.Item>
          <Button type="primary" htmlType="submit" block size="large" loading={send.busy}>
            {tf('leave.send')}
          </Button>
        </Form>
      </Modal>
    </>
  );
}
