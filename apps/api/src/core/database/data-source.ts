import { DataSource, MigrationExecutor, type DataSourceOptions } from 'typeorm';
import { Foundation1763769600000 } from '../../migrations/1763769600000-foundation';
import { AccountApplications1763856000000 } from '../../migrations/1763856000000-account-applications';
import { PeopleAndCare1763942400000 } from '../../migrations/1763942400000-people-and-care';
import { DailyFlow1764028800000 } from '../../migrations/1764028800000-daily-flow';
import { PickupPeopleIndex1764115200000 } from '../../migrations/1764115200000-pickup-people-index';
import { FlowStoreWritePath1764201600000 } from '../../migrations/1764201600000-flow-store-write-path';
import { MoneyCore1764460800000 } from '../../migrations/1764460800000-money-core';
import { FlowPositionAfterXid1764504000000 } from '../../migrations/1764504000000-flow-position-after-xid';
import { ServiceReminders1764590400000 } from '../../migrations/1764590400000-service-reminders';
import { PaymentRefunds1764676800000 } from '../../migrations/1764676800000-payment-refunds';
import { Contracts1764763200000 } from '../../migrations/1764763200000-contracts';
import { ContractCounts1764849600000 } from '../../migrations/1764849600000-contract-counts';
import { Points1765022400000 } from '../../migrations/1765022400000-points';
import { Meals1764936000000 } from '../../migrations/1764936000000-meals';
import { Teaching1765108800000 } from '../../migrations/1765108800000-teaching';
import { TeacherAvailability1765195200000 } from '../../migrations/1765195200000-teacher-availability';
import { Tutoring1765281600000 } from '../../migrations/1765281600000-tutoring';
import { Exams1765368000000 } from '../../migrations/1765368000000-exams';
import { Homework1765454400000 } from '../../migrations/1765454400000-homework';
import { Notices1765540800000 } from '../../migrations/1765540800000-notices';
import { Courseware1765713600000 } from '../../migrations/1765713600000-courseware';
import { Store1765627200000 } from '../../migrations/1765627200000-store';
import { SiteResources1765800000000 } from '../../migrations/1765800000000-site-resources';
import { LessonPlans1765886400000 } from '../../migrations/1765886400000-lesson-plans';
import { QrLogin1765990800000 } from '../../migrations/1765990800000-qr-login';
import { StudentGuardianChanges1766044800000 } from '../../migrations/1766044800000-student-guardian-changes';
import { SandboxRefundNotifies1766131200000 } from '../../migrations/1766131200000-sandbox-refund-notifies';
import { TaskHandovers1766217600000 } from '../../migrations/1766217600000-task-handovers';
import { SmsMessages1766390400000 } from '../../migrations/1766390400000-sms-messages';
import { PaymentSweeps1766304000000 } from '../../migrations/1766304000000-payment-sweeps';
import { ContractNumberPrefix1766476800000 } from '../../migrations/1766476800000-contract-number-prefix';
import { Wechat1766563200000 } from '../../migrations/1766563200000-wechat';
import { WechatSandbox1766649600000 } from '../../migrations/1766649600000-wechat-sandbox';
import { WechatOauth1766822400000 } from '../../migrations/1766822400000-wechat-oauth';
import { PayChannels1766736000000 } from '../../migrations/1766736000000-pay-channels';
import { GuardianMessageParams1766908800000 } from '../../migrations/1766908800000-guardian-message-params';
import { DailyReports1767086400000 } from '../../migrations/1767086400000-daily-reports';
import { PickupCodes1767000000000 } from '../../migrations/1767000000000-pickup-codes';
import { SmsCodesMasked1767172800000 } from '../../migrations/1767172800000-sms-codes-masked';
import { PickupKeysSealed1767259200000 } from '../../migrations/1767259200000-pickup-keys-sealed';
import { PartnerPayments1767345600000 } from '../../migrations/1767345600000-partner-payments';
import { ChildrenPrivacy1767432000000 } from '../../migrations/1767432000000-children-privacy';
import { PrivacyErasure1767518400000 } from '../../migrations/1767518400000-privacy-erasure';
import { Receipts1767600000000 } from '../../migrations/1767600000000-receipts';
import { FamilyConversations1767686400000 } from '../../migrations/1767686400000-family-conversations';
import { PG_TYPES } from './type-parsers';
import { School } from '../../modules/school/entities/school.entity';
import { User } from '../../modules/auth/entities/user.entity';
import { SiteSetting } from '../../modules/site/entities/site-setting.entity';
import { StoredFile } from '../../modules/site/entities/stored-file.entity';

export const ENTITIES = [School, User, SiteSetting, StoredFile];
export const MIGRATIONS = [
  Foundation1763769600000,
  AccountApplications1763856000000,
  PeopleAndCare1763942400000,
  DailyFlow1764028800000,
  PickupPeopleIndex1764115200000,
  FlowStoreWritePath1764201600000,
  MoneyCore1764460800000,
  FlowPositionAfterXid1764504000000,
  ServiceReminders1764590400000,
  PaymentRefunds1764676800000,
  Contracts1764763200000,
  ContractCounts1764849600000,
  Meals1764936000000,
  Points1765022400000,
  Teaching1765108800000,
  TeacherAvailability1765195200000,
  Tutoring1765281600000,
  Exams1765368000000,
  Homework1765454400000,
  Notices1765540800000,
  Store1765627200000,
  Courseware1765713600000,
  SiteResources1765800000000,
  LessonPlans1765886400000,
  QrLogin1765990800000,
  StudentGuardianChanges1766044800000,
  SandboxRefundNotifies1766131200000,
  TaskHandovers1766217600000,
  PaymentSweeps1766304000000,
  SmsMessages1766390400000,
  ContractNumberPrefix1766476800000,
  Wechat1766563200000,
  WechatSandbox1766649600000,
  WechatOauth1766822400000,
  PayChannels1766736000000,
  GuardianMessageParams1766908800000,
  PickupCodes1767000000000,
  DailyReports1767086400000,
  SmsCodesMasked1767172800000,
  PickupKeysSealed1767259200000,
  PartnerPayments1767345600000,
  ChildrenPrivacy1767432000000,
  PrivacyErasure1767518400000,
  Receipts1767600000000,
  FamilyConversations1767686400000,
];

/** TypeORM options for a database URL. Schema changes only through migrations, never `synchronize`. */
export function dataSourceOptions(url: string, poolMax: number): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: false,
    // dates as their 'YYYY-MM-DD' text and int8 as numbers, whatever the process's TZ (type-parsers.ts)
    extra: { max: poolMax, application_name: 'wantuo-api', types: PG_TYPES },
  };
}

/** The session lock every migration runner holds while it migrates (API processes started at once, the CLI). */
const MIGRATIONS_LOCK = `select pg_advisory_lock(hashtextextended('wantuo:migrations', 0))`;
const MIGRATIONS_UNLOCK = `select pg_advisory_unlock(hashtextextended('wantuo:migrations', 0))`;

/**
 * Applies the migrations not applied yet, under an advisory lock taken on the connection that runs them: processes
 * started at once on an empty database take turns (the first migrates, the others wait for it and find nothing left),
 * instead of each creating the migrations table and running the first migration. A process that dies releases it with
 * its connection. One connection: the embedded PGlite server serves one at a time.
 */
export async function migrate(url: string): Promise<string[]> {
  const ds = new DataSource(dataSourceOptions(url, 1));
  await ds.initialize();
  const runner = ds.createQueryRunner();
  try {
    await runner.query(MIGRATIONS_LOCK);
    try {
      const executor = new MigrationExecutor(ds, runner);
      executor.transaction = 'each';
      const done = await executor.executePendingMigrations();
      return done.map((m) => m.name);
    } finally {
      await runner.query(MIGRATIONS_UNLOCK);
    }
  } finally {
    await runner.release();
    await ds.destroy();
  }
}

/** The migrations of this build that the database has not applied (all of them before the migrations table exists). */
export async function pendingMigrations(ds: DataSource): Promise<string[]> {
  const [t]: Array<{ present: boolean }> = await ds.query(`select to_regclass('migrations') is not null as present`);
  const applied: Array<{ name: string }> = t.present ? await ds.query(`select name from migrations`) : [];
  const names = new Set(applied.map((r) => r.name));
  return MIGRATIONS.map((m) => m.name).filter((n) => !names.has(n));
}

/**
 * For a process that never migrates (the worker, started beside the API that does): waits until every migration of
 * this build is applied, polling, at most `timeoutMs`; then throws naming what is missing. Its jobs would otherwise run
 * on tables that do not exist yet.
 */
export async function waitForMigrations(
  url: string,
  opts: { timeoutMs: number; pollMs?: number; onWait?: (pending: string[]) => void },
): Promise<void> {
  const ds = new DataSource(dataSourceOptions(url, 1));
  const deadline = Date.now() + opts.timeoutMs;
  let told = false;
  try {
    for (;;) {
      // the database itself may not be up yet (a stack starting): keep asking until the deadline
      const pending = await (ds.isInitialized ? Promise.resolve() : ds.initialize()).then(
        () => pendingMigrations(ds),
        (err: Error) => [`(database not reachable: ${err.message})`],
      );
      if (!pending.length) return;
      if (Date.now() >= deadline) {
        throw new MigrationsPending(
          `the database is not migrated after ${Math.round(opts.timeoutMs / 1000)} s: ${pending.length} of ${MIGRATIONS.length} migrations missing (${pending.slice(0, 3).join(', ')}${pending.length > 3 ? ', …' : ''}). The API migrates at its start; or run \`npm run migrate\``,
        );
      }
      if (!told) opts.onWait?.(pending);
      told = true;
      await new Promise((r) => setTimeout(r, opts.pollMs ?? 500));
    }
  } finally {
    if (ds.isInitialized) await ds.destroy();
  }
}

/** The database is not migrated in time (waitForMigrations). */
export class MigrationsPending extends Error {}
