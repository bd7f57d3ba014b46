import { InFlight } from './in-flight';

/**
 * After-commit work gathered per command: items pushed while a batch is handled (or in the same synchronous loop as the
 * first, e.g. the events of one flow command for a whole class) are handled together in the next batch, one at a time,
 * in order. Tracked like any after-commit work (`settled()` for tests and shutdown); a failed batch goes to `onError`.
 * The flow's listeners (guardians' messages, daily reports) use it.
 */
export class CommitBatches<T> {
  private pending: T[] = [];
  private running: Promise<void> | null = null;
  private readonly work: InFlight;

  constructor(
    private readonly handle: (batch: T[]) => Promise<void>,
    onError: (err: unknown) => void,
  ) {
    this.work = new InFlight(onError);
  }

  push(item: T): void {
    this.pending.push(item);
    if (!this.running) {
      this.running = this.drain();
      this.work.track(this.running);
    }
  }

  /** Resolves once everything pushed so far is handled. */
  async settled(): Promise<void> {
    while (this.running || this.work.size) {
      if (this.running) await this.running;
      await this.work.settled();
    }
  }

  private async drain(): Promise<void> {
    // the rest of the command's items (pushed in the same synchronous loop) join this batch
    await new Promise<void>((resolve) => setImmediate(resolve));
    try {
      while (this.pending.length) {
        const batch = this.pending;
        this.pending = [];
        await this.handle(batch);
      }
    } finally {
      this.running = null;
    }
  }
}
