import { useQuery } from '@tanstack/react-query';
import { Button, Card, Flex, Form, Input, InputNumber, Space, Switch, Typography, Upload } from 'antd';
import { GOODS_MAX_PRICE, GOODS_MAX_STOCK, type ScoreGoods } from '@wantuo/shared';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useAction } from '../../api/action';
import { get, upload } from '../../api/http';
import { queryKey } from '../../api/query';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { newRequestId } from '../../lib/request-id';
import { GoodsPicture } from './common';
import { pointsStrings } from './strings';

interface GoodsValues {
  name: string;
  picture_url?: string;
  description?: string;
  price?: number;
  stock?: number;
  listed?: boolean;
}

/** /principal_shop_add: a new points good, or (with ?id=) the name, picture and description of one. */
export default function GoodsForm() {
  const s = pointsStrings.use();
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || null;
  const info = useQuery({
    queryKey: queryKey('scoreGoodsInfo', { id: id! }),
    queryFn: () => get('scoreGoodsInfo', { id: id! }, { silent: true }),
    enabled: id !== null,
    retry: false,
  });
  return (
    <Card
      title={
        <Typography.Title level={4} style={{ margin: 0 }}>
          {id ? s('form.edit_title') : s('form.add_title')}
        </Typography.Title>
      }
      style={{ maxWidth: 640 }}
    >
      {id === null ? (
        <GoodsEditor goods={null} />
      ) : info.isLoading ? (
        <Loading />
      ) : info.isError ? (
        <NotFoundOrError retry={() => void info.refetch()} error={info.error} />
      ) : (
        <GoodsEditor goods={info.data!} />
      )}
    </Card>
  );
}

function NotFoundOrError({ error, retry }: { error: unknown; retry: () => void }) {
  const s = pointsStrings.use();
  const navigate = useNavigate();
  const notFound = (error as { code?: number })?.code === 100;
  return notFound ? (
    <EmptyState description={s('form.not_found')}>
      <Button onClick={() => navigate('/principal_shop')}>{s('form.back')}</Button>
    </EmptyState>
  ) : (
    <LoadError onRetry={retry} />
  );
}

function GoodsEditor({ goods }: { goods: ScoreGoods | null }) {
  const s = pointsStrings.use();
  const navigate = useNavigate();
  const [form] = Form.useForm<GoodsValues>();
  // a refusal (a name taken, a stale version) is shown by the request wrapper
  const saved = { success: s('saved'), invalidates: ['scoreGoodsList', 'scoreGoodsInfo'], onDone: () => navigate('/principal_shop') } as const;
  const add = useAction('addScoreGoods', saved);
  const edit = useAction('editScoreGoods', saved);
  const [uploading, setUploading] = useState(false);
  const [requestId] = useState(newRequestId);
  const picture = Form.useWatch('picture_url', form) as string | undefined;

  const save = async (v: GoodsValues) => {
    const common = { name: v.name.trim(), picture_url: v.picture_url ?? '', description: v.description?.trim() ?? '' };
    if (goods) await edit.run({ id: goods.id, version: goods.version, ...common });
    // a new good's price is a required field of the form (absent only when editing)
    else await add.run({ ...common, price: v.price ?? 0, stock: v.stock ?? 0, listed: v.listed ?? true, request_id: requestId });
  };

  return (
    <Form<GoodsValues>
      form={form}
      layout="vertical"
      autoComplete="off"
      initialValues={
        goods
          ? { name: goods.name, picture_url: goods.picture_url ?? '', description: goods.description ?? '' }
          : { stock: 10, listed: true, picture_url: '' }
      }
      onFinish={(v) => void save(v)}
    >
      <Form.Item name="name" label={s('form.name')} rules={[{ required: true, whitespace: true, message: s('required') }, { max: 50 }]}>
        <Input maxLength={50} />
      </Form.Item>
      <Form.Item name="picture_url" label={s('form.picture')}>
        <Space align="center" wrap>
          <GoodsPicture url={picture || null} size={72} />
          <Upload
            accept="image/*"
            showUploadList={false}
            customRequest={async ({ file, onSuccess, onError }) => {
              const fd = new FormData();
              fd.append('file', file as Blob);
              setUploading(true);
              try {
                const res = await upload('upload', fd);
                form.setFieldValue('picture_url', res.url);
                onSuccess?.(res);
              } catch (e) {
                onError?.(e as Error);
              } finally {
                setUploading(false);
              }
            }}
          >
            <Button loading={uploading}>{s('form.upload')}</Button>
          </Upload>
          {picture && (
            <Button type="link" onClick={() => form.setFieldValue('picture_url', '')}>
              {s('form.remove_picture')}
            </Button>
          )}
        </Space>
      </Form.Item>
      {goods ? (
        <Typography.Paragraph type="secondary">
          {s('form.price')}：{goods.price} · {s('col.stock')}：{goods.stock}
          <br />
          {s('form.price_edit_hint')}；{s('form.stock_edit_hint')}
        </Typography.Paragraph>
      ) : (
        <Flex gap={12} wrap>
          <Form.Item
            name="price"
            label={s('form.price')}
            rules={[{ required: true, type: 'integer', min: 1, max: GOODS_MAX_PRICE, message: s('v.price') }]}
            style={{ flex: '1 1 180px' }}
          >
            <InputNumber min={1} max={GOODS_MAX_PRICE} precision={0} suffix={s('unit')} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item
            name="stock"
            label={s('form.stock')}
            rules={[{ required: true, type: 'integer', min: 0, max: GOODS_MAX_STOCK, message: s('v.stock') }]}
            style={{ flex: '1 1 180px' }}
          >
            <InputNumber min={0} max={GOODS_MAX_STOCK} precision={0} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item name="listed" label={s('form.listed')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Flex>
      )}
      <Form.Item name="description" label={s('form.description')} rules={[{ max: 500 }]}>
        <Input.TextArea rows={3} maxLength={500} showCount />
      </Form.Item>
      <Space>
        <Button type="primary" htmlType="submit" loading={add.busy || edit.busy}>
          {s('form.save')}
        </Button>
        <Button onClick={() => navigate('/principal_shop')}>{s('form.back')}</Button>
      </Space>
    </Form>
  );
}
