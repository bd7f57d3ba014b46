// The answer schemas of module `applications` (what `data` carries, as JSON), declared in api/applications.ts.
import { z } from 'zod';
import { pageOf } from '../api/define';
import { ApplicationStatus } from '../schemas/applications';

const Status = z.literal([ApplicationStatus.Pending, ApplicationStatus.Approved, ApplicationStatus.Rejected]);

/** `data` of applyAccount. */
export const ApplyAccountResult = z.object({ id: z.number().int(), status: Status, created_at: z.string() });
export type ApplyAccountResult = z.infer<typeof ApplyAccountResult>;

/** One row of accountApplications (`data.list`), and `data` of handleAccountApplication. */
export const AccountApplication = z.object({
  id: z.number().int(),
  /** the school an approval created */
  school_id: z.number().int().nullable(),
  institution_name: z.string(),
  contact_name: z.string(),
  mobile: z.string(),
  city: z.string().nullable(),
  students_estimate: z.number().int().nullable(),
  message: z.string().nullable(),
  status: Status,
  handled_by: z.number().int().nullable(),
  handled_by_name: z.string().nullable(),
  handled_note: z.string().nullable(),
  handled_at: z.string().nullable(),
  ip: z.string(),
  version: z.number().int(),
  created_at: z.string(),
});
export type AccountApplication = z.infer<typeof AccountApplication>;

/** `data` of accountApplications. */
export const AccountApplicationsAnswer = pageOf(AccountApplication);
export type AccountApplicationsAnswer = z.infer<typeof AccountApplicationsAnswer>;
