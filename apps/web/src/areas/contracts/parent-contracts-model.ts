import { useQueries } from '@tanstack/react-query';
import { dayDiff, type ContractRow, type ParentChild, type PayChannel } from '@wantuo/shared';
import { get, post } from '../../api/http';
import { useSchoolToday } from '../../lib/school-time';
import { contractStrings } from './strings';
import { queryKey } from '../../api/query';

/**
 * The guardian's contracts without a UI library: the desktop's parent page and the phone's 缴费 tab both use it.
 */

/** Each child's contracts (studentContractList, the first 50: a child has a handful), one query per child. */
export function useChildrenContracts(kids: readonly ParentChild[]) {
  return useQueries({
    queries: kids.map((k) => ({
      queryKey: queryKey('studentContractList', { student_id: k.id, page: 1, limit: 50 }),
      queryFn: () => get('studentContractList', { student_id: k.id, page: 1, limit: 50 }),
    })),
  });
}

/** What the guardian owes: the unpaid contracts among the lists loaded, and their sum in fen. */
export function owedOf(lists: ReadonlyArray<{ list: ContractRow[] } | undefined>): { rows: ContractRow[]; fen: number } {
  const rows = lists.flatMap((l) => l?.list ?? []).filter((c) => c.status === 'unpaid');
  return { rows, fen: rows.reduce((sum, c) => sum + c.price_fen, 0) };
}

/** Starts the WeChat Pay payment of an unpaid contract on the channel the payment UI chose. */
export const payContract = (c: Pick<ContractRow, 'id'>) => (channel: PayChannel) => post('wechatPayContract', { id: c.id, channel });

/** What is left, shown under a "剩余" label: "3 / 20 次" for counted kinds, "12 天" for calendar kinds still running, else '-'. */
export function useUnitsText() {
  const s = contractStrings.use();
  const today = useSchoolToday();
  return (c: Pick<ContractRow, 'kind' | 'units_total' | 'units_left' | 'end_day' | 'start_day' | 'state'>) => {
    if (c.units_total !== null) return s('units.left', { left: c.units_left ?? 0, total: c.units_total, unit: s(`unit.${c.kind}`) });
    if (c.state === 'active' || c.state === 'expiring')
      return s('days.left', { n: Math.max(0, dayDiff(today > c.start_day ? today : c.start_day, c.end_day) + 1) });
    return '-';
  };
}
