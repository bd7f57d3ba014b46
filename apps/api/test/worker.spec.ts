import type { INestApplicationContext } from '@nestjs/common';
import { createWorker } from '../src/bootstrap';
import { createLogger } from '../src/core/logging/logger';
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
});
