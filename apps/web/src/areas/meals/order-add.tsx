import { useQuery } from '@tanstack/react-query';
import { Button, Card, Flex, Form, Input, Space, Upload } from 'antd';
import { formatFen, yuanToFen, type MealGoods } from '@wantuo/shared';
import { useNavigate, useSearchParams } from 'react-router';
import { useAction } from '../../api/action';
import { get, upload } from '../../api/http';
import { MoneyInput } from '../../components/money-input';
import { LoadError, Loading } from '../../components/states';
import { mealStrings } from './strings';

interface Values {
  name: string;
  price?: string;
  description?: string;
  picture_url?: string | null;
}

/** /principal_order_add: adds a meal item (name, price, picture, description), or edits one (?id=; its price through 调价). */
export default function OrderAdd() {
  const s = mealStrings.use();
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || null;
  const one = useQuery({
    queryKey: ['mealGoods', id],
    // the item from its list (one page of 100 is every item a school has)
    queryFn: async () => (await get('mealGoodsList', { page: 1, limit: 100 })).list.find((g) => g.id === id) ?? null,
    enabled: id !== null,
  });
  return (
    <Card title={id ? s('form.title_edit') : s('form.title_add')}>
      {id && one.isLoading ? (
        <Loading />
      ) : id && (one.isError || !one.data) ? (
        <LoadError onRetry={() => void one.refetch()} />
      ) : (
        <GoodsForm goods={one.data ?? null} />
      )}
    </Card>
  );
}

function GoodsForm({ goods }: { goods: MealGoods | null }) {
  const s = mealStrings.use();
  const navigate = useNavigate();
  const [form] = Form.useForm<Values>();
  const picture = Form.useWatch('picture_url', form);
  const saved = { success: s('goods.saved'), invalidates: ['mealGoodsList'], onDone: () => navigate('/principal_order') } as const;
  const add = useAction('addMealGoods', saved);
  const edit = useAction('editMealGoods', saved);
  const save = (v: Values) =>
    goods
      ? edit.run({
          id: goods.id,
          version: goods.version,
          name: v.name,
          description: v.description ?? '',
          picture_url: v.picture_url || null,
        })
      : add.run({
          name: v.name,
          price_fen: yuanToFen(v.price ?? '') ?? 0, // the price field's validator has checked it is a price above 0
          description: v.description ?? '',
          picture_url: v.picture_url || null,
        });
  return (
    <Form<Values>
      form={form}
      layout="vertical"
      style={{ maxWidth: 480 }}
      initialValues={
        goods ? { name: goods.name, description: goods.description ?? '', picture_url: goods.picture_url, price: formatFen(goods.price_fen) } : {}
      }
      onFinish={(v) => void save(v)}
    >
      <Form.Item name="name" label={s('goods.name')} rules={[{ required: true, whitespace: true, message: s('form.name_required') }, { max: 50 }]}>
        <Input maxLength={50} />
      </Form.Item>
      <Form.Item
        name="price"
        label={s('goods.price_yuan')}
        required={!goods}
        extra={goods ? s('form.price_later') : undefined}
        rules={
          goods
            ? []
            : [
                {
                  validator: (_, v: string) =>
                    (yuanToFen(v ?? '') ?? 0) > 0 ? Promise.resolve() : Promise.reject(new Error(s('form.price_required'))),
                },
              ]
        }
      >
        <MoneyInput disabled={goods !== null} />
      </Form.Item>
      <Form.Item name="picture_url" label={s('goods.picture')}>
        <Space>
          {picture && <img src={picture} alt="" style={{ width: 96, height: 96, objectFit: 'cover', borderRadius: 4 }} />}
          <Upload
            accept="image/*"
            showUploadList={false}
            customRequest={async ({ file, onSuccess, onError }) => {
              const fd = new FormData();
              fd.append('file', file as Blob);
              try {
                const res = await upload('upload', fd);
                form.setFieldValue('picture_url', res.url);
                onSuccess?.(res);
              } catch (e) {
                onError?.(e as Error);
              }
            }}
          >
            <Button>{s('goods.upload')}</Button>
          </Upload>
          {picture && <Button onClick={() => form.setFieldValue('picture_url', null)}>{s('goods.remove_picture')}</Button>}
        </Space>
      </Form.Item>
      <Form.Item name="description" label={s('goods.description')} rules={[{ max: 500 }]}>
        <Input.TextArea maxLength={500} rows={3} />
      </Form.Item>
      <Flex gap={8}>
        <Button type="primary" htmlType="submit" loading={add.busy || edit.busy}>
          {s('form.save')}
        </Button>
        <Button onClick={() => navigate('/principal_order')}>{s('form.back')}</Button>
      </Flex>
    </Form>
  );
}
