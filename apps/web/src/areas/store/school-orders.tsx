import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Card, Flex, List, Pagination, Popconfirm, Space, Tabs, Typography } from 'antd';
import { storeCan, STORE_ORDER_STATES, type StoreOrder, type StoreOrderState } from '@wantuo/shared';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useAction } from '../../api/action';
import { get } from '../../api/http';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { useSchoolClock } from '../../lib/school-time';
import { CancelOrderDialog, GoodsCover, OrderStateTag, PayOrderDialog, useStoreRefresh, yuan } from './common';
import { storeStrings } from './strings';
import { queryKey } from '../../api/query';

const PAGE = 10;
type Tab = 'all' | StoreOrderState;

/** /principal_store_orders: the school's mall orders by state: pay, cancel (a paid one is refunded), confirm receipt. */
export default function SchoolOrders() {
  const s = storeStrings.use();
  const clock = useSchoolClock();
  const navigate = useNavigate();
  const [tab, setTab] = useState<Tab>('all');
  const [page, setPage] = useState(1);
  const [paying, setPaying] = useState<StoreOrder | null>(null);
  const [cancelling, setCancelling] = useState<StoreOrder | null>(null);
  const refresh = useStoreRefresh();
  const params = { page, limit: PAGE, ...(tab !== 'all' ? { state: tab } : {}) };
  const q = useQuery({
    queryKey: queryKey('goodsOrderList', params),
    queryFn: () => get('goodsOrderList', params),
    placeholderData: keepPreviousData,
  });
  const counts = q.data?.counts;

  const confirmAction = useAction('confirmGoodsOrder', { success: s('received_ok'), onDone: refresh });
  const confirm = (o: StoreOrder) => confirmAction.run({ id: o.id });

  return (
    <Card extra={<Button onClick={() => navigate('/onlineStore')}>{s('back')}</Button>}>
      <Tabs
        activeKey={tab}
        onChange={(k) => {
          setTab(k as Tab);
          setPage(1);
        }}
        items={[
          { key: 'all', label: s('all') },
          ...STORE_ORDER_STATES.map((st) => ({ key: st, label: `${s(`state.${st}`)}${counts && counts[st] ? ` (${counts[st]})` : ''}` })),
        ]}
      />
      {q.isError ? (
        <LoadError onRetry={() => void q.refetch()} />
      ) : q.isLoading ? (
        <Loading />
      ) : !q.data?.list.length ? (
        <EmptyState description={s('orders_empty')} />
      ) : (
        <>
          <List
            dataSource={q.data.list}
            renderItem={(o) => (
              <List.Item key={o.id}>
                <Flex vertical gap={6} style={{ width: '100%' }} data-testid="store-order">
                  <Flex justify="space-between" wrap gap={8}>
                    <Space wrap size={8}>
                      <Typography.Text strong>{s('order_no', { no: o.no })}</Typography.Text>
                      <OrderStateTag state={o.state} />
                      <Typography.Text type="secondary">{s('placed_at', { at: clock.dateTime(o.created_at) })}</Typography.Text>
                    </Space>
                    <Typography.Text strong style={{ color: '#cf1322' }}>
                      {yuan(o.total_fen)}
                    </Typography.Text>
                  </Flex>
                  <Flex wrap gap={12}>
                    {o.lines.map((l) => (
                      <Space key={l.goods_id} size={6}>
                        <GoodsCover src={l.picture} name={l.name} size={40} />
                        <Typography.Text>
                          {l.name} ×{l.quantity}
                        </Typography.Text>
                      </Space>
                    ))}
                  </Flex>
                  <Flex justify="space-between" wrap gap={8} align="center">
                    <Space wrap size={8}>
                      <Typography.Text type="secondary">
                        {o.address.name} {o.address.mobile} {o.address.region} {o.address.detail}
                      </Typography.Text>
                      {o.state === 'unpaid' && (
                        <Typography.Text type="warning">{s('pay_before', { at: clock.dateTime(o.expires_at) })}</Typography.Text>
                      )}
                      {o.carrier && <Typography.Text>{s('shipping', { carrier: o.carrier, no: o.tracking_no ?? '' })}</Typography.Text>}
                      {o.refunded_fen > 0 && (
                        <Typography.Text type="success">{s('refunded', { n: (o.refunded_fen / 100).toFixed(2) })}</Typography.Text>
                      )}
                      {o.cancel_reason && <Typography.Text type="secondary">{o.cancel_reason}</Typography.Text>}
                    </Space>
                    <Space wrap>
                      {storeCan.cancel(o.state) && <Button onClick={() => setCancelling(o)}>{s('cancel_order')}</Button>}
                      {storeCan.pay(o.state) && (
                        <Button type="primary" onClick={() => setPaying(o)}>
                          {s('pay')}
                        </Button>
                      )}
                      {storeCan.confirm(o.state) && (
                        <Popconfirm title={s('confirm_receipt_q')} onConfirm={() => confirm(o)} cancelText={s('cancel')}>
                          <Button type="primary">{s('confirm_receipt')}</Button>
                        </Popconfirm>
                      )}
                    </Space>
                  </Flex>
                </Flex>
              </List.Item>
            )}
          />
          <Flex justify="end" style={{ marginTop: 16 }}>
            <Pagination current={page} pageSize={PAGE} total={q.data.total} onChange={setPage} showSizeChanger={false} />
          </Flex>
        </>
      )}
      {paying && <PayOrderDialog order={paying} onPaid={() => undefined} onClose={() => setPaying(null)} />}
      {cancelling && <CancelOrderDialog order={cancelling} onClose={() => setCancelling(null)} />}
    </Card>
  );
}
