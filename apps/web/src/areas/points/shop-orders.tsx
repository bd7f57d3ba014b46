import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Flex, Form, Input, Modal, Space, Tabs, Typography } from 'antd';
import { canCancel, canHandOver, ORDER_STATES, type OrderState, type ScoreOrder } from '@wantuo/shared';
import { useState } from 'react';
import { feedback } from '../../api/feedback';
import { useAction } from '../../api/action';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { ServerTable } from '../../components/server-table';
import { EmptyState } from '../../components/states';
import { useSchoolClock } from '../../lib/school-time';
import { GoodsPicture, OrderStateTag } from './common';
import { pointsStrings } from './strings';

/** The rows of a page of the shop's lists (goods and orders). */
export const PAGE = 20;

type StateTab = OrderState | 'all';

/** /principal_shop's orders tab: the exchange orders by state, handed over or cancelled with a reason. */
export function OrderList() {
  const s = pointsStrings.use();
  const when = useSchoolClock().dateTime;
  const qc = useQueryClient();
  const [state, setState] = useState<StateTab>('pending');
  const [page, setPage] = useState(1);
  const [cancelling, setCancelling] = useState<ScoreOrder | null>(null);
  const input = { page, limit: PAGE, ...(state !== 'all' ? { state } : {}) };
  const q = useQuery({
    queryKey: queryKey('scoreOrderList', input),
    queryFn: () => get('scoreOrderList', input),
    placeholderData: keepPreviousData,
  });
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: queryKey('scoreOrderList') });
    void qc.invalidateQueries({ queryKey: queryKey('scoreGoodsList') });
  };
  const hand = useAction('handOverScoreOrder', { success: s('order.handed'), onDone: refresh });
  const counts = q.data?.counts;

  const handOver = (o: ScoreOrder) =>
    feedback().modal.confirm({
      title: s('order.hand_over_confirm', { good: o.goods_name, student: o.student_name }),
      okText: s('order.hand_over'),
      cancelText: s('cancel'),
      onOk: () => hand.run({ id: o.id }),
    });

  return (
    <>
      <Tabs
        size="small"
        activeKey={state}
        onChange={(k) => {
          setState(k as StateTab);
          setPage(1);
        }}
        items={(['pending', 'handed_over', 'cancelled', 'all'] as StateTab[]).map((k) => ({
          key: k,
          label: (
            <Space size={4}>
              {s(`order.${k}`)}
              {counts && k !== 'all' && (
                <Badge count={counts[k]} showZero overflowCount={9999} color={k === 'pending' && counts[k] > 0 ? 'gold' : '#bfbfbf'} />
              )}
              {counts && k === 'all' && (
                <Badge count={ORDER_STATES.reduce((n, x) => n + counts[x], 0)} showZero overflowCount={9999} color="#bfbfbf" />
              )}
            </Space>
          ),
        }))}
      />
      <ServerTable<ScoreOrder>
        query={q}
        page={page}
        onPage={setPage}
        pageSize={PAGE}
        scroll={{ x: 1100 }}
        locale={{ emptyText: <EmptyState description={s('order.empty')} /> }}
        columns={[
          {
            title: s('order.student'),
            key: 'student',
            fixed: 'left',
            width: 110,
            render: (_, o) => (
              <div>
                <div>{o.student_name}</div>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {o.class_name ?? ''}
                </Typography.Text>
              </div>
            ),
          },
          {
            title: s('order.good'),
            key: 'good',
            width: 200,
            render: (_, o) => (
              <Flex gap={8} align="center">
                <GoodsPicture url={o.picture_url} size={32} />
                {o.goods_name}
              </Flex>
            ),
          },
          { title: s('order.price'), dataIndex: 'price', width: 80, align: 'right' },
          { title: s('order.state'), key: 'state', width: 90, render: (_, o) => <OrderStateTag state={o.state} /> },
          {
            title: s('order.placed'),
            key: 'placed',
            width: 170,
            render: (_, o) => (
              <div>
                <div>{when(o.created_at)}</div>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {o.state === 'handed_over' && o.handed_over_at
                    ? `${s('order.handed_over')} ${when(o.handed_over_at)} ${o.handed_over_by_name ?? ''}`
                    : ''}
                  {o.state === 'cancelled' && o.cancelled_at
                    ? `${s('order.cancelled')} ${when(o.cancelled_at)}${o.cancel_reason ? `：${o.cancel_reason}` : ''}`
                    : ''}
                </Typography.Text>
              </div>
            ),
          },
          { title: s('order.by'), dataIndex: 'placed_by_name', width: 100, render: (v: string | null) => v ?? '-' },
          { title: s('order.no'), dataIndex: 'no', width: 140 },
          {
            title: s('col.actions'),
            key: 'actions',
            fixed: 'right',
            width: 150,
            render: (_, o) =>
              canHandOver(o.state) || canCancel(o.state) ? (
                <Space size={0}>
                  {canHandOver(o.state) && (
                    <Button type="link" size="small" loading={hand.busy && hand.input?.id === o.id} onClick={() => handOver(o)}>
                      {s('order.hand_over')}
                    </Button>
                  )}
                  {canCancel(o.state) && (
                    <Button type="link" size="small" danger onClick={() => setCancelling(o)}>
                      {s('order.cancel')}
                    </Button>
                  )}
                </Space>
              ) : (
                '-'
              ),
          },
        ]}
      />
      {cancelling && <CancelDialog o={cancelling} onClose={() => setCancelling(null)} onDone={refresh} />}
    </>
  );
}

function CancelDialog({ o, onClose, onDone }: { o: ScoreOrder; onClose: () => void; onDone: () => void }) {
  const s = pointsStrings.use();
  const [form] = Form.useForm<{ reason: string }>();
  // a refusal (handed over meanwhile) is shown by the request wrapper
  const cancel = useAction('cancelScoreOrder', {
    success: s('order.cancelled_ok'),
    onDone: () => {
      onDone();
      onClose();
    },
  });
  const save = (v: { reason: string }) => cancel.run({ id: o.id, reason: v.reason.trim() });
  return (
    <Modal
      open
      title={s('order.cancel_title', { student: o.student_name, good: o.goods_name })}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={cancel.busy}
      okText={s('order.cancel')}
      okButtonProps={{ danger: true }}
      cancelText={s('cancel')}
      destroyOnHidden
      width={420}
    >
      <Typography.Paragraph type="secondary">{s('order.cancel_note', { n: o.price })}</Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={(v) => void save(v)}>
        <Form.Item
          name="reason"
          label={s('order.cancel_reason')}
          rules={[{ required: true, whitespace: true, message: s('required') }, { max: 100 }]}
        >
          <Input maxLength={100} autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}
