import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Checkbox, Flex, Form, Input, Modal, Popconfirm, Radio, Space, Table, Tag, Typography } from 'antd';
import {
  MOBILE_RE,
  STORE_LIMITS,
  parseStoreItems,
  type AddAddressInput,
  type GoodsOrderPreview,
  type StoreAddress,
  type StoreOrder,
  type SubmitGoodsOrderInput,
} from '@wantuo/shared';
import { useMemo, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useAction } from '../../api/action';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { newRequestId } from '../../lib/request-id';
import { GoodsCover, PayOrderDialog, yuan } from './common';
import { storeStrings } from './strings';

/**
 * /confirmOrder?items=id:qty,…: the order before it is placed (GET submitGoodsOrder: lines, prices, delivery, total,
 * address; nothing written), the school's addresses (addressList: add, edit, default, delete), then the order is placed and paid
 * through the one payment dialog.
 */
export default function ConfirmOrder() {
  const s = storeStrings.use();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [params] = useSearchParams();
  const itemsParam = params.get('items') ?? '';
  const items = useMemo(() => parseStoreItems(itemsParam), [itemsParam]);
  const [addressId, setAddressId] = useState<number | null>(null);
  const [remark, setRemark] = useState('');
  const [editing, setEditing] = useState<StoreAddress | 'new' | null>(null);
  const [placed, setPlaced] = useState<StoreOrder | null>(null);
  // one request id per screen: a double click or a retry places one order
  const requestId = useRef(newRequestId());
  const query = { items: itemsParam, ...(addressId ? { address_id: addressId } : {}) };
  const q = useQuery({
    queryKey: queryKey('submitGoodsOrder', query),
    queryFn: () => get('submitGoodsOrder', query),
    enabled: !!items,
    placeholderData: keepPreviousData,
  });
  const addresses = useQuery({ queryKey: queryKey('addressList'), queryFn: () => get('addressList'), enabled: !!items });
  const refreshPreview = () => void qc.invalidateQueries({ queryKey: queryKey('submitGoodsOrder') });
  /** after an address changed: the list and the preview (its default may have moved) */
  const refreshAddresses = () => {
    void qc.invalidateQueries({ queryKey: queryKey('addressList') });
    refreshPreview();
  };

  const place = useAction('submitGoodsOrder', {
    success: s('submitted'),
    onDone: (o) => setPlaced(o),
    // a refusal (stock, price changed) is shown by the request wrapper; the preview is read again
    onError: () => {
      requestId.current = newRequestId();
      refreshPreview();
    },
  });
  const placing = place.busy;
  // after an address changed: the list and the preview (its default may have moved)
  const delAddress = useAction('delAddress', {
    invalidates: ['addressList', 'submitGoodsOrder'],
    onDone: (_, { id }) => setAddressId((current) => (current === id ? null : current)),
  });
  const setDefault = useAction('editAddress', { invalidates: ['addressList', 'submitGoodsOrder'] });

  if (!items) return <EmptyState description={s('no_items')} />;
  if (q.isError) return <LoadError message={q.error.message} onRetry={() => void q.refetch()} />;
  if (q.isLoading || !q.data) return <Loading />;
  const p = q.data;

  const submit = async () => {
    if (!p.address) return;
    const input: SubmitGoodsOrderInput = {
      items,
      address_id: p.address.id,
      total_fen: p.total_fen,
      ...(remark.trim() ? { remark: remark.trim() } : {}),
      request_id: requestId.current,
    };
    await place.run(input);
  };

  const removeAddress = (a: StoreAddress) => delAddress.run({ id: a.id });
  const makeDefault = (a: StoreAddress) =>
    setDefault.run({ id: a.id, version: a.version, name: a.name, mobile: a.mobile, region: a.region, detail: a.detail, is_default: true });

  return (
    <Flex vertical gap={16}>
      <Card
        title={s('address')}
        data-testid="order-addresses"
        extra={
          <Button onClick={() => setEditing('new')} disabled={!addresses.data || addresses.data.length >= STORE_LIMITS.maxAddresses}>
            {s('address_add')}
          </Button>
        }
      >
        {addresses.isError ? (
          <LoadError message={addresses.error.message} onRetry={() => void addresses.refetch()} />
        ) : !addresses.data ? (
          <Loading />
        ) : !addresses.data.length ? (
          <EmptyState description={s('address_none')} />
        ) : (
          <Radio.Group value={p.address?.id} onChange={(e) => setAddressId(e.target.value as number)} style={{ width: '100%' }}>
            <Flex vertical gap={8}>
              {addresses.data.map((a) => (
                <Flex
                  key={a.id}
                  justify="space-between"
                  align="center"
                  wrap
                  gap={8}
                  style={{ padding: 8, border: '1px solid #f0f0f0', borderRadius: 6 }}
                >
                  <Radio value={a.id}>
                    <Space wrap size={4}>
                      <Typography.Text strong>{a.name}</Typography.Text>
                      <Typography.Text>{a.mobile}</Typography.Text>
                      {a.is_default && <Tag color="blue">{s('address_default')}</Tag>}
                      <Typography.Text type="secondary">
                        {a.region} {a.detail}
                      </Typography.Text>
                    </Space>
                  </Radio>
                  <Space size={0}>
                    {!a.is_default && (
                      <Button type="link" size="small" loading={setDefault.busy && setDefault.input?.id === a.id} onClick={() => void makeDefault(a)}>
                        {s('address_set_default')}
                      </Button>
                    )}
                    <Button type="link" size="small" onClick={() => setEditing(a)}>
                      {s('address_edit')}
                    </Button>
                    <Popconfirm
                      title={s('address_delete_q')}
                      onConfirm={() => removeAddress(a)}
                      okText={s('address_delete')}
                      cancelText={s('cancel')}
                    >
                      <Button type="link" size="small" danger>
                        {s('address_delete')}
                      </Button>
                    </Popconfirm>
                  </Space>
                </Flex>
              ))}
            </Flex>
          </Radio.Group>
        )}
      </Card>

      <Card title={s('goods_list')}>
        <Table<GoodsOrderPreview['lines'][number]>
          rowKey="goods_id"
          pagination={false}
          dataSource={p.lines}
          scroll={{ x: 560 }}
          columns={[
            {
              title: s('col.good'),
              key: 'good',
              render: (_, l) => (
                <Space>
                  <GoodsCover src={l.picture} name={l.name} size={48} />
                  <span>{l.name}</span>
                  {!l.enough && <Tag color="red">{s('not_enough', { n: l.stock })}</Tag>}
                </Space>
              ),
            },
            { title: s('col.price'), dataIndex: 'price_fen', width: 110, render: (v: number) => yuan(v) },
            { title: s('col.qty'), dataIndex: 'quantity', width: 80 },
            { title: s('col.amount'), dataIndex: 'amount_fen', width: 120, render: (v: number) => yuan(v) },
          ]}
        />
        <Input.TextArea
          value={remark}
          onChange={(e) => setRemark(e.target.value)}
          maxLength={200}
          placeholder={s('remark')}
          autoSize={{ minRows: 1, maxRows: 3 }}
          style={{ marginTop: 16 }}
        />
        <Flex vertical align="end" gap={4} style={{ marginTop: 16 }}>
          <Typography.Text>
            {s('goods_fen')}：{yuan(p.goods_fen)}
          </Typography.Text>
          <Typography.Text>
            {s('freight_fen')}：{yuan(p.freight_fen)}
          </Typography.Text>
          <Typography.Text strong style={{ fontSize: 18 }}>
            {s('total_fen')}：
            <span style={{ color: '#cf1322' }} data-testid="order-total">
              {yuan(p.total_fen)}
            </span>
          </Typography.Text>
          {!p.address && <Alert type="warning" showIcon title={s('address_none')} />}
          <Button
            type="primary"
            size="large"
            loading={placing}
            disabled={!p.orderable || !!placed}
            onClick={() => void submit()}
            style={{ marginTop: 8 }}
          >
            {s('submit')}
          </Button>
        </Flex>
      </Card>

      {editing && (
        <AddressDialog
          address={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(a) => {
            setEditing(null);
            setAddressId(a.id);
            refreshAddresses();
          }}
        />
      )}
      {placed && <PayOrderDialog order={placed} onPaid={() => undefined} onClose={() => navigate('/principal_store_orders')} />}
    </Flex>
  );
}

type AddressForm = AddAddressInput;

/** Adds or edits a delivery address. */
function AddressDialog({ address, onClose, onSaved }: { address: StoreAddress | null; onClose: () => void; onSaved: (a: StoreAddress) => void }) {
  const s = storeStrings.use();
  const [form] = Form.useForm<AddressForm>();
  const saved = { success: s('saved'), onDone: onSaved };
  const add = useAction('addAddress', saved);
  const edit = useAction('editAddress', saved);
  const save = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    const body = { name: v.name.trim(), mobile: v.mobile.trim(), region: v.region.trim(), detail: v.detail.trim(), is_default: !!v.is_default };
    if (address) await edit.run({ id: address.id, version: address.version, ...body });
    else await add.run(body);
  };
  return (
    <Modal
      open
      title={address ? s('address_edit') : s('address_add')}
      onCancel={onClose}
      onOk={() => void save()}
      confirmLoading={add.busy || edit.busy}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={address ?? { is_default: false }}>
        <Form.Item name="name" label={s('f.name')} rules={[{ required: true, whitespace: true, message: s('required') }]}>
          <Input maxLength={20} />
        </Form.Item>
        <Form.Item
          name="mobile"
          label={s('f.mobile')}
          rules={[
            { required: true, message: s('required') },
            { pattern: MOBILE_RE, message: s('v.mobile') },
          ]}
        >
          <Input maxLength={11} inputMode="tel" />
        </Form.Item>
        <Form.Item name="region" label={s('f.region')} rules={[{ required: true, whitespace: true, message: s('required') }]}>
          <Input maxLength={60} placeholder={s('f.region_ph')} />
        </Form.Item>
        <Form.Item name="detail" label={s('f.detail')} rules={[{ required: true, whitespace: true, message: s('required') }]}>
          <Input maxLength={120} />
        </Form.Item>
        <Form.Item name="is_default" valuePropName="checked">
          <Checkbox>{s('f.default')}</Checkbox>
        </Form.Item>
      </Form>
    </Modal>
  );
}
