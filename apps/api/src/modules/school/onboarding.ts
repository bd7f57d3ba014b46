import { Role, TRIAL_DAYS } from '@wantuo/shared';
import type { EntityManager } from 'typeorm';

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
  const [school]: Array<{ id: number }> = await em.query(
    `insert into schools (name, city, timezone, contact_name, contact_phone, service_expires_at)
     values ($1, $2, $3, $4, $5, now() + make_interval(days => $6)) returning id`,
    [s.name, s.city, s.timezone, s.contactName, s.mobile, TRIAL_DAYS],
  );
  const username = adminUsername(school.id);
  const [admin]: Array<{ id: number }> = await em.query(
    `insert into users (school_id, role, username, name, nickname, mobile) values ($1, $2, $3, $4, $4, $5) returning id`,
    [school.id, Role.Admin, username, s.contactName, s.mobile],
  );
  return { schoolId: school.id, adminId: admin.id, username };
}
