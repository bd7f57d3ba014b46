import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { access, constants, cp, lstat, mkdir, readdir, readlink, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { Client } from 'pg';
import * as tar from 'tar';
import { MIGRATIONS } from '../core/database/data-source';

/**
 * Backups (issue 25): one archive per run, `wantuo-<UTC time>.tar` in BACKUP_DIR, holding
 *   manifest.json  what the archive holds (the database's migrations, the dump, and every entry after it: path, type,
 *                  size and sha256)
 *   db.dump        pg_dump --format=custom of DATABASE_URL
 *   uploads/       the uploads folder (UPLOAD_DIR) as it was
 * A plain tar: the dump is compressed by pg_dump and the uploads are mostly PDFs and images already. Written as a
 * `.partial` file, read back and checked against its manifest, and renamed when complete; the BACKUP_KEEP newest
 * archives are kept. A restore reads the whole archive first and refuses it unless it is exactly what its manifest lists
 * (issue 34: every entry's size and sha256, nothing missing, nothing extra, the tar's end-of-archive there) before it
 * touches the target; it goes into an empty database (or replaces everything in one with `force`) and an empty uploads
 * folder; the API's migrations then move a restored older database forward when it starts.
 *
 * Versions: 1 (issue 25) had the dump's sha256 and the uploads' count and bytes only; 2 lists every entry. A version 1
 * archive is still restored, checked as far as its manifest allows (the dump's checksum, the uploads' count and bytes,
 * nothing outside manifest.json, db.dump and uploads/, the end-of-archive), and the restore says its uploads had no
 * checksums.
 */

export const ARCHIVE_FORMAT = 'wantuo-backup';
export const ARCHIVE_VERSION = 2;
/** `wantuo-2026-11-26T20-05-06-123Z.tar`: sorting the names sorts the archives by time */
const ARCHIVE_NAME = /^wantuo-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z\.tar$/;

/** A refusal or a failure an operator can act on: the CLI prints its message only. */
export class BackupError extends Error {}

/** An entry of the archive as version 2's manifest lists it (paths as in the archive: `db.dump`, `uploads/a/b.png`). */
export type ManifestEntry =
  | { path: string; type: 'file'; bytes: number; sha256: string }
  | { path: string; type: 'directory' }
  | { path: string; type: 'symlink'; target: string };

export interface BackupManifest {
  format: typeof ARCHIVE_FORMAT;
  version: number;
  created_at: string;
  database: { name: string; server_version: string; migrations: string[] };
  dump: { bytes: number; sha256: string; pg_dump: string };
  /** files: regular files and symbolic links under uploads/ */
  uploads: { files: number; bytes: number };
  /** version 2: every entry of the archive after manifest.json, in the archive's order (absent in version 1) */
  entries?: ManifestEntry[];
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
  /** a version 1 archive: its uploads were checked by their count and bytes only (its manifest has no checksums) */
  uploadsUnchecked: boolean;
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
    const dumped = { bytes: (await stat(dump)).size, sha256: await sha256(dump) };
    // the uploads as they are now, each file hashed; exactly these are packed (a file added meanwhile waits for the next)
    const uploads = await uploadEntries(o.uploadDir);
    const files = uploads.filter((e) => e.type !== 'directory');
    const manifest: BackupManifest = {
      format: ARCHIVE_FORMAT,
      version: ARCHIVE_VERSION,
      created_at: (o.now ?? new Date()).toISOString(),
      database: { name: server.name, server_version: server.version, migrations: server.migrations },
      dump: { ...dumped, pg_dump: pgDump },
      uploads: { files: files.length, bytes: files.reduce((n, e) => n + (e.type === 'file' ? e.bytes : 0), 0) },
      entries: [{ path: 'db.dump', type: 'file', ...dumped }, ...uploads],
    };
    await writeFile(join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    await tar.c({ file: partial, cwd: staging }, ['manifest.json', 'db.dump']);
    if (uploads.length)
      await tar.r(
        { file: partial, cwd: o.uploadDir, prefix: 'uploads', noDirRecurse: true },
        uploads.map((e) => e.path.slice('uploads/'.length)),
      );
    // read back as a restore reads it: a file changed or removed while it was packed makes an archive that would be refused
    const problems = archiveProblems(manifest, await readArchive(partial));
    if (problems.length)
      throw new BackupError(
        `the new archive does not match what was backed up (${summary(problems)}): an uploaded file changed while it was packed; run the backup again`,
      );
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
  // the whole archive read and checked against its manifest before anything is touched
  const manifest = verifiedManifest(o.archive, await readArchive(o.archive));

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
      await tar.x({ file: o.archive, cwd: staging, strict: true, preserveOwner: false, filter: (p) => p === 'db.dump' || isUpload(p) });
    } catch (err) {
      throw new BackupError(`cannot read the archive ${o.archive}: ${(err as Error).message}${NOTHING_RESTORED}`);
    }
    // what was unpacked is what was checked (the archive did not change in between)
    const dump = join(staging, 'db.dump');
    const unpacked = await listFiles(join(staging, 'uploads'));
    if ((await stat(dump)).size !== manifest.dump.bytes || unpacked.files !== manifest.uploads.files)
      throw new BackupError(`the archive ${o.archive} changed while it was restored${NOTHING_RESTORED}`);

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
      uploadsUnchecked: manifest.version < 2,
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
  if (done.uploadsUnchecked)
    out(`restore: the archive is of format v${done.manifest.version}: its uploaded files were checked by their count and bytes only (no checksums)`);
  if (done.replacedUploads) out(`restore: the uploads folder's previous files were moved to ${done.replacedUploads}`);
  if (done.unknown.length)
    out(`restore: WARNING the archive comes from a newer version of the platform (migrations ${done.unknown.join(', ')}): run that version`);
  else if (done.pending.length) out(`restore: ${done.pending.length} newer migrations will be applied by the API's start (or npm run migrate)`);
  else out('restore: the database is at this version (every migration applied)');
}

// ---------------------------------------------------------------------------------------------------------------------
// Reading and checking an archive

const NOTHING_RESTORED = ': nothing was restored';

/** An entry as the archive holds it: its path (no trailing slash), node-tar's type, the bytes of its data and their sha256. */
interface ArchiveEntry {
  path: string;
  type: string;
  bytes: number;
  sha256: string;
  target: string | null;
}

interface ArchiveContents {
  entries: ArchiveEntry[];
  /** the tar's end-of-archive (two zero blocks) was read */
  ended: boolean;
  manifest: string | null;
}

function isUpload(path: string): boolean {
  return path === 'uploads' || path.startsWith('uploads/');
}

/** Reads the whole archive once without unpacking it: every entry with the sha256 of its data, and whether it ends as a tar ends. */
function readArchive(archive: string): Promise<ArchiveContents> {
  const found: ArchiveContents = { entries: [], ended: false, manifest: null };
  let current: string | null = null;
  return new Promise<ArchiveContents>((resolvePromise, reject) => {
    const parser = new tar.Parser({
      strict: true,
      onReadEntry: (e) => {
        const path = e.path.replace(/\/+$/, '');
        current = path;
        const hash = createHash('sha256');
        const manifest: Buffer[] | null = path === 'manifest.json' ? [] : null;
        let bytes = 0;
        e.on('data', (chunk: Buffer) => {
          hash.update(chunk);
          bytes += chunk.length;
          manifest?.push(chunk);
        });
        e.on('end', () => {
          found.entries.push({ path, type: e.type, bytes, sha256: hash.digest('hex'), target: e.linkpath ?? null });
          if (manifest) found.manifest = Buffer.concat(manifest).toString('utf8');
        });
      },
    });
    parser.on('eof', () => (found.ended = true));
    const input = createReadStream(archive);
    const fail = (err: Error) => {
      input.destroy();
      const last = found.entries.at(-1)?.path;
      if (current === null) reject(new BackupError(`cannot read the archive ${archive}: ${err.message}`));
      else if (/Truncated input/.test(err.message) && current !== last)
        reject(new BackupError(`the archive ${archive} is damaged: it is cut off inside ${current}${NOTHING_RESTORED}`));
      else reject(new BackupError(`the archive ${archive} is damaged after ${last ?? 'its start'}: ${err.message}${NOTHING_RESTORED}`));
    };
    input.on('error', fail);
    parser.on('error', fail);
    parser.on('end', () => resolvePromise(found));
    input.pipe(parser);
  });
}

/** The archive's manifest once the archive is exactly what it lists; else a BackupError naming what is wrong. */
function verifiedManifest(archive: string, contents: ArchiveContents): BackupManifest {
  if (contents.manifest === null || !contents.entries.some((e) => e.path === 'db.dump'))
    throw new BackupError(`cannot read the archive ${archive}: not a backup of this platform (no manifest.json and db.dump)`);
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(contents.manifest) as BackupManifest;
  } catch (err) {
    throw new BackupError(`cannot read the archive ${archive}: its manifest.json: ${(err as Error).message}`);
  }
  if (
    manifest?.format !== ARCHIVE_FORMAT ||
    !Number.isInteger(manifest.version) ||
    manifest.version < 1 ||
    manifest.version > ARCHIVE_VERSION ||
    (manifest.version >= 2 && !Array.isArray(manifest.entries)) ||
    typeof manifest.dump?.sha256 !== 'string' ||
    !Number.isInteger(manifest.uploads?.files) ||
    !Number.isInteger(manifest.uploads?.bytes)
  )
    throw new BackupError(
      `cannot read the archive ${archive}: format ${manifest?.format} v${manifest?.version} (this version reads ${ARCHIVE_FORMAT} v1 to v${ARCHIVE_VERSION})`,
    );
  const problems = archiveProblems(manifest, contents);
  if (problems.length) throw new BackupError(`the archive ${archive} is damaged: ${summary(problems)}${NOTHING_RESTORED}`);
  return manifest;
}

function summary(problems: string[]): string {
  return problems.length > 4 ? `${problems.slice(0, 4).join('; ')}; and ${problems.length - 4} more` : problems.join('; ');
}

const TYPES: Record<string, ManifestEntry['type']> = {
  File: 'file',
  OldFile: 'file',
  ContiguousFile: 'file',
  Directory: 'directory',
  SymbolicLink: 'symlink',
};

/** What differs between an archive's entries and its manifest (version 1: as far as its manifest says), in the archive's terms. */
function archiveProblems(manifest: BackupManifest, contents: ArchiveContents): string[] {
  const problems: string[] = [];
  const seen = contents.entries.filter((e) => e.path !== 'manifest.json');
  if (!contents.ended) problems.push(`it ends without the tar end-of-archive (cut off after ${contents.entries.at(-1)?.path ?? 'its start'})`);
  const seenFiles = seen.filter((e) => isUpload(e.path) && e.path !== 'uploads' && TYPES[e.type] !== 'directory');
  if (seenFiles.length !== manifest.uploads.files)
    problems.push(`it holds ${seenFiles.length} of the ${manifest.uploads.files} uploaded files its manifest lists`);
  if (contents.entries.filter((e) => e.path === 'manifest.json').length > 1) problems.push('it has more than one manifest.json');

  if (manifest.version < 2) {
    // version 1: the dump's checksum, the uploads' count and bytes, nothing beside them
    const dump = seen.find((e) => e.path === 'db.dump');
    if (dump && dump.sha256 !== manifest.dump.sha256) problems.push('db.dump does not match its checksum');
    const bytes = seenFiles.reduce((n, e) => n + e.bytes, 0);
    if (seenFiles.length === manifest.uploads.files && bytes !== manifest.uploads.bytes)
      problems.push(`its uploaded files have ${bytes} bytes, its manifest says ${manifest.uploads.bytes}`);
    for (const e of seen) if (e.path !== 'db.dump' && !isUpload(e.path)) problems.push(`${e.path} is not in its manifest`);
    return problems;
  }

  const listed = new Map(manifest.entries!.map((e) => [e.path, e]));
  const listedFiles = manifest.entries!.filter((e) => isUpload(e.path) && e.type !== 'directory').length;
  if (listedFiles !== manifest.uploads.files) problems.push(`its manifest lists ${listedFiles} uploaded files but counts ${manifest.uploads.files}`);
  const met = new Set<string>();
  for (const e of seen) {
    const want = listed.get(e.path);
    const type = TYPES[e.type] ?? e.type;
    if (!want) problems.push(`${e.path} is not in its manifest`);
    else if (met.has(e.path)) problems.push(`${e.path} is in it twice`);
    else if (type !== want.type) problems.push(`${e.path} is a ${type}, its manifest says ${want.type}`);
    else if (want.type === 'file' && e.bytes !== want.bytes) problems.push(`${e.path} has ${e.bytes} bytes, its manifest says ${want.bytes}`);
    else if (want.type === 'file' && e.sha256 !== want.sha256) problems.push(`${e.path} does not match its checksum`);
    else if (want.type === 'symlink' && e.target !== want.target) problems.push(`${e.path} points elsewhere than its manifest says`);
    met.add(e.path);
  }
  const missing = manifest.entries!.filter((e) => !met.has(e.path)).map((e) => e.path);
  if (missing.length)
    problems.push(`${missing.length} entries its manifest lists are missing (${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', ...' : ''})`);
  return problems;
}

/** The uploads folder's entries as the manifest lists them, parents before their contents, each file with its sha256. */
async function uploadEntries(dir: string): Promise<ManifestEntry[]> {
  const out: ManifestEntry[] = [];
  const walk = async (rel: string) => {
    let names: string[];
    try {
      names = (await readdir(join(dir, rel))).sort();
    } catch (err) {
      if (rel === '' && (err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    for (const n of names) {
      const path = rel ? `${rel}/${n}` : n;
      const s = await lstat(join(dir, path));
      if (s.isDirectory()) {
        out.push({ path: `uploads/${path}`, type: 'directory' });
        await walk(path);
      } else if (s.isSymbolicLink()) out.push({ path: `uploads/${path}`, type: 'symlink', target: await readlink(join(dir, path)) });
      else if (s.isFile()) out.push({ path: `uploads/${path}`, type: 'file', bytes: s.size, sha256: await sha256(join(dir, path)) });
    }
  };
  await walk('');
  return out;
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
