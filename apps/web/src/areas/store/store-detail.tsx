import { useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Descriptions, Flex, Image, InputNumber, Row, Space, Tag, Typography } from 'antd';
import { formatFen, formatStoreItems, STORE_FREE_SHIPPING_FEN, STORE_FREIGHT_FEN, STORE_LIMITS } from '@wantuo/shared';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { get } from '../../api/http';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { GoodsCover, yuan } from './common';
import { storeStrings } from './strings';
import { queryKey } from '../../api/query';

/** /onlineStore_detail?id=: one good's pictures, description, price and stock; buy now goes to /confirmOrder. */
export default function StoreDetail() {
  const s = storeStrings.use();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const [qty, setQty] = useState(1);
  const q = useQuery({
    queryKey: queryKey('goodsInfo', { id }),
    queryFn: () => get('goodsInfo', { id }),
    enabled: Number.isInteger(id) && id > 0,
    retry: false,
  });
  if (!Number.isInteger(id) || id <= 0)
    return (
      <Card>
        <EmptyState description={s('choose_goods')}>
          <Button type="primary" onClick={() => navigate('/onlineStore')}>
            {s('to_mall')}
          </Button>
        </EmptyState>
      </Card>
    );
  if (q.isError) return <LoadError message={q.error.message} onRetry={() => void q.refetch()} />;
  if (q.isLoading || !q.data) return <Loading />;
  const g = q.data;
  const max = Math.min(g.stock, STORE_LIMITS.maxQuantity);
  return (
    <Card>
      <Button type="link" onClick={() => navigate('/onlineStore')} style={{ paddingLeft: 0, marginBottom: 8 }}>
        ← {s('back')}
      </Button>
      <Row gutter={[24, 24]}>
        <Col xs={24} md={10}>
          {g.pictures.length ? (
            <Image.PreviewGroup>
              <Flex vertical gap={8}>
                <Image src={g.pictures[0]} alt={g.name} style={{ width: '100%', maxHeight: 360, objectFit: 'contain' }} />
                <Space wrap>
                  {g.pictures.slice(1).map((p) => (
                    <Image key={p} src={p} alt={g.name} width={72} height={72} style={{ objectFit: 'cover' }} />
                  ))}
                </Space>
              </Flex>
            </Image.PreviewGroup>
          ) : (
            <GoodsCover name={g.name} size={240} />
          )}
        </Col>
        <Col xs={24} md={14}>
          <Typography.Title level={4} style={{ marginTop: 0 }}>
            {g.name}
          </Typography.Title>
          <Space size="middle" align="baseline" wrap>
            <Typography.Text strong style={{ color: '#cf1322', fontSize: 24 }}>
              <span data-testid="detail-price">{yuan(g.price_fen)}</span>
            </Typography.Text>
            <Tag>{g.type_name}</Tag>
            {g.stock > 0 ? <Typography.Text type="secondary">{s('stock', { n: g.stock })}</Typography.Text> : <Tag color="red">{s('sold_out')}</Tag>}
            <Typography.Text type="secondary">{s('sold', { n: g.sold })}</Typography.Text>
          </Space>
          <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
            {s('free_shipping', { n: formatFen(STORE_FREE_SHIPPING_FEN), f: formatFen(STORE_FREIGHT_FEN) })}
          </Typography.Paragraph>
          <Flex gap={12} align="center" wrap style={{ margin: '16px 0' }}>
            <Typography.Text>{s('quantity')}</Typography.Text>
            <InputNumber
              min={1}
              max={Math.max(1, max)}
              precision={0}
              value={qty}
              onChange={(v) => setQty(Math.max(1, Math.min(max, v ?? 1)))}
              disabled={g.stock <= 0}
              aria-label={s('quantity')}
            />
            <Button
              type="primary"
              size="large"
              disabled={g.stock <= 0}
              onClick={() => navigate(`/confirmOrder?items=${formatStoreItems([{ goods_id: g.id, quantity: qty }])}`)}
            >
              {s('buy_now')}
            </Button>
          </Flex>
          <Descriptions
            column={1}
            size="small"
            items={[
              {
                key: 'd',
                label: s('description'),
                children: (
                  <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }}>
                    {g.description || s('no_description')}
                  </Typography.Paragraph>
                ),
              },
            ]}
          />
        </Col>
      </Row>
    </Card>
  );
}
