import { z } from 'zod';
import type { FlowState } from '../flow';

/** GET flowBoard: the caller's students on a day (today in the school's timezone by default). */
export const FlowBoardQuery = z.strictObject({
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
  class_id: z.coerce.number().int().positive().max(2_147_483_647).optional(),
});
export type FlowBoardQuery = z.infer<typeof FlowBoardQuery>;

export interface FlowBoardStudent {
  id: number;
  name: string;
  gender: 1 | 2 | null;
  grade: string | null;
  class_name: string | null;
  day_school: string | null;
  photo_url: string | null;
  allergies: string | null;
  needs_shuttle: boolean;
  needs_dinner: boolean;
  tutoring_type: string | null;
  class_id: number;
  care_class_name: string;
  state: FlowState;
  on_leave: boolean;
  version: number;
  picked_up_at: string | null;
  entered_at: string | null;
  dinner_at: string | null;
  tutor_started_at: string | null;
  tutor_ended_at: string | null;
  left_at: string | null;
  left_with: number | null;
  pickup_people: { id: number; name: string; relation: string; mobile: string }[];
  /** units left of the student's active day/session contract covering the day (the smallest if several), null without one */
  contract_units_left: number | null;
}

export interface FlowBoard {
  day: string;
  /** the newest global_position of the school: a socket connects with it as `since` */
  position: number;
  students: FlowBoardStudent[];
}
