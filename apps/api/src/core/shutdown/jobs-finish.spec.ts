import type { INestApplicationContext } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { createWorker } from '../../bootstrap';
import { startTestApp } from '../../../test/harness';
import { JobRegistry } from '../jobs/job-registry';
import { JobsService } from '../jobs/jobs.service';
import { JOB_SPECS } from '../jobs/jobs.types';
import { createLogger } from '../logging/logger';

/**
 * Graceful shutdown (graceful-shutdown.ts): a job that is running when the process is asked to stop finishes, with
 * the database still open, before the close resolves — in the worker (BullMQ) and in the API's in-process mode.
 * The job here is alerts.scan with its handler replaced: it waits, then queries the database.
 */
function slowJob(app: INestApplicationContext) {
  const registry = app.get(JobRegistry);
  const db = app.get(DataSource);
  const state: { finished: boolean; one?: number; error?: string } = { finished: false };
  let started!: () => void;
  const running = new Promise<void>((r) => (started = r));
  const run = registry.run.bind(registry);
  registry.run = (async (name: string, ...rest: unknown[]) => {
    if (name !== 'alerts.scan') return (run as (...a: unknown[]) => Promise<void>)(name, ...rest);
    started();
    await new Promise((r) => setTimeout(r, 700));
    try {
      const rows: { one: number }[] = await db.query('select 1 as one');
      state.one = rows[0].one;
    } catch (err) {
      state.error = String(err);
    }
    state.finished = true;
  }) as typeof registry.run;
  return { running, state };
}

it('the worker: a running job finishes, its database still open, before the close resolves', async () => {
  const t = await startTestApp({ runJobs: false });
  let worker: INestApplicationContext | null = await createWorker(t.config, createLogger('silent'));
  try {
    await worker.init();
    const job = slowJob(worker);
    await t.app.get(JobsService).enqueue('alerts.scan', {});
    await job.running;
    await worker.close();
    worker = null;
    expect(job.state).toEqual({ finished: true, one: 1 });
    const counts = await t.app.get(JobsService).queue(JOB_SPECS['alerts.scan'].queue).getJobCounts('completed', 'active', 'failed');
    expect(counts).toEqual({ completed: 1, active: 0, failed: 0 });
  } finally {
    await worker?.close();
    await t.close();
  }
});

it('in-process jobs (no Redis): a running job finishes, its database still open, before the close resolves', async () => {
  const t = await startTestApp({ redis: false, runJobs: true });
  const job = slowJob(t.app);
  await t.app.get(JobsService).enqueue('alerts.scan', {});
  await job.running;
  await t.close();
  expect(job.state).toEqual({ finished: true, one: 1 });
});
