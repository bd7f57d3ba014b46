import { Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

/** Work after a mall payment's commit (a surplus refund): tracked so tests can wait for it (settled()); failures logged. */
@Injectable()
export class OrdersAfterPay {
  private readonly pending = new Set<Promise<void>>();

  track(work: Promise<void>, log: Logger): void {
    const run = work.catch((err: unknown) => log.error({ err }, 'after a mall payment'));
    this.pending.add(run);
    void run.finally(() => this.pending.delete(run));
  }

  async settled(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending]);
  }
}
