import { z } from 'zod';

/** GET flowBoard: the caller's students on a day (today in the school's timezone by default). */
export const FlowBoardQuery = z.strictObject({
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
  class_id: z.coerce.number().int().positive().max(2_147_483_647).optional(),
});
export type FlowBoardQuery = z.infer<typeof FlowBoardQuery>;
