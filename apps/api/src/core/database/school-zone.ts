import { DEFAULT_TIME_ZONE } from '@wantuo/shared';

/** The IANA zone of a school (its days, clocks and export times are in it); the default for an unknown school. */
export async function schoolTimeZone(db: { query: (sql: string, params?: unknown[]) => Promise<unknown> }, schoolId: number): Promise<string> {
  const rows = (await db.query(`select timezone from schools where id = $1`, [schoolId])) as Array<{ timezone: string }>;
  return rows[0]?.timezone ?? DEFAULT_TIME_ZONE;
}
