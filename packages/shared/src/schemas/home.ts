import type { ServiceState } from '../renewal';

/**
 * The admin's landing page (/principalIndex, extra action `principalHome`): today at a glance, in the school's own
 * day. Later modules add their figures here (expiring contracts, meals).
 */
export interface PrincipalHome {
  /** today, the school's local date (YYYY-MM-DD) */
  day: string;
  /** active students in running care classes */
  students: number;
  /** today's students by board state (students of a class that meets today without a step yet are `expected`) */
  flow: { expected: number; picked_up: number; in_centre: number; left: number; on_leave: number };
  /** today's alerts still open, in total and per kind */
  open_alerts: number;
  alerts_by_kind: Record<string, number>;
  /** leave requests waiting for a decision that are not over yet */
  pending_leave: number;
  school: { name: string; balance_fen: number; service_expires_at: string | null; service_state: ServiceState };
  /** contracts: how many are expiring (active, within 14 days of their end or with 3 units or fewer left) or unpaid, and the soonest expiring */
  contracts: { expiring: number; unpaid: number; soonest: ExpiringContract[] };
}

/** A contract about to run out, as the landing page lists it. */
export interface ExpiringContract {
  id: number;
  student_name: string;
  package_name: string;
  end_day: string;
  units_left: number | null;
}
