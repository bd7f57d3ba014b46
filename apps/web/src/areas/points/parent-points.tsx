import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Alert, Avatar, Button, Card, Empty, Flex, Modal, Radio, Space, Tag, Typography } from 'antd';
import { exchangeDecision, type ParentChild, type ScoreGoods } from '@wantuo/shared';
import { useState } from 'react';
import { get } from '../../api/http';
import { LoadError, Loading } from '../../components/states';
import { useSchoolClock } from '../../lib/school-time';
import { GoodsPicture, LedgerList, OrderStateTag } from './common';
import { pointsStrings } from './strings';
import { useBalances, useExchange } from './use-parent-points';
import { ChildSwitcher, ParentChildren } from '../parent/children-gate';
import { nextPageOf, queryKey } from '../../api/query';

/** /parent_points: each child's balance and history, the goods on sale with exchange (confirmed first), and the exchanges made. */
export default function ParentPoints() {
  const s = pointsStrings.use();
  return (
    <Flex vertical gap={12} style={{ maxWidth: 720 }}>
      <ParentChildren empty={s('parent.no_children')}>{(kids) => <ChildrenPoints kids={kids} />}</ParentChildren>
    </Flex>
  );
}

function ChildrenPoints({ kids }: { kids: ParentChild[] }) {
  const s = pointsStrings.use();
  const [current, setCurrent] = useState(kids[0].id);
  const [exchanging, setExchanging] = useState<ScoreGoods | null>(null);
  // every child's balance (the exchange dialog shows them all); the history pages for the child shown
  const { balanceOf, queryOf } = useBalances(kids);
  const kid = kids.find((k) => k.id === current)!;
  const b = queryOf(kid.id);

  return (
    <>
      <ChildSwitcher kids={kids} value={current} onChange={(id) => setCurrent(id)} />
      <Card size="small" styles={{ body: { padding: 16 } }} data-testid="points-balance">
        <Flex align="center" gap={12}>
          <Avatar size={48} src={kid.photo_url || undefined} style={{ backgroundColor: kid.gender === 2 ? '#eb2f96' : '#1677ff', flex: 'none' }}>
            {kid.name.slice(-1)}
          </Avatar>
          <div style={{ flex: 1, minWidth: 0 }}>
            <Typography.Text strong style={{ fontSize: 16 }}>
              {kid.name}
            </Typography.Text>
            <div>
              <Typography.Text type="secondary">{kid.care_class?.name ?? ''}</Typography.Text>
            </div>
          </div>
          <div style={{ textAlign: 'right' }}>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {s('parent.balance')}
            </Typography.Text>
            <div style={{ fontSize: 28, fontWeight: 700, color: '#d46b08', lineHeight: 1.1 }}>
              {b?.isLoading ? '…' : b?.isError ? '-' : (b?.data?.balance ?? 0)}
            </div>
          </div>
        </Flex>
      </Card>
      <Shop balance={balanceOf(current)} onExchange={setExchanging} />
      <Card size="small" title={s('award.history')}>
        <LedgerList studentId={current} />
      </Card>
      <Orders studentId={current} />
      {exchanging && <ExchangeDialog good={exchanging} kids={kids} initial={current} balanceOf={balanceOf} onClose={() => setExchanging(null)} />}
    </>
  );
}

const SHOP_PAGE = 20;

function Shop({ balance, onExchange }: { balance: number | undefined; onExchange: (g: ScoreGoods) => void }) {
  const s = pointsStrings.use();
  // 20 goods at a time, "more" for the next (the server pages them)
  const q = useInfiniteQuery({
    queryKey: queryKey('pointsShop', { limit: SHOP_PAGE }),
    queryFn: ({ pageParam }) => get('pointsShop', { page: pageParam, limit: SHOP_PAGE }),
    initialPageParam: 1,
    getNextPageParam: nextPageOf,
  });
  const goods = q.data?.pages.flatMap((p) => p.list) ?? [];
  return (
    <Card size="small" title={s('parent.shop')}>
      {q.isLoading ? (
        <Loading />
      ) : q.isError ? (
        <LoadError onRetry={() => void q.refetch()} />
      ) : goods.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={s('parent.shop_empty')} />
      ) : (
        <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))', gap: 10 }}>
          {goods.map((g) => {
            const soldOut = g.stock <= 0;
            const affordable = balance !== undefined && balance >= g.price;
            return (
              <div
                key={g.id}
                data-testid={`goods-${g.id}`}
                style={{
                  border: '1px solid #f0f0f0',
                  borderRadius: 8,
                  padding: 10,
                  display: 'flex',
                  flexDirection: 'column',
                  gap: 6,
                  opacity: soldOut ? 0.6 : 1,
                }}
              >
                <Flex justify="center">
                  <GoodsPicture url={g.picture_url} size={96} />
                </Flex>
                <Typography.Text strong ellipsis>
                  {g.name}
                </Typography.Text>
                <Flex justify="space-between" align="center">
                  <Typography.Text style={{ color: '#d46b08', fontWeight: 600 }}>{s('points_of', { n: g.price })}</Typography.Text>
                  {soldOut ? (
                    <Tag color="red">{s('sold_out')}</Tag>
                  ) : (
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {s('parent.stock_left', { n: g.stock })}
                    </Typography.Text>
                  )}
                </Flex>
                <Button type="primary" block disabled={soldOut} ghost={!affordable} onClick={() => onExchange(g)} style={{ minHeight: 40 }}>
                  {s('parent.exchange')}
                </Button>
              </div>
            );
          })}
          {q.hasNextPage && (
            <Button block onClick={() => void q.fetchNextPage()} loading={q.isFetchingNextPage} style={{ gridColumn: '1 / -1' }}>
              {s('parent.more')}
            </Button>
          )}
        </div>
      )}
    </Card>
  );
}

function ExchangeDialog({
  good,
  kids,
  initial,
  balanceOf,
  onClose,
}: {
  good: ScoreGoods;
  kids: ParentChild[];
  initial: number;
  balanceOf: (id: number) => number | undefined;
  onClose: () => void;
}) {
  const s = pointsStrings.use();
  const [child, setChild] = useState(initial);
  const { exchange, busy } = useExchange();
  const name = kids.find((k) => k.id === child)!.name;
  const balance = balanceOf(child) ?? 0;
  const d = exchangeDecision(balance, good);
  const submit = async () => {
    if (await exchange(child, good)) onClose();
  };
  return (
    <Modal
      open
      title={s('parent.exchange_title', { child: name, good: good.name })}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={s('parent.exchange')}
      cancelText={s('cancel')}
      okButtonProps={{ disabled: !d.ok, size: 'large' }}
      cancelButtonProps={{ size: 'large' }}
      confirmLoading={busy}
      destroyOnHidden
    >
      <Flex gap={12} align="center" style={{ marginBottom: 12 }}>
        <GoodsPicture url={good.picture_url} size={64} />
        <div style={{ minWidth: 0 }}>
          <Typography.Text strong>{good.name}</Typography.Text>
          {good.description && (
            <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} style={{ margin: 0 }}>
              {good.description}
            </Typography.Paragraph>
          )}
        </div>
      </Flex>
      {kids.length > 1 && (
        <Space orientation="vertical" style={{ width: '100%', marginBottom: 12 }}>
          <Typography.Text type="secondary">{s('parent.exchange_for')}</Typography.Text>
          <Radio.Group value={child} onChange={(e) => setChild(e.target.value as number)}>
            {kids.map((k) => (
              <Radio key={k.id} value={k.id} style={{ padding: '6px 0' }}>
                {k.name}（{s('points_of', { n: balanceOf(k.id) ?? 0 })}）
              </Radio>
            ))}
          </Radio.Group>
        </Space>
      )}
      {d.ok ? (
        <Alert type="info" showIcon title={s('parent.exchange_cost', { price: good.price, after: d.value })} />
      ) : (
        <Alert
          type="warning"
          showIcon
          title={d.error === 'points.insufficient' ? s('parent.exchange_short', { child: name, balance, price: good.price }) : s('sold_out')}
        />
      )}
    </Modal>
  );
}

function Orders({ studentId }: { studentId: number }) {
  const s = pointsStrings.use();
  const when = useSchoolClock().dateTime;
  const [page, setPage] = useState(1);
  const input = { student_id: studentId, page, limit: 10 };
  const q = useQuery({
    queryKey: queryKey('scoreOrderList', input),
    queryFn: () => get('scoreOrderList', input),
  });
  const total = q.data?.total ?? 0;
  return (
    <Card size="small" title={s('parent.orders')}>
      {q.isLoading ? (
        <Loading />
      ) : q.isError ? (
        <LoadError onRetry={() => void q.refetch()} />
      ) : total === 0 ? (
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {s('parent.orders_empty')}
        </Typography.Paragraph>
      ) : (
        <>
          <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
            {q.data!.list.map((o) => (
              <li key={o.id} style={{ padding: '8px 0', borderBottom: '1px solid rgba(5,5,5,0.06)' }}>
                <Flex gap={10} align="center">
                  <GoodsPicture url={o.picture_url} size={40} />
                  <div style={{ flex: 1, minWidth: 0 }}>
                    <Typography.Text ellipsis>{o.goods_name}</Typography.Text>
                    <div>
                      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                        {when(o.created_at)} · {s('points_of', { n: o.price })}
                      </Typography.Text>
                    </div>
                  </div>
                  <OrderStateTag state={o.state} />
                </Flex>
              </li>
            ))}
          </ul>
          {total > 10 && (
            <Flex justify="center" gap={8} style={{ marginTop: 8 }}>
              <Button size="small" disabled={page === 1} onClick={() => setPage(page - 1)}>
                ‹
              </Button>
              <Typography.Text type="secondary">
                {page} / {Math.ceil(total / 10)}
              </Typography.Text>
              <Button size="small" disabled={page * 10 >= total} onClick={() => setPage(page + 1)}>
                ›
              </Button>
            </Flex>
          )}
        </>
      )}
    </Card>
  );
}
