import { useQuery, useQueryClient } from '@tanstack/react-query';
import { GRACE_DAYS, type ServiceState } from '@wantuo/shared';
import { useCallback } from 'react';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';

/** The react-query key of the admin's school (schoolInfo): the personal centre, the landing page and the banner share it. */
export const SCHOOL_KEY = queryKey('schoolInfo');

/** The signed-in admin's school with its balance, expiry and price. */
export function useSchool(enabled = true) {
  return useQuery({ queryKey: SCHOOL_KEY, queryFn: () => get('schoolInfo'), staleTime: 60_000, enabled });
}

/** After money moved: the school (balance, expiry) and the ledger are read again. */
export function useMoneyRefresh() {
  const qc = useQueryClient();
  return useCallback(() => {
    void qc.invalidateQueries({ queryKey: SCHOOL_KEY });
    void qc.invalidateQueries({ queryKey: queryKey('consumeLog') });
  }, [qc]);
}

/** The end of the grace period after an expiry. */
export const graceEnd = (expiresAt: string) => new Date(Date.parse(expiresAt) + GRACE_DAYS * 86_400_000);

/** The tag colour of each service state. */
export const STATE_COLOR: Record<ServiceState, string> = { active: 'green', expiring: 'orange', grace: 'volcano', read_only: 'red' };
