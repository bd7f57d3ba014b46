// The answer schemas of module `home` (what `data` carries, as JSON), declared in api/home.ts.
import { z } from 'zod';
import { ServiceStateSchema } from './school';

/** A contract about to run out, as the landing page lists it. */
export const ExpiringContract = z.object({
  id: z.number().int(),
  student_name: z.string(),
  package_name: z.string(),
  /** YYYY-MM-DD */
  end_day: z.string(),
  units_left: z.number().int().nullable(),
});
export type ExpiringContract = z.infer<typeof ExpiringContract>;

/**
 * The admin's landing page (/principalIndex, extra action `principalHome`): today at a glance, in the school's own
 * day. Later modules add their figures here (expiring contracts, meals).
 */
export const PrincipalHome = z.object({
  /** today, the school's local date (YYYY-MM-DD) */
  day: z.string(),
  /** active students in running care classes */
  students: z.number().int(),
  /** today's students by board state (students of a class that meets today without a step yet are `expected`) */
  flow: z.object({
    expected: z.number().int(),
    picked_up: z.number().int(),
    in_centre: z.number().int(),
    left: z.number().int(),
    on_leave: z.number().int(),
  }),
  /** today's alerts still open, in total and per kind */
  open_alerts: z.number().int(),
  alerts_by_kind: z.record(z.string(), z.number().int()),
  /** leave requests waiting for a decision that are not over yet */
  pending_leave: z.number().int(),
  school: z.object({
    name: z.string(),
    balance_fen: z.number().int(),
    service_expires_at: z.string().nullable(),
    service_state: ServiceStateSchema,
  }),
  /** contracts: how many are expiring (active, within 14 days of their end or with 3 units or fewer left) or unpaid, and the soonest expiring */
  contracts: z.object({ expiring: z.number().int(), unpaid: z.number().int(), soonest: z.array(ExpiringContract) }),
});
export type PrincipalHome = z.infer<typeof PrincipalHome>;
