import { useQueries, useQueryClient } from '@tanstack/react-query';
import type { ParentChild, ScoreGoods } from '@wantuo/shared';
import { useState } from 'react';
import { feedback } from '../../api/feedback';
import { get, post } from '../../api/http';
import { newRequestId } from '../../lib/request-id';
import { pointsStrings } from './strings';

/**
 * Every child's points balance (studentPoints, one row: the balance comes with the page), as `balanceOf(id)` and each
 * child's query. No antd: the consoles' and the phone's points pages share it.
 */
export function useBalances(kids: readonly ParentChild[]) {
  const balances = useQueries({
    queries: kids.map((k) => ({
      queryKey: ['studentPoints', k.id, 'balance'],
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
  const [busy, setBusy] = useState(false);
  const [requestId, setRequestId] = useState(newRequestId);
  const exchange = async (studentId: number, good: Pick<ScoreGoods, 'id' | 'price'>): Promise<boolean> => {
    setBusy(true);
    try {
      await post('exchangeScoreGoods', { student_id: studentId, goods_id: good.id, price: good.price, request_id: requestId });
      feedback().message.success(s('parent.exchanged'));
      setRequestId(newRequestId());
      return true;
    } catch {
      setRequestId(newRequestId());
      return false;
    } finally {
      setBusy(false);
      void qc.invalidateQueries({ queryKey: ['studentPoints'] });
      void qc.invalidateQueries({ queryKey: ['pointsShop'] });
      void qc.invalidateQueries({ queryKey: ['scoreOrderList'] });
    }
  };
  return { exchange, busy };
}
