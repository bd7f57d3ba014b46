// The answer schemas of module `leave` (what `data` carries, as JSON), declared in api/leave.ts.
import { z } from 'zod';
import { pageOf } from '../api/define';
import { LeaveStatus } from '../schemas/leave';

const LEAVE_STATUSES = [LeaveStatus.Pending, LeaveStatus.Approved, LeaveStatus.Rejected, LeaveStatus.Cancelled] as const;

/** One leave request as teachers and parents see it. */
export const LeaveRequestRow = z.object({
  id: z.number().int(),
  student_id: z.number().int(),
  student_name: z.string(),
  class_id: z.number().int().nullable(),
  class_name: z.string().nullable(),
  requested_by: z.number().int(),
  requested_by_name: z.string(),
  start_day: z.string(),
  end_day: z.string(),
  /** days covered, both ends counted */
  days: z.number().int(),
  reason: z.string(),
  status: z.literal(LEAVE_STATUSES),
  reviewed_by: z.number().int().nullable(),
  reviewed_by_name: z.string().nullable(),
  review_note: z.string().nullable(),
  reviewed_at: z.string().nullable(),
  version: z.number().int(),
  created_at: z.string(),
});
export type LeaveRequestRow = z.infer<typeof LeaveRequestRow>;

/** teacherStudentLeaveList, parentLeaveList */
export const LeaveRequestPage = pageOf(LeaveRequestRow);
export type LeaveRequestPage = z.infer<typeof LeaveRequestPage>;

/** `data` of auditStudentInfo and cancelLeave: the request, and the days marked (approve) or unmarked (cancel). */
export const LeaveDecisionResult = z.object({
  leave: LeaveRequestRow,
  days: z.array(z.object({ day: z.string(), ok: z.boolean(), error: z.string().optional() })),
});
export type LeaveDecisionResult = z.infer<typeof LeaveDecisionResult>;
