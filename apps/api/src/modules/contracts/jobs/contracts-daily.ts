import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { expireDue, jitOff, lockDaily, remindDue, renewDue } from '../contracts-jobs.repository';
import { GuardianMessages, type GuardianMessage, type StageOptions, type StagedMessages } from '../../messages/guardian-messages.service';

/**
 * The daily contracts job (issue 11, item 4). Every statement (contracts-jobs.repository.ts) works on all due schools
 * at once (set-based: no query per school or per contract). `at` is the time of the run; a school is due once its
 * local time is 08:00 or later,
 * and `today` is its local date. Each effect has a unique key, so a second run, a later hourly run or a concurrent run
 * on another worker does nothing again:
 *  - a renewal: contracts.renewed_from is unique (`on conflict (renewed_from) do nothing`);
 *  - a reminder: contract_reminders (contract_id, kind) (`on conflict do nothing`);
 *  - an expiry: `update … where status = 'active'` (a concurrent update re-checks the row and skips it).
 * Only the rows a statement inserted or changed come back, and only their guardians are told (GuardianMessages).
 */
export { END_DAY_SQL, TERM_MONTHS_SQL } from '../contracts-jobs.repository';

export interface DailyResult {
  renewed: Array<{ id: number; renewed_from: number; school_id: number }>;
  reminded: Array<{ id: number; school_id: number }>;
  expired: number;
  /** the guardians' messages this run staged (one per renewal and reminder with a guardian to tell) */
  texts: number;
}

/**
 * Where the job's messages go: written in the run's transaction (GuardianMessages.stage: WeChat, else SMS, judged at
 * the run's time for the quiet hours), sent after its commit (GuardianMessages.dispatch). The contracts bench hands its
 * own (a GuardianMessages on its connection).
 */
export interface MessageStage<S = StagedMessages> {
  stage(em: Pick<EntityManager, 'query'>, items: GuardianMessage[], opts: StageOptions): Promise<S>;
}

const yuan = (fen: string) => (Number(fen) / 100).toFixed(2).replace(/\.00$/, '');

/**
 * One run of the job, in one transaction: renewals, reminders, expiries, then the guardians' messages of what this run
 * did. Runs are serialised by a transaction-level advisory lock (a second run waits, then finds nothing left to do);
 * the unique keys above are what make every effect happen once even without it (another writer, the admin's
 * renewContract, meets the same renewed_from key). The messages are written in the same transaction (wechat_messages /
 * sms_messages, keyed by contract), so they exist exactly when what they announce does; ContractsDaily.run hands them
 * to the queues after the commit.
 */
export async function runContractsDaily<S>(
  em: Pick<EntityManager, 'query'>,
  messages: MessageStage<S>,
  at: Date,
): Promise<DailyResult & { staged: S }> {
  await lockDaily(em);
  // the statements' estimated costs pass jit_above_cost at 100,000 contracts, and compiling them took 2 s where they run
  // in 60 ms (apps/api/bench/contracts.bench.mjs)
  await jitOff(em);
  const renewed = await renewDue(em, at);
  const reminded = await remindDue(em, at);
  const sends: GuardianMessage[] = [];
  for (const r of renewed) {
    if (!r.user_id) continue;
    const p = { school: r.school, student: r.student, package: r.package, start: r.start, end: r.end, price: yuan(r.price_fen) };
    sends.push({
      school_id: r.school_id,
      user_id: r.user_id,
      kind: 'contract.renewed',
      params: p,
      link: '/parent_contracts',
      key: `contract-renewed-${r.id}`,
    });
  }
  for (const r of reminded) {
    if (!r.user_id) continue;
    const p = { school: r.school, student: r.student, date: r.date, units: r.units_left === null ? '' : String(r.units_left) };
    sends.push({
      school_id: r.school_id,
      user_id: r.user_id,
      kind: 'contract.expiring',
      params: p,
      link: '/parent_contracts',
      key: `contract-expiring-${r.id}-${r.date}`,
    });
  }
  const staged = await messages.stage(em, sends, { now: at });
  const expired = await expireDue(em, at);
  return {
    renewed: renewed.map(({ id, renewed_from, school_id }) => ({ id, renewed_from, school_id })),
    reminded: reminded.map(({ id, school_id }) => ({ id, school_id })),
    expired,
    texts: sends.length,
    staged,
  };
}

/** The `contracts.daily` job's work (worker, or the API without Redis). */
@Injectable()
export class ContractsDaily {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly messages: GuardianMessages,
  ) {}

  async run(at: Date = new Date()): Promise<DailyResult> {
    const { staged, ...result } = await this.db.transaction((em) => runContractsDaily(em, this.messages, at));
    await this.messages.dispatch(staged);
    return result;
  }
}
