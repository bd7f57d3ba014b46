import type { PGlite } from '@electric-sql/pglite';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

interface Queued {
  handlerId: number;
  message: Uint8Array;
  onData: (data: Uint8Array) => void;
  resolve: (bytes: number) => void;
  reject: (err: unknown) => void;
}

/** Frontend messages of the extended query protocol: a batch of them ends with Sync ('S'). */
const EXTENDED = new Set(['P', 'B', 'D', 'E', 'C', 'H'].map((c) => c.charCodeAt(0)));
const SYNC = 'S'.charCodeAt(0);

/**
 * The one queue in front of the PGlite session that every pooled connection shares, in place of pglite-socket's own
 * (electric-sql/pglite#1046): a connection keeps its turn from the first message of an extended-protocol batch
 * (Parse/Bind/Describe/Execute/Close/Flush) to its Sync, and for as long as it has a transaction open; the others'
 * messages wait. pglite-socket's queue kept a turn only inside a transaction, so between one connection's Parse and
 * Bind another's Parse replaced the unnamed statement ("bind message supplies 2 parameters, but prepared statement ""
 * requires 1", or another query's rows), and a failing message left its queue stopped for good. Same interface as the
 * library's QueryQueueManager (enqueue, getQueueLength, clearQueueForHandler, clearTransactionIfNeeded).
 */
export class SessionQueue {
  private queue: Queued[] = [];
  private processing = false;
  /** the connection whose batch or transaction is open: only its messages run */
  private owner: number | null = null;

  constructor(private readonly db: PGlite) {}

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    return new Promise((resolve, reject) => {
      this.queue.push({ handlerId, message, onData, resolve, reject });
      void this.process();
    });
  }

  getQueueLength(): number {
    return this.queue.length;
  }

  clearQueueForHandler(handlerId: number): void {
    this.queue = this.queue.filter((q) => {
      if (q.handlerId !== handlerId) return true;
      q.reject(new Error('Handler disconnected'));
      return false;
    });
  }

  /** A connection gone with its turn: its open transaction is rolled back and the others go on. */
  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    if (this.owner !== handlerId) return;
    if (this.db.isInTransaction()) await this.db.exec('rollback');
    this.owner = null;
    await this.process();
  }

  private next(): Queued | undefined {
    if (this.owner === null) return this.queue.shift();
    const i = this.queue.findIndex((q) => q.handlerId === this.owner);
    return i === -1 ? undefined : this.queue.splice(i, 1)[0];
  }

  private async process(): Promise<void> {
    if (this.processing) return;
    this.processing = true;
    try {
      for (let item = this.next(); item; item = this.next()) {
        let bytes = 0;
        try {
          const { onData } = item;
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(item!.message, {
              onRawData: (d: Uint8Array) => {
                bytes += d.length;
                onData(d);
              },
            }),
          );
          item.resolve(bytes);
        } catch (err) {
          item.reject(err);
        }
        const type = item.message[0];
        const batchOpen = EXTENDED.has(type) && type !== SYNC;
        this.owner = batchOpen || this.db.isInTransaction() ? item.handlerId : null;
      }
    } finally {
      this.processing = false;
    }
  }
}

/**
 * The embedded database of `npm start` without DATABASE_URL: PGlite (Postgres compiled to WASM) with its data
 * under DATA_DIR/pglite, served on a loopback port so the ordinary `pg` driver and TypeORM use it unchanged.
 */
export async function startEmbeddedPostgres(dataDir: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  // the trigram indexes of the lists' keyword search (migration ContractCounts1764849600000)
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  // the exclusion constraints refusing a teacher's or a room's overlapping sessions (migration Teaching1765108800000)
  const { btree_gist } = await import('@electric-sql/pglite/contrib/btree_gist');
  const dir = join(dataDir, 'pglite');
  mkdirSync(dir, { recursive: true });
  const db = await PGlite.create(dir, { extensions: { pg_trgm, btree_gist } });
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 8 });
  // pglite-socket (pinned) hands `server.queryQueue` to each connection's handler when it connects
  const swappable = server as unknown as { queryQueue?: { enqueue?: unknown } };
  if (typeof swappable.queryQueue?.enqueue !== 'function') throw new Error('pglite-socket has no queryQueue to replace: check its version');
  swappable.queryQueue = new SessionQueue(db);
  await server.start();
  return {
    url: `postgres://postgres:postgres@${server.getServerConn()}/postgres?sslmode=disable`,
    stop: async () => {
      await server.stop();
      await db.close();
    },
  };
}
