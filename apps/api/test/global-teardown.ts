import { withAdmin } from './db';

export default async function globalTeardown(): Promise<void> {
  const template = process.env.WANTUO_TEMPLATE_DB;
  if (template) await withAdmin((c) => c.query(`drop database if exists ${template} with (force)`));
}
