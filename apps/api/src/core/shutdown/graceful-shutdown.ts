import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Logger } from 'pino';

/**
 * Graceful shutdown (docs/operations.md, "Shut down"). On SIGTERM or SIGINT the API:
 * 1. keeps listening for GRACE_MS, answering everything, each answer with `Connection: close` (a request already on its
 *    way when the signal came, or a connection still in the accept queue, is answered, not reset);
 * 2. stops listening and closes the idle keep-alive connections; the requests in flight get DRAIN_MS to finish, then
 *    their connections are cut (logged with their number);
 * 3. closes the Nest application: the live flow's last flush, then every socket is told (`flow.error` `{ code: 503 }`)
 *    and disconnected (its client reconnects with `since` and misses nothing), running jobs finish, then the queues,
 *    Redis and the database are closed;
 * 4. exits 0 — or 1 when something failed or the whole took longer than TIMEOUT_MS.
 * The worker does 3 and 4: BullMQ's worker.close() waits for the jobs that are running.
 */
export const SHUTDOWN = {
  /** how long the API keeps listening after the signal */
  graceMs: 500,
  /** how long requests in flight get to finish once the API stopped listening */
  drainMs: 10_000,
  /** the whole shutdown, API or worker; past it the process exits with 1 (docker-compose's stop_grace_period is longer) */
  timeoutMs: 30_000,
} as const;

let stopping = false;

/** true once this process got its shutdown signal (a readiness check may answer 503 from then on) */
export function shuttingDown(): boolean {
  return stopping;
}

/**
 * Counts the HTTP requests in flight on a server and drains them. socket.io's requests (long polls) are not counted:
 * they are the live connections, closed with the sockets.
 */
export class HttpDrain {
  private readonly active = new Set<ServerResponse>();
  private draining = false;
  private idle: (() => void) | null = null;

  constructor(
    private readonly server: Server,
    private readonly log: Logger,
  ) {
    // first among the 'request' listeners (socket.io wraps them when it attaches: it then calls this one for the rest)
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => this.track(req, res));
  }

  /** requests in flight now */
  get inFlight(): number {
    return this.active.size;
  }

  private track(req: IncomingMessage, res: ServerResponse): void {
    if (req.url?.startsWith('/socket.io/')) return;
    if (this.draining && !res.headersSent) res.setHeader('Connection', 'close');
    this.active.add(res);
    res.once('close', () => {
      this.active.delete(res);
      if (!this.active.size) this.idle?.();
    });
  }

  /**
   * Steps 1 and 2 above. Resolves once no request is in flight, or after `drainMs` with the connections of those left
   * cut; answers how many were cut.
   */
  async drain(opts: { graceMs: number; drainMs: number } = SHUTDOWN): Promise<number> {
    this.draining = true;
    for (const res of this.active) if (!res.headersSent) res.setHeader('Connection', 'close');
    if (opts.graceMs > 0) await new Promise((r) => setTimeout(r, opts.graceMs));
    // stops accepting connections and closes the idle ones (node ≥ 19); its callback waits for every connection,
    // socket.io's too: not awaited
    if (this.server.listening) this.server.close();
    this.server.closeIdleConnections();
    const pending = this.active.size;
    if (pending) this.log.info({ requests: pending }, 'shutdown: waiting for the requests in flight');
    const done = await this.whenIdle(opts.drainMs);
    // answers begun before the signal (their headers already sent) left their connections open: close the idle ones
    this.server.closeIdleConnections();
    if (done) return 0;
    const cut = this.active.size;
    this.log.warn({ requests: cut, ms: opts.drainMs }, 'shutdown: requests still running after the drain time, their connections cut');
    for (const res of this.active) res.socket?.destroy();
    return cut;
  }

  private whenIdle(ms: number): Promise<boolean> {
    if (!this.active.size) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.idle = null;
        resolve(false);
      }, ms);
      this.idle = () => {
        clearTimeout(timer);
        this.idle = null;
        resolve(true);
      };
    });
  }
}

/**
 * Runs `stop` on the first SIGTERM or SIGINT, then exits 0 — or 1 when it failed or took longer than `timeoutMs`.
 * Later signals are ignored: Ctrl-C under `npm start` reaches the API twice (from the terminal and from start.mjs),
 * and a shutdown half done is finished or timed out, never abandoned.
 */
export function onShutdownSignals(log: Logger, stop: (signal: NodeJS.Signals) => Promise<void>, timeoutMs: number = SHUTDOWN.timeoutMs): void {
  const handle = (signal: NodeJS.Signals) => {
    if (stopping) {
      log.info({ signal }, 'already shutting down');
      return;
    }
    stopping = true;
    const started = Date.now();
    log.info({ signal }, 'shutting down');
    setTimeout(() => {
      log.error({ signal, ms: timeoutMs }, 'shutdown did not finish in time: exiting');
      process.exit(1);
    }, timeoutMs);
    stop(signal).then(
      () => {
        log.info({ ms: Date.now() - started }, 'stopped');
        process.exit(0);
      },
      (err: unknown) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', handle);
  process.on('SIGINT', handle);
}
