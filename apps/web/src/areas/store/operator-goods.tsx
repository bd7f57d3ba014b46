import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Flex, Form, Input, InputNumber, Modal, Segmented, Select, Space, Switch, Tag, Typography } from 'antd';
import { formatFen, sanitizeMoneyInput, STORE_LIMITS, yuanToFen, type AddStoreGoodsInput, type GoodsType, type StoreGoods } from '@wantuo/shared';
import { useRef, useState } from 'react';
import { useAction } from '../../api/action';
import { get } from '../../api/http';
import { ServerTable } from '../../components/server-table';
import { EmptyState } from '../../components/states';
import { newRequestId } from '../../lib/request-id';
import { GoodsCover, yuan } from './common';
import { storeStrings } from './strings';
import { queryKey } from '../../api/query';

const PAGE = 20;
type Listed = 'all' | 'listed' | 'unlisted';

/** /operator_store_goods: the platform operator's mall goods: add, edit (price too), add stock, list and unlist. */
export default function OperatorGoods() {
  const s = storeStrings.use();
  const qc = useQueryClient();
  const [listed, setListed] = useState<Listed>('all');
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<StoreGoods | 'new' | null>(null);
  const [stocking, setStocking] = useState<StoreGoods | null>(null);
  const types = useQuery({ queryKey: queryKey('goodsType'), queryFn: () => get('goodsType'), staleTime: 300_000 });
  const params = { page, limit: PAGE, ...(listed !== 'all' ? { listed: listed === 'listed' ? 1 : 0 } : {}), ...(keyword ? { keyword } : {}) };
  const q = useQuery({
    queryKey: queryKey('storeGoodsList', params),
    queryFn: () => get('storeGoodsList', params),
    placeholderData: keepPreviousData,
  });
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: queryKey('storeGoodsList') });
    void qc.invalidateQueries({ queryKey: queryKey('goodsList') });
    void qc.invalidateQueries({ queryKey: queryKey('goodsType') });
  };
  const unmount = useAction('unmountStoreGoods', { onDone: refresh });
  const toggle = (g: StoreGoods) => unmount.run({ id: g.id, version: g.version, listed: !g.listed });

  return (
    <Card>
      <Flex wrap gap={8} justify="space-between" style={{ marginBottom: 16 }}>
        <Flex wrap gap={8}>
          <Segmented<Listed>
            value={listed}
            onChange={(v) => {
              setListed(v);
              setPage(1);
            }}
            options={[
              { value: 'all', label: s('all') },
              { value: 'listed', label: s('op.listed') },
              { value: 'unlisted', label: s('op.unlisted') },
            ]}
          />
          <Input.Search
            allowClear
            placeholder={s('search')}
            maxLength={32}
            style={{ width: 220 }}
            onSearch={(v) => {
              setKeyword(v.trim());
              setPage(1);
            }}
          />
        </Flex>
        <Button type="primary" disabled={!types.data} onClick={() => setEditing('new')}>
          {s('op.add')}
        </Button>
      </Flex>
      <ServerTable<StoreGoods>
        query={q}
        page={page}
        onPage={setPage}
        pageSize={PAGE}
        scroll={{ x: 900 }}
        locale={{ emptyText: <EmptyState description={s('empty_goods')} /> }}
        columns={[
          {
            title: s('op.name'),
            key: 'name',
            width: 280,
            render: (_, g) => (
              <Space>
                <GoodsCover src={g.pictures[0]} name={g.name} size={44} />
                <Typography.Text>{g.name}</Typography.Text>
              </Space>
            ),
          },
          { title: s('op.type'), dataIndex: 'type_name', width: 100 },
          { title: s('col.price'), dataIndex: 'price_fen', width: 100, render: (v: number) => yuan(v) },
          { title: s('col.stock'), dataIndex: 'stock', width: 90 },
          { title: s('sold', { n: '' }).trim(), dataIndex: 'sold', width: 80 },
          {
            title: s('op.state'),
            key: 'listed',
            width: 90,
            render: (_, g) => (g.listed ? <Tag color="green">{s('op.listed')}</Tag> : <Tag>{s('op.unlisted')}</Tag>),
          },
          {
            title: s('op.actions'),
            key: 'actions',
            width: 220,
            render: (_, g) => (
              <Space size={0} wrap>
                <Button type="link" size="small" onClick={() => setEditing(g)}>
                  {s('op.edit')}
                </Button>
                <Button type="link" size="small" onClick={() => setStocking(g)}>
                  {s('op.stock')}
                </Button>
                <Button type="link" size="small" loading={unmount.busy && unmount.input?.id === g.id} onClick={() => void toggle(g)}>
                  {g.listed ? s('op.unlist') : s('op.list')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
      {editing && (
        <GoodsDialog goods={editing === 'new' ? null : editing} types={types.data ?? []} onClose={() => setEditing(null)} onSaved={refresh} />
      )}
      {stocking && <StockDialog goods={stocking} onClose={() => setStocking(null)} onSaved={refresh} />}
    </Card>
  );
}

interface GoodsFormValues {
  type_id: number;
  name: string;
  price: string;
  stock?: number;
  pictures?: string;
  description?: string;
  listed?: boolean;
}

function GoodsDialog({ goods, types, onClose, onSaved }: { goods: StoreGoods | null; types: GoodsType[]; onClose: () => void; onSaved: () => void }) {
  const s = storeStrings.use();
  const [form] = Form.useForm<GoodsFormValues>();
  const saved = {
    success: s('saved'),
    onDone: () => {
      onSaved();
      onClose();
    },
  };
  const add = useAction('addStoreGoods', saved);
  const edit = useAction('editStoreGoods', saved);
  const requestId = useRef(newRequestId());
  const save = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    const fields = {
      type_id: v.type_id,
      name: v.name.trim(),
      price_fen: yuanToFen(v.price)!,
      pictures: (v.pictures ?? '')
        .split('\n')
        .map((x) => x.trim())
        .filter(Boolean),
      description: (v.description ?? '').trim(),
    };
    if (goods) await edit.run({ id: goods.id, version: goods.version, ...fields });
    else {
      const input: AddStoreGoodsInput = { ...fields, stock: v.stock ?? 0, listed: v.listed ?? true, request_id: requestId.current };
      await add.run(input);
    }
  };
  return (
    <Modal
      open
      title={goods ? s('op.edit') : s('op.add')}
      onCancel={onClose}
      onOk={() => void save()}
      confirmLoading={add.busy || edit.busy}
      destroyOnHidden
      width={560}
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={
          goods
            ? {
                type_id: goods.type_id,
                name: goods.name,
                price: formatFen(goods.price_fen),
                pictures: goods.pictures.join('\n'),
                description: goods.description,
              }
            : { type_id: types[0]?.id, stock: 0, listed: true }
        }
      >
        <Form.Item name="type_id" label={s('op.type')} rules={[{ required: true, message: s('required') }]}>
          <Select options={types.map((t) => ({ value: t.id, label: t.name }))} />
        </Form.Item>
        <Form.Item name="name" label={s('op.name')} rules={[{ required: true, whitespace: true, message: s('required') }]}>
          <Input maxLength={60} />
        </Form.Item>
        <Form.Item
          name="price"
          label={s('op.price')}
          normalize={(v: string) => sanitizeMoneyInput(v ?? '')}
          rules={[
            { required: true, message: s('required') },
            {
              validator: async (_, v: string) => {
                const fen = yuanToFen(v ?? '');
                if (fen === null || fen < 1 || fen > STORE_LIMITS.maxPriceFen) throw new Error(s('v.price'));
              },
            },
          ]}
        >
          <Input inputMode="decimal" prefix="¥" />
        </Form.Item>
        {!goods && (
          <Space size="large">
            <Form.Item
              name="stock"
              label={s('op.first_stock')}
              rules={[{ required: true, type: 'integer', min: 0, max: STORE_LIMITS.maxStock, message: s('v.int') }]}
            >
              <InputNumber min={0} max={STORE_LIMITS.maxStock} precision={0} />
            </Form.Item>
            <Form.Item name="listed" label={s('op.list')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Space>
        )}
        <Form.Item name="pictures" label={s('op.pictures')}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} placeholder="https://…" />
        </Form.Item>
        <Form.Item name="description" label={s('op.description')}>
          <Input.TextArea autoSize={{ minRows: 3, maxRows: 8 }} maxLength={2000} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function StockDialog({ goods, onClose, onSaved }: { goods: StoreGoods; onClose: () => void; onSaved: () => void }) {
  const s = storeStrings.use();
  const [form] = Form.useForm<{ quantity: number }>();
  const addStock = useAction('addStoreGoodsStock', {
    success: s('op.stock_added'),
    onDone: () => {
      onSaved();
      onClose();
    },
  });
  const requestId = useRef(newRequestId());
  const save = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    await addStock.run({ id: goods.id, quantity: v.quantity, request_id: requestId.current });
  };
  return (
    <Modal open title={`${s('op.stock')} · ${goods.name}`} onCancel={onClose} onOk={() => void save()} confirmLoading={addStock.busy} destroyOnHidden>
      <Typography.Paragraph type="secondary">{s('stock', { n: goods.stock })}</Typography.Paragraph>
      <Form form={form} layout="vertical">
        <Form.Item name="quantity" label={s('op.stock_qty')} rules={[{ required: true, type: 'integer', min: 1, max: 100_000, message: s('v.int') }]}>
          <InputNumber min={1} max={100_000} precision={0} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
