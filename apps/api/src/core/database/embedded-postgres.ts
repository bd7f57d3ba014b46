import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

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
  await server.start();
  return {
    url: `postgres://postgres:postgres@${server.getServerConn()}/postgres?sslmode=disable`,
    stop: async () => {
      await server.stop();
      await db.close();
    },
  };
}
