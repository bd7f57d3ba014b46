/**
 * Work started after a commit (a domain event's reaction, a notify, an inline job) that nobody awaits on the request's
 * path: tracked so tests and shutdown can wait for it (`settled()`), with its failure logged by the owner, never
 * thrown into the void. The one way to do this; each owner keeps its own instance.
 */
export class InFlight {
  private readonly runs = new Set<Promise<void>>();

  constructor(private readonly onError: (err: unknown) => void) {}

  /** Tracks `work`; a failure goes to `onError` (or the instance's). */
  track(work: Promise<unknown>, onError: (err: unknown) => void = this.onError): void {
    const run = work.then(
      () => undefined,
      (err: unknown) => onError(err),
    );
    this.runs.add(run);
    void run.finally(() => this.runs.delete(run));
  }

  /** How many are still running. */
  get size(): number {
    return this.runs.size;
  }

  /** Resolves once everything tracked so far, and anything it started meanwhile, is done. */
  async settled(): Promise<void> {
    while (this.runs.size) await Promise.all([...this.runs]);
  }
}
