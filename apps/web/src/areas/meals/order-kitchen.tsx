import { skipToken, useQuery } from '@tanstack/react-query';
import { Flex, Statistic, Table, Tag, Typography } from 'antd';
import type { MealCountMessage } from '@wantuo/shared';
import { useCallback, useState } from 'react';
import { get } from '../../api/http';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { useMealCountLive } from './live';
import { mealStrings } from './strings';
import { queryKey } from '../../api/query';

/** /principal_order's kitchen tab: today's count per item, kept live by the meal-count messages. */
export function Kitchen() {
  const s = mealStrings.use();
  const settings = useQuery({ queryKey: queryKey('mealSettings'), queryFn: () => get('mealSettings') });
  const today = settings.data?.today;
  const q = useQuery({
    queryKey: ['orderMealCount', today],
    queryFn: today ? () => get('orderMealCount', { from: today, to: today }) : skipToken,
  });
  const [live, setLive] = useState<MealCountMessage | null>(null);
  useMealCountLive(
    useCallback(
      (m: MealCountMessage) => {
        if (m.day === today) setLive(m);
      },
      [today],
    ),
  );
  if (settings.isLoading || q.isLoading) return <Loading />;
  if (settings.isError || q.isError) return <LoadError onRetry={() => void (settings.isError ? settings.refetch() : q.refetch())} />;
  const items = live
    ? live.items
    : (q.data?.rows ?? []).map((r) => ({
        goods_id: r.goods_id,
        goods_name: r.goods_name,
        booked: r.booked,
        served: r.served,
        unbooked_served: r.unbooked_served,
      }));
  return (
    <>
      <Flex align="center" gap={8} style={{ marginBottom: 12 }}>
        <Typography.Title level={5} style={{ margin: 0 }}>
          {s('kitchen.title', { day: today ?? '' })}
        </Typography.Title>
        <Tag color="green">{s('kitchen.live')}</Tag>
      </Flex>
      {items.length === 0 ? (
        <EmptyState description={s('kitchen.empty')} />
      ) : (
        <Table
          rowKey={(r) => String(r.goods_id)}
          pagination={false}
          dataSource={items}
          data-testid="kitchen-count"
          columns={[
            { title: s('orders.goods'), dataIndex: 'goods_name', render: (v: string | null) => v ?? s('kitchen.no_item') },
            {
              title: s('kitchen.booked'),
              dataIndex: 'booked',
              render: (n: number) => <Statistic value={n} styles={{ content: { fontSize: 20 } }} />,
            },
            { title: s('kitchen.served'), dataIndex: 'served' },
            { title: s('kitchen.unbooked'), dataIndex: 'unbooked_served' },
          ]}
        />
      )}
    </>
  );
}
