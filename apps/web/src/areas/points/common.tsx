import { useInfiniteQuery } from '@tanstack/react-query';
import { Button, Flex, Tag, Typography } from 'antd';
import type { OrderState, PointsLedgerEntry } from '@wantuo/shared';
import { get } from '../../api/http';
import { LoadError, Loading } from '../../components/states';
import { useSchoolClock } from '../../lib/school-time';
import { pointsStrings } from './strings';
import { nextPageOf, queryKey } from '../../api/query';

export const ORDER_COLOR: Record<OrderState, string> = { pending: 'gold', handed_over: 'green', cancelled: 'default' };

export function OrderStateTag({ state }: { state: OrderState }) {
  const s = pointsStrings.use();
  return <Tag color={ORDER_COLOR[state]}>{s(`order.${state}`)}</Tag>;
}

const HISTORY_PAGE = 10;

/** A student's ledger, newest first, ten at a time with "more" (the server pages it). */
export function LedgerList({ studentId }: { studentId: number }) {
  const s = pointsStrings.use();
  const when = useSchoolClock().dateTime;
  const q = useInfiniteQuery({
    queryKey: queryKey('studentPoints', { student_id: studentId, limit: HISTORY_PAGE }),
    queryFn: ({ pageParam }) => get('studentPoints', { student_id: studentId, page: pageParam, limit: HISTORY_PAGE }),
    initialPageParam: 1,
    getNextPageParam: nextPageOf,
  });
  if (q.isLoading) return <Loading />;
  if (q.isError) return <LoadError onRetry={() => void q.refetch()} />;
  const rows: PointsLedgerEntry[] = q.data?.pages.flatMap((p) => p.list) ?? [];
  if (!rows.length)
    return (
      <Typography.Paragraph type="secondary" style={{ margin: 0, padding: '8px 0' }}>
        {s('history.empty')}
      </Typography.Paragraph>
    );
  return (
    <div>
      <ul style={{ listStyle: 'none', margin: 0, padding: 0 }} aria-label={s('award.history')}>
        {rows.map((e) => (
          <li key={e.id} style={{ padding: '8px 0', borderBottom: '1px solid rgba(5,5,5,0.06)' }}>
            <Flex justify="space-between" gap={8}>
              <div style={{ minWidth: 0 }}>
                <div>
                  <Typography.Text>{s(`kind.${e.kind}`)}</Typography.Text>
                  {e.reason && <Typography.Text type="secondary"> · {e.reason}</Typography.Text>}
                </div>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {when(e.created_at)}
                  {e.actor_name ? ` · ${e.actor_name}` : ''}
                </Typography.Text>
              </div>
              <div style={{ textAlign: 'right', flex: 'none' }}>
                <Typography.Text strong style={{ color: e.delta > 0 ? '#389e0d' : '#cf1322' }}>
                  {e.delta > 0 ? `+${e.delta}` : e.delta}
                </Typography.Text>
                <div>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {s('history.after', { n: e.balance_after })}
                  </Typography.Text>
                </div>
              </div>
            </Flex>
          </li>
        ))}
      </ul>
      {q.hasNextPage && (
        <Button block type="link" loading={q.isFetchingNextPage} onClick={() => void q.fetchNextPage()}>
          {s('history.more')}
        </Button>
      )}
    </div>
  );
}

/** The good's picture, or a placeholder square. */
export function GoodsPicture({ url, size = 56 }: { url: string | null; size?: number }) {
  return url ? (
    <img src={url} alt="" style={{ width: size, height: size, objectFit: 'cover', borderRadius: 6, flex: 'none', background: '#f5f5f5' }} />
  ) : (
    <div
      aria-hidden
      style={{
        width: size,
        height: size,
        borderRadius: 6,
        flex: 'none',
        background: 'linear-gradient(135deg, #fff7e6, #ffe7ba)',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
      }}
    >
      <svg width={size * 0.5} height={size * 0.5} viewBox="0 0 24 24" fill="none" stroke="#d46b08" strokeWidth="1.8" strokeLinejoin="round">
        <rect x="3" y="8" width="18" height="4" rx="1" />
        <path d="M5 12v8h14v-8M12 8v12M12 8c-1.5-3-5-3.5-5-1.2C7 8 9.5 8 12 8c2.5 0 5 0 5-1.2C17 4.5 13.5 5 12 8z" />
      </svg>
    </div>
  );
}
