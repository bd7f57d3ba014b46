import { z } from 'zod';
import { flag, pageQuery } from './common';

/** GET flowAlerts: a day's alerts (today in the school's timezone by default). */
export const FlowAlertsQuery = z.strictObject({
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
  open_only: flag.optional(),
  ...pageQuery,
});
export type FlowAlertsQuery = z.infer<typeof FlowAlertsQuery>;
