import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Flex, Input, Pagination, Row, Segmented, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { get } from '../../api/http';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { GoodsCover, yuan } from './common';
import { storeStrings } from './strings';
import { queryKey } from '../../api/query';

const PAGE = 12;

/** /onlineStore: the mall's goods by category (price, stock), searchable, paged on the server. */
export default function OnlineStore() {
  const s = storeStrings.use();
  const navigate = useNavigate();
  const [type, setType] = useState<number>(0);
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const types = useQuery({ queryKey: queryKey('goodsType'), queryFn: () => get('goodsType'), staleTime: 300_000 });
  const params = { page, limit: PAGE, ...(type ? { type_id: type } : {}), ...(keyword ? { keyword } : {}) };
  const q = useQuery({
    queryKey: queryKey('goodsList', params),
    queryFn: () => get('goodsList', params),
    placeholderData: keepPreviousData,
  });

  return (
    <Card>
      <Flex wrap gap={8} justify="space-between" style={{ marginBottom: 16 }}>
        <div style={{ maxWidth: '100%', overflowX: 'auto' }}>
          <Segmented<number>
            value={type}
            onChange={(v) => {
              setType(v);
              setPage(1);
            }}
            options={[{ value: 0, label: s('all') }, ...(types.data ?? []).map((t) => ({ value: t.id, label: t.name }))]}
          />
        </div>
        <Flex gap={8} wrap>
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
          <Button onClick={() => navigate('/principal_store_orders')}>{s('my_orders')}</Button>
        </Flex>
      </Flex>
      {q.isError ? (
        <LoadError onRetry={() => void q.refetch()} />
      ) : q.isLoading ? (
        <Loading />
      ) : !q.data?.list.length ? (
        <EmptyState description={s('empty_goods')} />
      ) : (
        <>
          <Row gutter={[16, 16]}>
            {q.data.list.map((g) => (
              <Col key={g.id} xs={12} sm={8} md={6} xl={4} data-testid="store-good">
                <Card
                  hoverable
                  size="small"
                  onClick={() => navigate(`/onlineStore_detail?id=${g.id}`)}
                  cover={
                    <div style={{ paddingTop: 12 }}>
                      <div style={{ width: 120, margin: '0 auto' }}>
                        <GoodsCover src={g.pictures[0]} name={g.name} size={120} />
                      </div>
                    </div>
                  }
                >
                  <Typography.Paragraph ellipsis={{ rows: 2 }} style={{ minHeight: 44, marginBottom: 4 }}>
                    {g.name}
                  </Typography.Paragraph>
                  <Flex justify="space-between" align="baseline">
                    <Typography.Text strong style={{ color: '#cf1322', fontSize: 16 }}>
                      {yuan(g.price_fen)}
                    </Typography.Text>
                    {g.stock > 0 ? <Typography.Text type="secondary">{s('stock', { n: g.stock })}</Typography.Text> : <Tag>{s('sold_out')}</Tag>}
                  </Flex>
                </Card>
              </Col>
            ))}
          </Row>
          <Flex justify="end" style={{ marginTop: 16 }}>
            <Pagination current={page} pageSize={PAGE} total={q.data.total} onChange={setPage} showSizeChanger={false} />
          </Flex>
        </>
      )}
    </Card>
  );
}
