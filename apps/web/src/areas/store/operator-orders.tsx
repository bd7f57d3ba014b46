import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Card, Flex, Form, Input, Modal, Segmented, Space, Typography } from 'antd';
import { storeCan, STORE_ORDER_STATES, type ShipGoodsOrderInput, type StoreOrder, type StoreOrderState } from '@wantuo/shared';
import { useState } from 'react';
import { useAction } from '../../api/action';
import { get } from '../../api/http';
import { ServerTable } from '../../components/server-table';
import { EmptyState } from '../../components/states';
import { localDateTime } from '../../lib/school-time';
import { CancelOrderDialog, linesText, OrderStateTag, useStoreRefresh, yuan } from './common';
import { storeStrings } from './strings';
import { queryKey } from '../../api/query';

const PAGE = 20;
type Filter = 'all' | StoreOrderState;

/** /operator_store_orders: every school's mall orders: ship the paid ones (carrier, tracking number), cancel (refunded). */
export default function OperatorOrders() {
  const s = storeStrings.use();
  const [state, setState] = useState<Filter>('paid');
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const [shipping, setShipping] = useState<StoreOrder | null>(null);
  const [cancelling, setCancelling] = useState<StoreOrder | null>(null);
  const params = { page, limit: PAGE, ...(state !== 'all' ? { state } : {}), ...(keyword ? { keyword } : {}) };
  const q = useQuery({
    queryKey: queryKey('storeOrderList', params),
    queryFn: () => get('storeOrderList', params),
    placeholderData: keepPreviousData,
  });
  const counts = q.data?.counts;

  return (
    <Card>
      <Flex wrap gap={8} justify="space-between" style={{ marginBottom: 16 }}>
        <Segmented<Filter>
          value={state}
          onChange={(v) => {
            setState(v);
            setPage(1);
          }}
          options={[
            { value: 'all', label: s('all') },
            ...STORE_ORDER_STATES.map((st) => ({ value: st, label: `${s(`state.${st}`)}${counts && counts[st] ? ` ${counts[st]}` : ''}` })),
          ]}
        />
        <Input.Search
          allowClear
          placeholder={s('op.search_orders')}
          maxLength={32}
          style={{ width: 240 }}
          onSearch={(v) => {
            setKeyword(v.trim());
            setPage(1);
          }}
        />
      </Flex>
      <ServerTable<StoreOrder>
        query={q}
        page={page}
        onPage={setPage}
        pageSize={PAGE}
        scroll={{ x: 1100 }}
        locale={{ emptyText: <EmptyState description={s('orders_empty')} /> }}
        columns={[
          {
            title: s('order_no', { no: '' }).trim(),
            key: 'no',
            fixed: 'left',
            width: 190,
            render: (_, o) => (
              <Flex vertical>
                <Typography.Text copyable>{o.no}</Typography.Text>
                <Typography.Text type="secondary">{localDateTime(o.created_at)}</Typography.Text>
              </Flex>
            ),
          },
          { title: s('op.school'), dataIndex: 'school_name', width: 140 },
          {
            title: s('op.goods'),
            key: 'goods',
            render: (_, o) => (
              <Typography.Paragraph ellipsis={{ rows: 2 }} style={{ marginBottom: 0 }}>
                {linesText(o)}
              </Typography.Paragraph>
            ),
          },
          { title: s('op.total'), dataIndex: 'total_fen', width: 100, render: (v: number) => yuan(v) },
          {
            title: s('op.consignee'),
            key: 'address',
            width: 220,
            render: (_, o) => (
              <Typography.Text>
                {o.address.name} {o.address.mobile}
                <br />
                <Typography.Text type="secondary">
                  {o.address.region} {o.address.detail}
                </Typography.Text>
              </Typography.Text>
            ),
          },
          {
            title: s('op.state'),
            key: 'state',
            width: 160,
            render: (_, o) => (
              <Flex vertical>
                <span>
                  <OrderStateTag state={o.state} />
                </span>
                {o.carrier && <Typography.Text type="secondary">{s('shipping', { carrier: o.carrier, no: o.tracking_no ?? '' })}</Typography.Text>}
              </Flex>
            ),
          },
          {
            title: s('op.actions'),
            key: 'actions',
            width: 150,
            render: (_, o) => (
              <Space size={0} wrap>
                {storeCan.ship(o.state) && (
                  <Button type="link" size="small" onClick={() => setShipping(o)}>
                    {s('op.ship')}
                  </Button>
                )}
                {storeCan.cancel(o.state) && (
                  <Button type="link" size="small" danger onClick={() => setCancelling(o)}>
                    {s('cancel_order')}
                  </Button>
                )}
              </Space>
            ),
          },
        ]}
      />
      {shipping && <ShipDialog order={shipping} onClose={() => setShipping(null)} />}
      {cancelling && <CancelOrderDialog order={cancelling} onClose={() => setCancelling(null)} />}
    </Card>
  );
}

function ShipDialog({ order, onClose }: { order: StoreOrder; onClose: () => void }) {
  const s = storeStrings.use();
  const [form] = Form.useForm<{ carrier: string; tracking_no: string }>();
  const refresh = useStoreRefresh();
  const ship = useAction('shipGoodsOrder', {
    success: s('op.shipped_ok'),
    onDone: () => {
      refresh();
      onClose();
    },
  });
  const save = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    const input: ShipGoodsOrderInput = { id: order.id, carrier: v.carrier.trim(), tracking_no: v.tracking_no.trim() };
    await ship.run(input);
  };
  return (
    <Modal open title={`${s('op.ship')} · ${order.no}`} onCancel={onClose} onOk={() => void save()} confirmLoading={ship.busy} destroyOnHidden>
      <Typography.Paragraph type="secondary">
        {order.school_name} · {linesText(order)}
      </Typography.Paragraph>
      <Form form={form} layout="vertical">
        <Form.Item name="carrier" label={s('op.carrier')} rules={[{ required: true, whitespace: true, message: s('required') }]}>
          <Input maxLength={30} placeholder="顺丰速运" />
        </Form.Item>
        <Form.Item name="tracking_no" label={s('op.tracking')} rules={[{ required: true, pattern: /^[A-Za-z0-9-]{6,40}$/, message: s('required') }]}>
          <Input maxLength={40} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
