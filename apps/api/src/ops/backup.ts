import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { access, constants, cp, lstat, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { Client } from 'pg';
import * as tar from 'tar';
import { MIGRATIONS } from '../core/database/data-source';

/**
 * Backups (issue 25): one archive per run, `wantuo-<UTC time>.tar` in BACKUP_DIR, holding
 *   manifest.json  what the archive holds (the database's migrations, the dump's size and sha256, the files)
 *   db.dump        pg_dump --format=custom of DATABASE_URL
 *   uploads/       the uploads folder (UPLOAD_DIR) as it was
 * A plain tar: the dump is compressed by pg_dump and the uploads are mostly PDFs and images already. Written as a
 * `.partial` file and renamed when complete; the BACKUP_KEEP newest archives are kept. A restore goes into an empty
 * database (or replaces everything in one with `force`) and an empty uploads folder; the API's migrations then move a
 * restored older database forward when it starts.
 */

export const ARCHIVE_FORMAT = 'wantuo-backup';
export const ARCHIVE_VERSION = 1;
/** `wantuo-2026-11-26T20-05-06-123Z.tar`: sorting the names sorts the archives by time */
const ARCHIVE_NAME = /^wantuo-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z\.tar$/;

/** A refusal or a failure an operator can act on: the CLI prints its message only. */
export class BackupError extends Error {}

export interface BackupManifest {
  format: typeof ARCHIVE_FORMAT;
  version: number;
  created_at: string;
  database: { name: string; server_version: string; migrations: string[] };
  dump: { bytes: number; sha256: string; pg_dump: string };
  uploads: { files: number; bytes: number };
}

export interface BackupOptions {
  databaseUrl: string | null;
  uploadDir: string;
  backupDir: string;
  keep: number;
  /** the environment the PostgreSQL tools run with (PATH finds them); default process.env */
  env?: NodeJS.ProcessEnv;
  now?: Date;
}

export interface BackupResult {
  archive: string;
  bytes: number;
  manifest: BackupManifest;
  /** the older archives removed by the retention count */
  removed: string[];
}

export interface RestoreOptions {
  archive: string;
  databaseUrl: string | null;
  uploadDir: string;
  /** replace a database with tables and an uploads folder with files (their files are moved aside, not deleted) */
  force?: boolean;
  env?: NodeJS.ProcessEnv;
}

export interface RestoreResult {
  manifest: BackupManifest;
  files: number;
  /** where the uploads folder's previous files went (with force), else null */
  replacedUploads: string | null;
  /** the app's migrations missing from the restored database (applied by `npm run migrate` or the API's start) */
  pending: string[];
  /** migrations in the restored database that this version of the app does not know (a backup of a newer version) */
  unknown: string[];
}

const NO_DATABASE =
  'DATABASE_URL is not set: backups and restores work on a PostgreSQL server (the embedded development database lives in DATA_DIR/pglite: stop the API and copy DATA_DIR instead)';

/** Backs up the database and the uploads folder into one new archive in backupDir, then applies the retention count. */
export async function createBackup(o: BackupOptions): Promise<BackupResult> {
  if (!o.databaseUrl) throw new BackupError(NO_DATABASE);
  const url = o.databaseUrl;
  if (isInside(o.backupDir, o.uploadDir)) throw new BackupError(`BACKUP_DIR (${o.backupDir}) must not be inside UPLOAD_DIR (${o.uploadDir})`);
  const env = o.env ?? process.env;
  const pgDump = await toolVersion('pg_dump', env);
  const server = await withClient(url, async (c) => {
    const { rows } = await c.query(`select current_database() as name, current_setting('server_version') as version`);
    return { name: rows[0].name as string, version: rows[0].version as string, migrations: await appliedMigrations(c) };
  });
  const serverMajor = Number.parseInt(server.version, 10);
  const dumpMajor = Number.parseInt(pgDump.replace(/^\D+/, ''), 10);
  if (dumpMajor < serverMajor)
    throw new BackupError(`pg_dump ${dumpMajor} cannot dump a PostgreSQL ${serverMajor} server: install postgresql-client ${serverMajor} or newer`);

  await mkdir(o.backupDir, { recursive: true });
  const name = `wantuo-${(o.now ?? new Date()).toISOString().replace(/[:.]/g, '-')}.tar`;
  const archive = join(o.backupDir, name);
  const partial = `${archive}.partial`;
  const staging = join(o.backupDir, `.${name}.staging`);
  await mkdir(staging, { recursive: true });
  try {
    const dump = join(staging, 'db.dump');
    await run('pg_dump', ['--format=custom', `--file=${dump}`, ...connectionArgs(url)], connectionEnv(url, env));
    const uploads = await listFiles(o.uploadDir);
    const manifest: BackupManifest = {
      format: ARCHIVE_FORMAT,
      version: ARCHIVE_VERSION,
      created_at: (o.now ?? new Date()).toISOString(),
      database: { name: server.name, server_version: server.version, migrations: server.migrations },
      dump: { bytes: (await stat(dump)).size, sha256: await sha256(dump), pg_dump: pgDump },
      uploads: { files: uploads.files, bytes: uploads.bytes },
    };
    await writeFile(join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    await tar.c({ file: partial, cwd: staging }, ['manifest.json', 'db.dump']);
    const top = uploads.files || uploads.dirs ? await readdir(o.uploadDir) : [];
    if (top.length) await tar.r({ file: partial, cwd: o.uploadDir, prefix: 'uploads' }, top);
    await rename(partial, archive);
    const removed = await prune(o.backupDir, o.keep);
    return { archive, bytes: (await stat(archive)).size, manifest, removed };
  } finally {
    await rm(staging, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
    await rm(partial, { force: true });
  }
}

/** Removes all but the `keep` newest archives of backupDir (only files named as this module names them). */
export async function prune(backupDir: string, keep: number): Promise<string[]> {
  const names = (await readdir(backupDir)).filter((n) => ARCHIVE_NAME.test(n)).sort();
  const old = names.slice(0, Math.max(0, names.length - Math.max(1, keep)));
  for (const n of old) await rm(join(backupDir, n), { force: true });
  return old.map((n) => join(backupDir, n));
}

/** Restores an archive into an empty database and uploads folder (refusing others unless `force`). */
export async function restoreBackup(o: RestoreOptions): Promise<RestoreResult> {
  if (!o.databaseUrl) throw new BackupError(NO_DATABASE);
  const url = o.databaseUrl;
  const env = o.env ?? process.env;
  await toolVersion('pg_restore', env);
  try {
    await access(o.archive, constants.R_OK);
    if (!(await stat(o.archive)).isFile()) throw new Error('not a file');
  } catch (err) {
    throw new BackupError(`cannot read the archive ${o.archive}: ${(err as Error).message}`);
  }
  const entries = new Set<string>();
  try {
    await tar.t({ file: o.archive, strict: true, onReadEntry: (e) => void entries.add(e.path) });
  } catch (err) {
    throw new BackupError(`cannot read the archive ${o.archive}: ${(err as Error).message}`);
  }
  if (!entries.has('manifest.json') || !entries.has('db.dump'))
    throw new BackupError(`cannot read the archive ${o.archive}: not a backup of this platform (no manifest.json and db.dump)`);

  // the targets: an empty database and an empty uploads folder, unless told to replace them
  const tables = await withClient(url, (c) => userTables(c));
  if (tables.length && !o.force)
    throw new BackupError(
      `the database already has ${tables.length} tables (${tables.slice(0, 3).join(', ')}${tables.length > 3 ? ', ...' : ''}): restore into an empty database, or pass --force to replace everything in it`,
    );
  const existing = await listFiles(o.uploadDir);
  if (existing.files && !o.force)
    throw new BackupError(
      `the uploads folder ${o.uploadDir} already has ${existing.files} files: restore into an empty one, or pass --force to move them aside`,
    );

  // unpacked next to the uploads folder, so its files move into place by renaming
  const staging = join(dirname(o.uploadDir), `.wantuo-restore-${process.pid}-${Date.now().toString(36)}`);
  await mkdir(staging, { recursive: true });
  try {
    try {
      await tar.x({
        file: o.archive,
        cwd: staging,
        strict: true,
        preserveOwner: false,
        filter: (p) => p === 'manifest.json' || p === 'db.dump' || p === 'uploads' || p.startsWith('uploads/'),
      });
    } catch (err) {
      throw new BackupError(`cannot read the archive ${o.archive}: ${(err as Error).message}`);
    }
    let manifest: BackupManifest;
    try {
      manifest = JSON.parse(await readFile(join(staging, 'manifest.json'), 'utf8')) as BackupManifest;
    } catch (err) {
      throw new BackupError(`cannot read the archive ${o.archive}: its manifest.json: ${(err as Error).message}`);
    }
    if (manifest?.format !== ARCHIVE_FORMAT || manifest.version > ARCHIVE_VERSION)
      throw new BackupError(
        `cannot read the archive ${o.archive}: format ${manifest?.format} v${manifest?.version} (this version reads ${ARCHIVE_FORMAT} v1)`,
      );
    const dump = join(staging, 'db.dump');
    if ((await sha256(dump)) !== manifest.dump.sha256)
      throw new BackupError(`the archive ${o.archive} is damaged: db.dump does not match its checksum`);

    if (tables.length) await withClient(url, (c) => emptyDatabase(c));
    await run(
      'pg_restore',
      ['--exit-on-error', '--single-transaction', '--no-owner', '--no-privileges', ...connectionArgs(url), dump],
      connectionEnv(url, env),
    );

    await mkdir(o.uploadDir, { recursive: true });
    let replacedUploads: string | null = null;
    if (existing.files) {
      replacedUploads = `${o.uploadDir}.replaced-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      await mkdir(replacedUploads, { recursive: true });
      for (const n of await readdir(o.uploadDir)) await move(join(o.uploadDir, n), join(replacedUploads, n));
    } else if (existing.dirs) {
      // empty folders only
      for (const n of await readdir(o.uploadDir)) await rm(join(o.uploadDir, n), { recursive: true });
    }
    const restored = join(staging, 'uploads');
    const names = await readdir(restored).catch(() => [] as string[]);
    for (const n of names) await move(join(restored, n), join(o.uploadDir, n));
    const files = (await listFiles(o.uploadDir)).files;

    const applied = await withClient(url, (c) => appliedMigrations(c));
    const known = MIGRATIONS.map((M) => (new M() as { name?: string }).name ?? M.name);
    return {
      manifest,
      files,
      replacedUploads,
      pending: known.filter((n) => !applied.includes(n)),
      unknown: applied.filter((n) => !known.includes(n)),
    };
  } finally {
    await rm(staging, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
  }
}

/** The `backup` and `restore` commands of the CLI (cli.ts): their arguments, their output. */
export async function backupCommand(
  command: 'backup' | 'restore',
  args: string[],
  config: { databaseUrl: string | null; uploadDir: string; backupDir: string; backupKeep: number },
  out: (line: string) => void = (l) => process.stdout.write(`${l}\n`),
): Promise<void> {
  if (command === 'backup') {
    if (args.length) throw new BackupError('usage: backup (takes no arguments: BACKUP_DIR and BACKUP_KEEP configure it)');
    const done = await createBackup({
      databaseUrl: config.databaseUrl,
      uploadDir: config.uploadDir,
      backupDir: config.backupDir,
      keep: config.backupKeep,
    });
    out(
      `backup: ${done.archive} (${mb(done.bytes)}): database ${done.manifest.database.name} (${done.manifest.database.migrations.length} migrations, dump ${mb(done.manifest.dump.bytes)}), ${done.manifest.uploads.files} files (${mb(done.manifest.uploads.bytes)})`,
    );
    if (done.removed.length)
      out(
        `backup: removed ${done.removed.length} older archives (BACKUP_KEEP=${config.backupKeep}): ${done.removed.map((f) => basename(f)).join(', ')}`,
      );
    return;
  }
  const force = args.includes('--force');
  const rest = args.filter((a) => a !== '--force');
  if (rest.length !== 1 || rest[0].startsWith('-')) throw new BackupError('usage: restore <archive.tar> [--force]');
  // `npm run restore -- <archive>` runs in apps/api: a relative path is the caller's (npm's INIT_CWD)
  const archive = isAbsolute(rest[0]) ? rest[0] : resolve(process.env.INIT_CWD ?? process.cwd(), rest[0]);
  const done = await restoreBackup({ archive, databaseUrl: config.databaseUrl, uploadDir: config.uploadDir, force });
  out(`restore: ${basename(archive)} of ${done.manifest.created_at} restored: the database and ${done.files} files in ${config.uploadDir}`);
  if (done.replacedUploads) out(`restore: the uploads folder's previous files were moved to ${done.replacedUploads}`);
  if (done.unknown.length)
    out(`restore: WARNING the archive comes from a newer version of the platform (migrations ${done.unknown.join(', ')}): run that version`);
  else if (done.pending.length) out(`restore: ${done.pending.length} newer migrations will be applied by the API's start (or npm run migrate)`);
  else out('restore: the database is at this version (every migration applied)');
}

// ---------------------------------------------------------------------------------------------------------------------

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function isInside(child: string, parent: string): boolean {
  const r = relative(resolve(parent), resolve(child));
  return r === '' || (!r.startsWith('..') && !isAbsolute(r));
}

/** The URL without its password (given to the tools through PGPASSWORD, never on their command line). */
function connectionArgs(url: string): string[] {
  const u = new URL(url);
  u.password = '';
  return [`--dbname=${u.toString()}`];
}

function connectionEnv(url: string, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const password = decodeURIComponent(new URL(url).password);
  return password ? { ...env, PGPASSWORD: password } : env;
}

/** `pg_dump --version`'s answer; a clear refusal when the tool is not installed. */
async function toolVersion(tool: 'pg_dump' | 'pg_restore', env: NodeJS.ProcessEnv): Promise<string> {
  const out = await run(tool, ['--version'], env);
  return out.trim().replace(/^\S+\s+\(PostgreSQL\)\s+/, '');
}

/** Runs a PostgreSQL tool (found on env's PATH); its stdout, or a BackupError with the end of its stderr. */
function run(tool: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(tool, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'ENOENT'
          ? new BackupError(`${tool} not found: install the PostgreSQL client tools (Debian/Ubuntu: apt-get install postgresql-client)`)
          : err,
      ),
    );
    child.once('close', (code) => {
      if (code === 0) resolvePromise(stdout);
      else reject(new BackupError(`${tool} failed (exit ${code}): ${stderr.trim().split('\n').slice(-5).join('\n') || 'no message'}`));
    });
  });
}

async function withClient<T>(url: string, fn: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: url, application_name: 'wantuo-backup' });
  try {
    await c.connect();
  } catch (err) {
    throw new BackupError(`cannot connect to the database: ${(err as Error).message}`);
  }
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

const USER_SCHEMAS = `n.nspname not like 'pg\\_%' and n.nspname <> 'information_schema'`;

async function userTables(c: Client): Promise<string[]> {
  const { rows } = await c.query(
    `select n.nspname || '.' || c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p') and ${USER_SCHEMAS} order by 1`,
  );
  return rows.map((r) => r.name as string);
}

/** --force: every schema of the database's own dropped (tables, sequences, functions, extensions), an empty public back. */
async function emptyDatabase(c: Client): Promise<void> {
  const { rows } = await c.query(`select n.nspname from pg_namespace n where ${USER_SCHEMAS}`);
  await c.query('begin');
  for (const r of rows) await c.query(`drop schema ${quoteIdent(r.nspname as string)} cascade`);
  await c.query('create schema public');
  await c.query('commit');
}

function quoteIdent(s: string): string {
  return `"${s.replace(/"/g, '""')}"`;
}

async function appliedMigrations(c: Client): Promise<string[]> {
  const { rows } = await c.query(`select to_regclass('public.migrations') is not null as present`);
  if (!rows[0].present) return [];
  return (await c.query(`select name from public.migrations order by id`)).rows.map((r) => r.name as string);
}

async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Regular files (and their bytes) and directories under dir; a missing dir has none. */
async function listFiles(dir: string): Promise<{ files: number; bytes: number; dirs: number }> {
  const found = { files: 0, bytes: 0, dirs: 0 };
  const walk = async (d: string) => {
    let names: string[];
    try {
      names = await readdir(d);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    for (const n of names) {
      const s = await lstat(join(d, n));
      if (s.isDirectory()) {
        found.dirs++;
        await walk(join(d, n));
      } else {
        found.files++;
        found.bytes += s.size;
      }
    }
  };
  await walk(dir);
  return found;
}

/** rename, or copy and delete across file systems (the uploads folder may be a volume of its own). */
async function move(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    await cp(from, to, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
    await rm(from, { recursive: true, force: true });
  }
}
