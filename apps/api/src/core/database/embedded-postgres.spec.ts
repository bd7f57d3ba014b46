import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { Client } from 'pg';
import { serialize } from 'pg-protocol';
import { SessionQueue, startEmbeddedPostgres } from './embedded-postgres';

interface Queue {
  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number>;
}

/** The backend messages in `bytes`: their type letters, and the text of any ErrorResponse. */
function backend(bytes: Buffer): { types: string; errors: string[] } {
  let types = '';
  const errors: string[] = [];
  for (let at = 0; at + 5 <= bytes.length;) {
    const type = String.fromCharCode(bytes[at]);
    const len = bytes.readInt32BE(at + 1);
    types += type;
    if (type === 'E')
      errors.push(
        bytes
          .subarray(at + 5, at + 1 + len)
          .toString('latin1')
          .replace(/\0/g, ' '),
      );
    at += 1 + len;
  }
  return { types, errors };
}

/**
 * Two connections' extended-protocol batches arriving interleaved, message by message, as two pooled connections'
 * data does: A's Parse, B's Parse, A's Bind, … Each statement has its own number of parameters.
 */
async function interleaved(queue: Queue): Promise<Array<{ types: string; errors: string[] }>> {
  const batch = (params: number) => [
    serialize.parse({ text: `select ${Array.from({ length: params }, (_, k) => `$${k + 1}::int`).join(' + ')} as sum`, types: [] }),
    serialize.bind({ values: Array.from({ length: params }, (_, k) => String(k + 1)) }),
    serialize.describe({ type: 'P' }),
    serialize.execute({}),
    serialize.sync(),
  ];
  const batches = [batch(1), batch(2)];
  const out = [Buffer.alloc(0), Buffer.alloc(0)];
  const sent: Promise<number>[] = [];
  for (let m = 0; m < 5; m++) {
    for (const h of [0, 1]) {
      sent.push(queue.enqueue(h + 1, new Uint8Array(batches[h][m]), (d) => (out[h] = Buffer.concat([out[h], Buffer.from(d)]))));
    }
  }
  await Promise.allSettled(sent);
  return out.map(backend);
}

/**
 * The embedded database serves every pooled connection from ONE PGlite session. An extended-protocol batch
 * (Parse/Bind/Describe/Execute/Sync) must run whole before another connection's message: pglite-socket alone keeps a
 * connection's turn only inside a transaction, so two connections' batches interleaved and one bound the other's
 * unnamed statement ("bind message supplies 2 parameters, but prepared statement "" requires 1", or the other's rows).
 */
describe('the session queue in front of the embedded database', () => {
  let pg: PGlite;
  beforeAll(async () => {
    pg = await PGlite.create();
  });
  afterAll(async () => pg?.close());

  it('pglite-socket’s own queue runs interleaved batches interleaved: one binds the other’s statement (why ours exists)', async () => {
    const own = (new PGLiteSocketServer({ db: pg }) as unknown as { queryQueue: Queue }).queryQueue;
    const [a] = await interleaved(own);
    expect(a.errors.join()).toMatch(/bind message supplies 1 parameters, but prepared statement "" requires 2/);
  });

  it('runs each connection’s batch whole, Parse to Sync: both answer their own rows, no error', async () => {
    const [a, b] = await interleaved(new SessionQueue(pg));
    expect([a, b]).toEqual([
      { types: '12TDCZ', errors: [] },
      { types: '12TDCZ', errors: [] },
    ]);
  });
});

describe('the embedded database: one session for several connections', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'wantuo-embedded-queue-'));
  let db: Awaited<ReturnType<typeof startEmbeddedPostgres>>;
  const clients: Client[] = [];

  beforeAll(async () => {
    db = await startEmbeddedPostgres(dataDir);
    for (let i = 0; i < 8; i++) {
      const c = new Client({ connectionString: db.url });
      await c.connect();
      clients.push(c);
    }
  }, 60_000);

  afterAll(async () => {
    for (const c of clients) await c.end().catch(() => undefined);
    await db?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs each connection’s parameterised statements whole: every answer is its own, none fails', async () => {
    // each connection a statement of its own shape (1, 2, 3 or 4 parameters), 150 times, all at once
    const failures: string[] = [];
    await Promise.all(
      clients.map(async (c, i) => {
        const n = i + 1;
        // a write (the session syncs its files to disk after it: the moment another connection's data arrives)
        await c.query(`create table if not exists probe_${n} (id serial primary key, sum int not null)`);
        const text = `insert into probe_${n} (sum) select ${Array.from({ length: n }, (_, k) => `$${k + 1}::int`).join(' + ')} returning sum, ${n} as conn`;
        for (let round = 0; round < 100; round++) {
          const values = Array.from({ length: n }, (_, k) => round + k);
          try {
            const { rows } = await c.query(text, values);
            const want = values.reduce((a, b) => a + b, 0);
            if (rows[0]?.conn !== n || rows[0]?.sum !== want) failures.push(`conn ${n} round ${round}: ${JSON.stringify(rows)}`);
          } catch (err) {
            failures.push(`conn ${n} round ${round}: ${(err as Error).message}`);
          }
        }
      }),
    );
    expect(failures.slice(0, 5)).toEqual([]);
  });

  it('keeps a transaction’s connection until it ends, and a failed statement frees the queue', async () => {
    const [a, b] = clients;
    await a.query('create table if not exists queue_probe (id int primary key)');
    await a.query('begin');
    await a.query('insert into queue_probe values ($1)', [1]);
    // b's read waits for a's transaction: it never sees the uncommitted row, and never runs inside a's transaction
    const read = b.query('select count(*)::int as n from queue_probe where id = $1', [1]);
    await expect(a.query('insert into queue_probe values ($1)', [1])).rejects.toThrow(/duplicate key/);
    await a.query('rollback');
    expect((await read).rows[0].n).toBe(0);
    expect((await b.query('select $1::text as ok', ['yes'])).rows[0].ok).toBe('yes');
  });
});
