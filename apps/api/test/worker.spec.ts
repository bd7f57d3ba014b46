import type { INestApplicationContext } from '@nestjs/common';
import { createWorker } from '../src/bootstrap';
import { createLogger } from '../src/core/logging/logger';
import { JobRegistry } from '../src/core/jobs/job-registry';
import { SCHEDULES } from '../src/core/jobs/jobs.types';
import { PaymentKinds } from '../src/modules/payments/payment-kinds';
import { PaymentSettlers } from '../src/modules/payments/settlers';
import { startTestApp, type TestApp } from './harness';

let t: TestApp;
let worker: INestApplicationContext;
beforeAll(async () => {
  t = await startTestApp({ runJobs: false, redis: false });
  worker = await createWorker(t.config, createLogger('silent'));
  await worker.init();
});
afterAll(async () => {
  await worker?.close();
  await t.close();
});

describe('the worker process', () => {
  // payments.check runs in the worker: a payment the provider reports paid is settled there, so the worker needs the
  // settler of every payment kind the API takes (it once had only the school's: contract and meal payments failed there)
  it('settles every payment kind the API takes', () => {
    const api = t.app.get(PaymentSettlers).kinds();
    expect(api.length).toBeGreaterThanOrEqual(4);
    expect(worker.get(PaymentSettlers).kinds()).toEqual(api);
  });

  // the durable halves of the money rules run there on a schedule: the surplus sweep (over every registered kind) and
  // the refund status query
  it('runs every scheduled job, the payments sweeps among them, with every payment kind', async () => {
    const names = worker.get(JobRegistry).names();
    expect(names).toEqual(expect.arrayContaining(['payments.surplus', 'payments.refundQuery']));
    expect(SCHEDULES.map((s) => s.name).filter((n) => !names.includes(n))).toEqual([]);
    // the sweep's one statement over all the kinds runs in the worker (nothing to refund here)
    expect(await worker.get(PaymentKinds).sweepSurplus()).toBe(0);
  });
});
