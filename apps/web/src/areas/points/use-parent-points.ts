import { useQueries, useQueryClient } from '@tanstack/react-query';
import type { ParentChild, ScoreGoods } from '@wantuo/shared';
import { useState } from 'react';
import { useAction } from '../../api/action';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { newRequestId } from '../../lib/request-id';
import { pointsStrings } from './strings';

/**
 * Every child's points balance (studentPoints, one row: the balance comes with the page), as `balanceOf(id)` and each
 * child's query. No antd: the consoles' and the phone's points pages share it.
 */
export function useBalances(kids: readonly ParentChild[]) {
  const balances = useQueries({
    queries: kids.map((k) => ({
      queryKey: queryKey('studentPoints', { student_id: k.id, page: 1, limit: 1 }),
      queryFn: () => get('studentPoints', { student_id: k.id, page: 1, limit: 1 }),
    })),
  });
  const queryOf = (id: number) => balances[kids.findIndex((k) => k.id === id)];
  const balanceOf = (id: number): number | undefined => queryOf(id)?.data?.balance;
  return { balanceOf, queryOf, refetch: () => Promise.all(balances.map((b) => b.refetch())) };
}

/**
 * An exchange of a good for a child (exchangeScoreGoods at the price shown): one request id per attempt (a refused one,
 * sold out meanwhile or a changed price, makes the next a new request); the balances, the shop and the orders reloaded
 * after. `exchange` answers whether it was made (a refusal is shown by the request wrapper).
 */
export function useExchange() {
  const s = pointsStrings.use();
  const qc = useQueryClient();
  const [requestId, setRequestId] = useState(newRequestId);
  // made or refused, the next attempt is a new request and the balances, the shop and the orders are read again
  const reload = () => {
    setRequestId(newRequestId());
    for (const a of ['studentPoints', 'pointsShop', 'scoreOrderList'] as const) void qc.invalidateQueries({ queryKey: queryKey(a) });
  };
  const act = useAction('exchangeScoreGoods', { success: s('parent.exchanged'), onDone: reload, onError: reload });
  const exchange = async (studentId: number, good: Pick<ScoreGoods, 'id' | 'price'>): Promise<boolean> =>
    (await act.run({ student_id: studentId, goods_id: good.id, price: good.price, request_id: requestId })) !== undefined;
  return { exchange, busy: act.busy };
}
