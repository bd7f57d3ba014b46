import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, DatePicker, Flex, Form, Image, Input, List, Modal, Popconfirm, Select, Space, Switch, Tabs, Typography } from 'antd';
import { formatFen, yuanToFen, type DinnerBooking, type MealGoods } from '@wantuo/shared';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useAction } from '../../api/action';
import { download } from '../../api/download';
import { get } from '../../api/http';
import { MoneyInput } from '../../components/money-input';
import { ServerTable } from '../../components/server-table';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { localDateTime, localTime, useSchoolZone } from '../../lib/school-time';
import { BookingTag } from './common';
import { OrderHistory } from './order-history';
import { Kitchen } from './order-kitchen';
import { Settings } from './order-settings';
import { mealStrings } from './strings';
import { queryKey } from '../../api/query';

const PAGE = 20;

/** /principal_order: the school's meal items, the day's orders (server pages, export), the kitchen's live count and the cutoff. */
export default function PrincipalOrder() {
  const s = mealStrings.use();
  return (
    <Card>
      <Tabs
        items={[
          { key: 'goods', label: s('tab.goods'), children: <GoodsList /> },
          { key: 'orders', label: s('tab.orders'), children: <Orders /> },
          { key: 'history', label: s('tab.history'), children: <OrderHistory /> },
          { key: 'kitchen', label: s('tab.kitchen'), children: <Kitchen /> },
          { key: 'settings', label: s('tab.settings'), children: <Settings /> },
        ]}
      />
    </Card>
  );
}

function GoodsList() {
  const s = mealStrings.use();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const [pricing, setPricing] = useState<MealGoods | null>(null);
  const [history, setHistory] = useState<MealGoods | null>(null);
  const q = useQuery({
    queryKey: queryKey('mealGoodsList', { page, limit: PAGE }),
    queryFn: () => get('mealGoodsList', { page, limit: PAGE }),
    placeholderData: keepPreviousData,
  });
  const refresh = () => void qc.invalidateQueries({ queryKey: queryKey('mealGoodsList') });
  const operate = useAction('operateMealGoods', { onDone: refresh });
  const del = useAction('delMealGoods', { success: (r) => (r.deleted ? s('goods.deleted') : s('goods.disabled_instead')), onDone: refresh });
  return (
    <>
      <Flex justify="end" style={{ marginBottom: 12 }}>
        <Button type="primary" onClick={() => navigate('/principal_order_add')}>
          {s('goods.add')}
        </Button>
      </Flex>
      <ServerTable<MealGoods>
        query={q}
        page={page}
        onPage={setPage}
        pageSize={PAGE}
        scroll={{ x: 800 }}
        locale={{ emptyText: <EmptyState description={s('goods.empty')} /> }}
        columns={[
          {
            title: s('goods.picture'),
            dataIndex: 'picture_url',
            width: 80,
            render: (u: string | null) => (u ? <Image src={u} width={56} height={56} style={{ objectFit: 'cover', borderRadius: 4 }} /> : '-'),
          },
          {
            title: s('goods.name'),
            dataIndex: 'name',
            render: (n: string, g) => (
              <div>
                <Typography.Text strong>{n}</Typography.Text>
                {g.description && (
                  <div>
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {g.description}
                    </Typography.Text>
                  </div>
                )}
              </div>
            ),
          },
          { title: s('goods.price'), dataIndex: 'price_fen', width: 100, render: (f: number) => `¥${formatFen(f)}` },
          { title: s('goods.orders'), dataIndex: 'orders', width: 80 },
          {
            title: s('goods.enabled'),
            dataIndex: 'enabled',
            width: 80,
            render: (on: boolean, g) => (
              <Switch
                checked={on}
                loading={operate.busy && operate.input?.id === g.id}
                onChange={() => void operate.run({ id: g.id, version: g.version, enabled: !g.enabled })}
                aria-label={s('goods.enabled')}
              />
            ),
          },
          {
            title: s('goods.ops'),
            key: 'ops',
            width: 300,
            render: (_: unknown, g) => (
              <Space size={0} wrap>
                <Button type="link" onClick={() => navigate(`/principal_order_add?id=${g.id}`)}>
                  {s('goods.edit')}
                </Button>
                <Button type="link" onClick={() => setPricing(g)}>
                  {s('goods.price_change')}
                </Button>
                <Button type="link" onClick={() => setHistory(g)}>
                  {s('goods.price_history')}
                </Button>
                <Popconfirm title={s('goods.delete_confirm')} onConfirm={() => void del.run({ id: g.id, version: g.version })}>
                  <Button type="link" danger>
                    {s('goods.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <PriceDialog goods={pricing} onClose={() => setPricing(null)} onSaved={refresh} />
      <PriceHistory goods={history} onClose={() => setHistory(null)} />
    </>
  );
}

function PriceDialog({ goods, onClose, onSaved }: { goods: MealGoods | null; onClose: () => void; onSaved: () => void }) {
  const s = mealStrings.use();
  const [form] = Form.useForm<{ price: string; reason: string }>();
  const save = useAction('editMealGoodsPrice', {
    success: s('goods.saved'),
    onDone: () => {
      onSaved();
      onClose();
    },
  });
  return (
    <Modal
      open={goods !== null}
      title={`${s('goods.price_change')} · ${goods?.name ?? ''}`}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={save.busy}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{s('goods.price_note')}</Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={{ price: goods ? formatFen(goods.price_fen) : '' }}
        onFinish={(v) =>
          // the price field's validator has checked it is a price above 0
          void save.run({ id: goods!.id, version: goods!.version, price_fen: yuanToFen(v.price) ?? 0, reason: v.reason })
        }
      >
        <Form.Item
          name="price"
          label={s('goods.new_price')}
          rules={[
            {
              validator: (_, v: string) => ((yuanToFen(v ?? '') ?? 0) > 0 ? Promise.resolve() : Promise.reject(new Error(s('form.price_required')))),
            },
          ]}
        >
          <MoneyInput />
        </Form.Item>
        <Form.Item name="reason" label={s('goods.reason')} rules={[{ required: true, min: 2, max: 200 }]}>
          <Input maxLength={200} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function PriceHistory({ goods, onClose }: { goods: MealGoods | null; onClose: () => void }) {
  const s = mealStrings.use();
  const tz = useSchoolZone();
  const q = useQuery({
    queryKey: queryKey('mealGoodsPrices', goods ? { id: goods.id } : undefined),
    queryFn: () => get('mealGoodsPrices', { id: goods!.id }),
    enabled: goods !== null,
  });
  return (
    <Modal open={goods !== null} title={`${s('goods.price_history')} · ${goods?.name ?? ''}`} onCancel={onClose} footer={null}>
      {q.isLoading ? (
        <Loading />
      ) : q.isError ? (
        <LoadError onRetry={() => void q.refetch()} />
      ) : (
        <List
          dataSource={q.data}
          renderItem={(p) => (
            <List.Item>
              <List.Item.Meta
                title={`¥${formatFen(p.price_fen)}`}
                description={[localDateTime(p.at, tz), p.actor_name, p.reason].filter(Boolean).join(' · ')}
              />
            </List.Item>
          )}
        />
      )}
    </Modal>
  );
}

function Orders() {
  const s = mealStrings.use();
  const tz = useSchoolZone();
  // the school's day (the browser's may differ) until another is picked
  const settings = useQuery({ queryKey: queryKey('mealSettings'), queryFn: () => get('mealSettings') });
  const [picked, setDay] = useState<Dayjs | null>(null);
  const day = picked ?? (settings.data ? dayjs(settings.data.today) : null);
  const [goodsId, setGoodsId] = useState<number | undefined>();
  const [status, setStatus] = useState<string | undefined>();
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const goods = useQuery({
    queryKey: queryKey('mealGoodsList', { page: 1, limit: 100 }),
    queryFn: () => get('mealGoodsList', { page: 1, limit: 100 }),
  });
  const filters = {
    from: day?.format('YYYY-MM-DD') ?? '',
    ...(goodsId ? { goods_id: goodsId } : {}),
    ...(status ? { status } : {}),
    ...(keyword ? { keyword } : {}),
  };
  const q = useQuery({
    queryKey: queryKey('schoolDinnerOrderList', { ...filters, page, limit: PAGE }),
    queryFn: () => get('schoolDinnerOrderList', { ...filters, page, limit: PAGE }),
    placeholderData: keepPreviousData,
    enabled: day !== null,
  });
  const [exporting, setExporting] = useState(false);
  const exportList = async () => {
    setExporting(true);
    try {
      await download('schoolDinnerOrderExport', filters, s('orders.export_name'));
    } catch {
      // shown by the request wrapper
    } finally {
      setExporting(false);
    }
  };
  const reset = () => setPage(1);
  return (
    <>
      <Flex wrap gap={8} style={{ marginBottom: 12 }}>
        <DatePicker
          value={day}
          allowClear={false}
          onChange={(d) => {
            if (d) setDay(d);
            reset();
          }}
          aria-label={s('orders.day')}
        />
        <Select
          allowClear
          placeholder={s('orders.all_goods')}
          style={{ width: 160 }}
          value={goodsId}
          onChange={(v) => {
            setGoodsId(v);
            reset();
          }}
          options={(goods.data?.list ?? []).map((g) => ({ value: g.id, label: g.name }))}
        />
        <Select
          allowClear
          placeholder={s('orders.all_status')}
          style={{ width: 140 }}
          value={status}
          onChange={(v) => {
            setStatus(v);
            reset();
          }}
          options={(['booked', 'unpaid', 'cancelled', 'none'] as const).map((k) => ({ value: k, label: s(`status.${k}`) }))}
        />
        <Input.Search
          allowClear
          placeholder={s('orders.search')}
          style={{ width: 180 }}
          onSearch={(v) => {
            setKeyword(v.trim());
            reset();
          }}
        />
        <Button onClick={() => void exportList()} loading={exporting}>
          {s('orders.export')}
        </Button>
      </Flex>
      <ServerTable<DinnerBooking>
        query={q}
        page={page}
        onPage={setPage}
        pageSize={PAGE}
        scroll={{ x: 800 }}
        locale={{ emptyText: <EmptyState description={s('orders.empty')} /> }}
        columns={[
          { title: s('orders.student'), dataIndex: 'student_name' },
          { title: s('orders.class'), dataIndex: 'class_name', render: (v: string | null) => v ?? '-' },
          { title: s('orders.goods'), dataIndex: 'goods_name', render: (v: string | null) => v ?? '-' },
          { title: s('goods.price'), dataIndex: 'price_fen', render: (f: number) => (f ? `¥${formatFen(f)}` : '-') },
          { title: s('orders.status'), key: 'status', render: (_: unknown, b) => <BookingTag b={b} /> },
          { title: s('orders.pay_from'), dataIndex: 'pay_from', render: (v: DinnerBooking['pay_from']) => (v ? s(`pay.${v}`) : '-') },
          { title: s('orders.booked_by'), dataIndex: 'booked_by_name', render: (v: string | null) => v ?? '-' },
          { title: s('orders.served'), dataIndex: 'served_at', render: (v: string | null) => (v ? localTime(v, tz) : '-') },
        ]}
      />
    </>
  );
}
