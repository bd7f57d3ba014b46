import { TRIAL_DAYS } from '@wantuo/shared';
import type { EntityManager } from 'typeorm';
import { insertAdmin, insertSchool } from './school.repository';

export interface NewSchool {
  name: string;
  city: string | null;
  contactName: string;
  mobile: string;
  timezone: string;
}

/** The admin account's user name for a new school: `s<id>_admin` (unique: the school id is). */
export const adminUsername = (schoolId: number) => `s${schoolId}_admin`;

/**
 * Creates a school with a TRIAL_DAYS trial and its institution admin on the applicant's mobile, without a password:
 * the admin signs in with an SMS code and sets a password through "forgot password". Runs in the caller's
 * transaction (the operator's approval), so an approval never lands without its school.
 */
export async function onboardSchool(em: EntityManager, s: NewSchool): Promise<{ schoolId: number; adminId: number; username: string }> {
  const school = await insertSchool(
    em,
    { name: s.name, city: s.city, timezone: s.timezone, contact_name: s.contactName, contact_phone: s.mobile },
    TRIAL_DAYS,
  );
  const username = adminUsername(school.id);
  const admin = await insertAdmin(em, school.id, { username, name: s.contactName, mobile: s.mobile });
  return { schoolId: school.id, adminId: admin.id, username };
}
