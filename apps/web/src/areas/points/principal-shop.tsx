import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Card, Flex, Form, Input, InputNumber, Modal, Segmented, Space, Tabs, Tag, Typography } from 'antd';
import { GOODS_MAX_PRICE, type ScoreGoods } from '@wantuo/shared';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useAction } from '../../api/action';
import { feedback } from '../../api/feedback';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { ServerTable } from '../../components/server-table';
import { EmptyState } from '../../components/states';
import { newRequestId } from '../../lib/request-id';
import { useSchoolClock } from '../../lib/school-time';
import { GoodsPicture } from './common';
import { OrderList, PAGE } from './shop-orders';
import { pointsStrings } from './strings';

type Listed = 'all' | 'listed' | 'unlisted';

/** The pending orders' count of the tab's badge (one row: the total comes with the page). */
const PENDING_BADGE = { state: 'pending' as const, page: 1, limit: 1 };

/** /principal_shop: the points goods (price, stock, listed; add stock, price, unlist, delete) and the exchange orders to hand over. */
export default function PrincipalShop() {
  const s = pointsStrings.use();
  const [tab, setTab] = useState<'goods' | 'orders'>('goods');
  const pending = useQuery({
    queryKey: queryKey('scoreOrderList', PENDING_BADGE),
    queryFn: () => get('scoreOrderList', PENDING_BADGE),
    refetchInterval: 60_000,
  });
  return (
    <Card>
      <Tabs
        activeKey={tab}
        onChange={(k) => setTab(k as typeof tab)}
        items={[
          { key: 'goods', label: s('tab.goods'), children: <GoodsList /> },
          {
            key: 'orders',
            label: (
              <Space size={4}>
                {s('tab.orders')}
                {(pending.data?.counts.pending ?? 0) > 0 && <Badge count={pending.data?.counts.pending} color="gold" />}
              </Space>
            ),
            children: <OrderList />,
          },
        ]}
      />
    </Card>
  );
}

function GoodsList() {
  const s = pointsStrings.use();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [listed, setListed] = useState<Listed>('all');
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const [pricing, setPricing] = useState<ScoreGoods | null>(null);
  const [stocking, setStocking] = useState<ScoreGoods | null>(null);
  const filters = { ...(listed !== 'all' ? { listed: listed === 'listed' ? 1 : 0 } : {}), ...(keyword ? { keyword } : {}) };
  const input = { page, limit: PAGE, ...filters };
  const q = useQuery({
    queryKey: queryKey('scoreGoodsList', input),
    queryFn: () => get('scoreGoodsList', input),
    placeholderData: keepPreviousData,
  });
  const refresh = () => void qc.invalidateQueries({ queryKey: queryKey('scoreGoodsList') });

  // a stale version is refused (shown by the request wrapper)
  const unmount = useAction('unmountScoreGoods', { onDone: refresh });
  const toggle = (g: ScoreGoods) => unmount.run({ id: g.id, version: g.version, listed: !g.listed });

  const del = useAction('delScoreGoods', { success: (r) => (r.deleted ? s('del.deleted') : s('del.unlisted')), onDone: refresh });
  const remove = (g: ScoreGoods) =>
    feedback().modal.confirm({
      title: s('del.title', { name: g.name }),
      content: g.exchanged > 0 ? s('del.used', { n: g.exchanged }) : s('del.never'),
      okText: g.exchanged > 0 ? s('act.unlist') : s('act.delete'),
      okButtonProps: { danger: g.exchanged === 0 },
      cancelText: s('cancel'),
      onOk: () => del.run({ id: g.id, version: g.version }),
    });

  return (
    <>
      <Flex wrap gap={8} justify="space-between" style={{ marginBottom: 16 }}>
        <Flex wrap gap={8}>
          <Segmented<Listed>
            value={listed}
            onChange={(v) => {
              setListed(v);
              setPage(1);
            }}
            options={(['all', 'listed', 'unlisted'] as Listed[]).map((v) => ({ value: v, label: s(`goods.filter_${v}`) }))}
          />
          <Input.Search
            allowClear
            placeholder={s('goods.search')}
            maxLength={32}
            style={{ width: 220 }}
            onSearch={(v) => {
              setKeyword(v.trim());
              setPage(1);
            }}
          />
        </Flex>
        <Button type="primary" onClick={() => navigate('/principal_shop_add')}>
          {s('goods.add')}
        </Button>
      </Flex>
      <ServerTable<ScoreGoods>
        query={q}
        page={page}
        onPage={setPage}
        pageSize={PAGE}
        scroll={{ x: 900 }}
        locale={{ emptyText: <EmptyState description={listed !== 'all' || keyword ? s('goods.empty_filtered') : s('goods.empty')} /> }}
        columns={[
          {
            title: s('col.name'),
            key: 'name',
            fixed: 'left',
            width: 220,
            render: (_, g) => (
              <Flex gap={10} align="center">
                <GoodsPicture url={g.picture_url} size={44} />
                <div style={{ minWidth: 0 }}>
                  <Typography.Text strong={g.listed} type={g.listed ? undefined : 'secondary'}>
                    {g.name}
                  </Typography.Text>
                  {g.description && (
                    <Typography.Paragraph type="secondary" ellipsis={{ rows: 1 }} style={{ margin: 0, fontSize: 12 }}>
                      {g.description}
                    </Typography.Paragraph>
                  )}
                </div>
              </Flex>
            ),
          },
          {
            title: s('col.price'),
            dataIndex: 'price',
            width: 100,
            align: 'right',
            render: (v: number) => <Typography.Text strong>{v}</Typography.Text>,
          },
          {
            title: s('col.stock'),
            dataIndex: 'stock',
            width: 90,
            align: 'right',
            render: (v: number) => (v === 0 ? <Tag color="red">{s('sold_out')}</Tag> : v),
          },
          { title: s('col.exchanged'), dataIndex: 'exchanged', width: 90, align: 'right' },
          {
            title: s('col.listed'),
            key: 'listed',
            width: 90,
            render: (_, g) => (g.listed ? <Tag color="green">{s('listed')}</Tag> : <Tag>{s('unlisted')}</Tag>),
          },
          {
            title: s('col.actions'),
            key: 'actions',
            fixed: 'right',
            width: 300,
            render: (_, g) => (
              <Space size={0} wrap>
                <Button type="link" size="small" onClick={() => navigate(`/principal_shop_add?id=${g.id}`)}>
                  {s('act.edit')}
                </Button>
                <Button type="link" size="small" onClick={() => setPricing(g)}>
                  {s('act.price')}
                </Button>
                <Button type="link" size="small" onClick={() => setStocking(g)}>
                  {s('act.stock')}
                </Button>
                <Button type="link" size="small" loading={unmount.busy && unmount.input?.id === g.id} onClick={() => void toggle(g)}>
                  {g.listed ? s('act.unlist') : s('act.list')}
                </Button>
                <Button type="link" size="small" danger onClick={() => remove(g)}>
                  {s('act.delete')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
      {pricing && <PriceDialog g={pricing} onClose={() => setPricing(null)} onSaved={refresh} />}
      {stocking && <StockDialog g={stocking} onClose={() => setStocking(null)} onSaved={refresh} />}
    </>
  );
}

function PriceDialog({ g, onClose, onSaved }: { g: ScoreGoods; onClose: () => void; onSaved: () => void }) {
  const s = pointsStrings.use();
  const when = useSchoolClock().dateTime;
  const [form] = Form.useForm<{ price: number; reason?: string }>();
  const info = useQuery({ queryKey: queryKey('scoreGoodsInfo', { id: g.id }), queryFn: () => get('scoreGoodsInfo', { id: g.id }) });
  const editPrice = useAction('editScoreGoodsPrice', {
    success: s('saved'),
    onDone: () => {
      onSaved();
      onClose();
    },
  });
  const save = (v: { price: number; reason?: string }) =>
    editPrice.run({ id: g.id, version: g.version, price: v.price, ...(v.reason?.trim() ? { reason: v.reason.trim() } : {}) });
  return (
    <Modal
      open
      title={s('price.title', { name: g.name })}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={editPrice.busy}
      okText={s('confirm')}
      cancelText={s('cancel')}
      destroyOnHidden
      width={440}
    >
      <Typography.Paragraph type="secondary">{s('price.now', { n: g.price })}</Typography.Paragraph>
      <Form form={form} layout="vertical" initialValues={{ price: g.price }} onFinish={(v) => void save(v)}>
        <Form.Item
          name="price"
          label={s('price.new')}
          rules={[{ required: true, type: 'integer', min: 1, max: GOODS_MAX_PRICE, message: s('v.price') }]}
        >
          <InputNumber min={1} max={GOODS_MAX_PRICE} precision={0} suffix={s('unit')} style={{ width: '100%' }} autoFocus />
        </Form.Item>
        <Form.Item name="reason" label={s('price.reason')} rules={[{ max: 100 }]}>
          <Input maxLength={100} />
        </Form.Item>
      </Form>
      {(info.data?.prices.length ?? 0) > 0 && (
        <>
          <Typography.Text strong>{s('price.history')}</Typography.Text>
          <ul style={{ margin: '4px 0 0', paddingLeft: 18, maxHeight: 140, overflowY: 'auto' }}>
            {info.data!.prices.map((p) => (
              <li key={p.id}>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {when(p.at)} {p.actor_name ?? ''}：{p.old_price ?? '-'} → {p.new_price}
                  {p.reason ? `（${p.reason}）` : ''}
                </Typography.Text>
              </li>
            ))}
          </ul>
        </>
      )}
    </Modal>
  );
}

function StockDialog({ g, onClose, onSaved }: { g: ScoreGoods; onClose: () => void; onSaved: () => void }) {
  const s = pointsStrings.use();
  const [form] = Form.useForm<{ quantity: number; reason?: string }>();
  const [requestId] = useState(newRequestId);
  const addStock = useAction('addScoreGoodsStock', {
    success: s('stock.added'),
    onDone: () => {
      onSaved();
      onClose();
    },
  });
  const save = (v: { quantity: number; reason?: string }) =>
    addStock.run({
      id: g.id,
      quantity: v.quantity,
      request_id: requestId,
      ...(v.reason?.trim() ? { reason: v.reason.trim() } : {}),
    });
  return (
    <Modal
      open
      title={s('stock.title', { name: g.name })}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={addStock.busy}
      okText={s('confirm')}
      cancelText={s('cancel')}
      destroyOnHidden
      width={400}
    >
      <Typography.Paragraph type="secondary">{s('stock.now', { n: g.stock })}</Typography.Paragraph>
      <Form form={form} layout="vertical" initialValues={{ quantity: 10 }} onFinish={(v) => void save(v)}>
        <Form.Item name="quantity" label={s('stock.qty')} rules={[{ required: true, type: 'integer', min: 1, max: 10_000, message: s('v.qty') }]}>
          <InputNumber min={1} max={10_000} precision={0} style={{ width: '100%' }} autoFocus />
        </Form.Item>
        <Form.Item name="reason" label={s('price.reason')} rules={[{ max: 100 }]}>
          <Input maxLength={100} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
