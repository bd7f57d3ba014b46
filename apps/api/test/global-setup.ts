import { migrate } from '../src/core/database/data-source';
import { TEMPLATE_DB, urlFor, withAdmin } from './db';

/**
 * Once per test run: a freshly migrated template database. Every test file then gets its own copy
 * (CREATE DATABASE ... TEMPLATE), so files run in parallel without seeing each other's rows.
 */
export default async function globalSetup(): Promise<void> {
  await withAdmin(async (c) => {
    await c.query(`drop database if exists ${TEMPLATE_DB} with (force)`);
    await c.query(`create database ${TEMPLATE_DB}`);
  });
  await migrate(urlFor(TEMPLATE_DB));
}
