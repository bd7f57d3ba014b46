import 'reflect-metadata';
import { ConfigError, loadConfig } from './core/config/config';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from './core/database/data-source';
import { createLogger } from './core/logging/logger';
import { rebuildUsage } from './modules/contracts/usage/usage-store';
import { rebuildCounts } from './modules/contracts/contract-counts';
import { rebuildProjection } from './modules/flow/rebuild';
import { resealPickupKeys } from './modules/pickup/pickup-keys.repository';
import { rebuildReports } from './modules/reports/report-projection';
import { prepareDatabase, resolveDatabase } from './runtime';
import { backupCommand, BackupError } from './ops/backup';

const USAGE =
  'usage: node dist/cli.js migrate | seed [--no-showcase] | flow:rebuild [--school <id>] | reports:rebuild [--school <id>] | contracts:rebuild [--school <id>] | pickup:reseal | backup | restore <archive> [--force]';
const REBUILDS = ['flow:rebuild', 'contracts:rebuild', 'reports:rebuild'];

/**
 * Operations commands: `migrate` applies migrations; `seed` migrates and seeds the demo school (once) with its showcase
 * of every module's data (demo-showcase.ts; not with `--no-showcase`, as the browser journeys' template database);
 * `flow:rebuild` migrates and rebuilds the student_days projection from flow_events (one school with --school);
 * `contracts:rebuild` migrates and recomputes contract_usage and units_used of the active day/session contracts from
 * student_days, and the contract list's counts from the contracts (one school with --school; run it after flow:rebuild
 * when both are needed). `reports:rebuild` migrates and recomputes the daily_reports projection (the child's daily report)
 * from flow_events, the teachers' comments and the day's homework and points (after flow:rebuild when both are needed).
 * `pickup:reseal` migrates and seals every school's pick-up key with the first key of PICKUP_KEYS_ENCRYPTION_KEYS (a
 * rotation: docs/operations.md). `backup` and `restore` (ops/backup.ts): an archive of the database and the uploads, and back.
 */
async function main(command: string | undefined, args: string[]) {
  const config = loadConfig();
  const log = createLogger(config.logLevel);
  if (command === 'backup' || command === 'restore') return backupCommand(command, args, config);
  if (command !== 'migrate' && command !== 'seed' && command !== 'pickup:reseal' && !REBUILDS.includes(command ?? '')) throw new ConfigError(USAGE);
  if (command === 'pickup:reseal' && args.length) throw new ConfigError(USAGE);
  let schoolId: number | undefined;
  if (command === 'seed' && args.some((a) => a !== '--no-showcase')) throw new ConfigError(USAGE);
  if (REBUILDS.includes(command!) && args.length) {
    schoolId = Number(args[1]);
    if (args[0] !== '--school' || args.length !== 2 || !Number.isInteger(schoolId) || schoolId < 1) throw new ConfigError(USAGE);
  }
  const db = await resolveDatabase(config, log);
  try {
    await prepareDatabase({ ...db.config, seedDemo: command === 'seed' }, log, { showcase: !args.includes('--no-showcase') });
    if (command === 'flow:rebuild') {
      const ds = new DataSource(dataSourceOptions(db.config.databaseUrl, 1));
      await ds.initialize();
      try {
        const started = Date.now();
        const done = await rebuildProjection(ds, { schoolId });
        log.info({ ...done, schoolId: schoolId ?? 'all', ms: Date.now() - started }, 'student_days rebuilt from flow_events');
        process.stdout.write(`flow:rebuild: ${done.events} events replayed into ${done.days} student-days\n`);
      } finally {
        await ds.destroy();
      }
    }
    if (command === 'pickup:reseal') {
      const ds = new DataSource(dataSourceOptions(db.config.databaseUrl, 1));
      await ds.initialize();
      try {
        const sealed = await resealPickupKeys(ds, config.pickupKeyring);
        log.info({ sealed, keyId: config.pickupKeyring.keys[0].id }, 'pick-up keys resealed');
        process.stdout.write(`pickup:reseal: ${sealed} school keys sealed with ${config.pickupKeyring.keys[0].id}\n`);
      } finally {
        await ds.destroy();
      }
    }
    if (command === 'reports:rebuild') {
      const ds = new DataSource(dataSourceOptions(db.config.databaseUrl, 1));
      await ds.initialize();
      try {
        const started = Date.now();
        const done = await rebuildReports(ds, { schoolId });
        log.info({ ...done, schoolId: schoolId ?? 'all', ms: Date.now() - started }, 'daily_reports rebuilt');
        process.stdout.write(`reports:rebuild: ${done.days} student-days recomputed\n`);
      } finally {
        await ds.destroy();
      }
    }
    if (command === 'contracts:rebuild') {
      const ds = new DataSource(dataSourceOptions(db.config.databaseUrl, 1));
      await ds.initialize();
      try {
        const started = Date.now();
        const done = await rebuildUsage(ds, { schoolId });
        const counts = await rebuildCounts(ds, { schoolId });
        log.info({ ...done, counts, schoolId: schoolId ?? 'all', ms: Date.now() - started }, 'contract usage and list counts rebuilt');
        process.stdout.write(
          `contracts:rebuild: ${done.contracts} contracts of ${done.students} students, ${done.inserted} usage days added, ${done.deleted} removed, ${done.updated} units_used corrected; list counts: ${counts.keys} keys, ${counts.corrected} corrected\n`,
        );
      } finally {
        await ds.destroy();
      }
    }
  } finally {
    await db.stop();
  }
}

main(process.argv[2], process.argv.slice(3)).catch((err) => {
  process.stderr.write(
    `${err instanceof ConfigError || err instanceof BackupError ? err.message : err instanceof Error ? err.stack : String(err)}\n`,
  );
  process.exit(1);
});
