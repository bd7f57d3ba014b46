import { execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, copyFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { Client } from 'pg';
import * as tar from 'tar';
import { DataSource } from 'typeorm';
import { TEMPLATE_DB, urlFor, withAdmin } from '../../test/db';
import { ENV_KEYS } from '../core/config/config';
import { dataSourceOptions, MIGRATIONS } from '../core/database/data-source';
import { seedDemoCourseware } from '../seed/demo-courseware';
import { seedDemo } from '../seed/demo-seed';
import { seedShowcase } from '../seed/demo-showcase';
import { backupCommand, BackupError, createBackup, restoreBackup, type BackupManifest } from './backup';

/**
 * The round trip an operator relies on: the demo school with its showcase (activity in every module) and files in its
 * uploads folder, backed up by the CLI (`node dist/cli.js backup`, here from the sources), restored into a fresh
 * database and uploads folder, compared table by table (every row's text), sequence by sequence, index by index and
 * byte by byte. The backup runs as its own process: inside jest's sandbox node-tar would write the pax times of
 * non-ASCII names wrongly (its `instanceof Date` fails on fs.Stats dates from the outer realm).
 */
const stamp = `${process.pid}_${Date.now().toString(36)}`;
const source = `wantuo_bk_${stamp}`;
const target = `wantuo_bk_${stamp}_r`;
const spare = `wantuo_bk_${stamp}_e`;
const populated = `wantuo_bk_${stamp}_p`;
const root = mkdtempSync(join(tmpdir(), 'wantuo-backup-'));
const sourceUploads = join(root, 'a', 'uploads');
const targetUploads = join(root, 'b', 'uploads');
const backupDir = join(root, 'backups');
let archive: string;
let manifest: BackupManifest;
let before: Fingerprint;

interface Fingerprint {
  tables: Record<string, { rows: number; md5: string }>;
  sequences: Record<string, string>;
  indexes: Record<string, string>;
  triggers: string[];
}

/** Every table's rows (count and md5 of the rows' text in order), the sequences' positions, the indexes and triggers. */
async function fingerprint(database: string): Promise<Fingerprint> {
  const c = new Client({ connectionString: urlFor(database) });
  await c.connect();
  try {
    const tables: Fingerprint['tables'] = {};
    const { rows: names } = await c.query(`select tablename from pg_tables where schemaname = 'public' order by tablename`);
    for (const { tablename } of names) {
      const { rows } = await c.query(
        `select count(*)::int as rows, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as md5 from public."${tablename}" t`,
      );
      tables[tablename] = rows[0];
    }
    const { rows: seqs } = await c.query(`select sequencename, last_value::text as v from pg_sequences where schemaname = 'public' order by 1`);
    const { rows: idx } = await c.query(`select indexname, indexdef from pg_indexes where schemaname = 'public' order by 1`);
    const { rows: trg } = await c.query(`select tgrelid::regclass::text || '.' || tgname as t from pg_trigger where not tgisinternal order by 1`);
    return {
      tables,
      sequences: Object.fromEntries(seqs.map((r) => [r.sequencename, r.v ?? 'unused'])),
      // without casts and parentheses: PostgreSQL deparses a restored `state in ('a', 'b')` predicate with its casts placed
      // differently (the same index)
      indexes: Object.fromEntries(idx.map((r) => [r.indexname, (r.indexdef as string).replace(/::[\w ]+(\[\])?|[()]/g, '')])),
      triggers: trg.map((r) => r.t),
    };
  } finally {
    await c.end();
  }
}

/** Every file under dir: its path and the sha256 of its bytes. */
function files(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p)] = createHash('sha256').update(readFileSync(p)).digest('hex');
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

/** The CLI as `npm run backup` / `npm run restore` run it, on a database and uploads folder; only the variables given. */
function cli(args: string[], database: string | null, uploadDir: string, extra: NodeJS.ProcessEnv = {}) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !(ENV_KEYS as string[]).includes(k)));
  Object.assign(env, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: join(root, 'data'),
    UPLOAD_DIR: uploadDir,
    BACKUP_DIR: backupDir,
    BACKUP_KEEP: '3',
  });
  if (database) env.DATABASE_URL = urlFor(database);
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [join(__dirname, '../../test/ts-run.js'), 'src/cli.ts', ...args], { env: { ...env, ...extra } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const config = (uploadDir: string, database: string | null) => ({ databaseUrl: database && urlFor(database), uploadDir, backupDir, backupKeep: 3 });

beforeAll(async () => {
  await withAdmin(async (c) => {
    await c.query(`create database ${source} template ${TEMPLATE_DB}`);
    // fresh databases as an operator makes them: nothing in them, not even the migrations
    await c.query(`create database ${target}`);
    await c.query(`create database ${spare}`);
  });
  // the demo as `npm start` seeds a new database: people, history, courseware (with its PDFs) and the showcase
  const ds = new DataSource(dataSourceOptions(urlFor(source), 1));
  await ds.initialize();
  try {
    await seedDemo(ds);
    await seedDemoCourseware(ds, sourceUploads);
    await seedShowcase(ds, sourceUploads);
  } finally {
    await ds.destroy();
  }
  // uploads of every shape: binary, empty, nested, a Chinese name
  mkdirSync(join(sourceUploads, 'avatars', '2026', '11'), { recursive: true });
  writeFileSync(join(sourceUploads, 'avatars', '2026', '11', 'a.png'), randomBytes(300_000));
  writeFileSync(join(sourceUploads, 'avatars', 'empty.bin'), Buffer.alloc(0));
  writeFileSync(join(sourceUploads, '作业照片.jpg'), randomBytes(4_096));
  // older archives the retention count removes, and a file of the operator's it leaves alone
  mkdirSync(backupDir, { recursive: true });
  for (const day of ['01', '02', '03']) writeFileSync(join(backupDir, `wantuo-2026-01-${day}T02-00-00-000Z.tar`), 'old');
  writeFileSync(join(backupDir, 'notes.txt'), 'mine');
  before = await fingerprint(source);
}, 60_000);

afterAll(async () => {
  await withAdmin(async (c) => {
    for (const db of [source, target, spare, populated]) await c.query(`drop database if exists ${db} with (force)`);
  });
  rmSync(root, { recursive: true, force: true });
});

it('backs up the demo school with activity in every module and restores it, row for row and byte for byte', async () => {
  // the source really has every module's activity
  for (const t of ['flow_events', 'student_days', 'meal_bookings', 'class_sessions', 'session_roll_calls', 'exam_scores', 'notice_receipts'])
    expect({ t, rows: before.tables[t].rows > 0 }).toEqual({ t, rows: true });
  for (const t of ['homework_submissions', 'points_ledger', 'store_orders', 'courseware_purchases', 'lesson_plans', 'ledger_entries', 'files'])
    expect({ t, rows: before.tables[t].rows > 0 }).toEqual({ t, rows: true });
  expect(Object.keys(files(sourceUploads)).length).toBeGreaterThan(4);

  const made = await cli(['backup'], source, sourceUploads);
  expect({ code: made.code, stderr: made.stderr }).toEqual({ code: 0, stderr: '' });
  archive = /^backup: (\S+\.tar) \(/m.exec(made.stdout)![1];
  expect(basename(archive)).toMatch(/^wantuo-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z\.tar$/);
  // one archive: the manifest, the dump and the uploads
  const entries: string[] = [];
  await tar.t({ file: archive, onReadEntry: (e) => void entries.push(e.path) });
  expect(entries.slice(0, 2)).toEqual(['manifest.json', 'db.dump']);
  expect(entries).toContain('uploads/avatars/2026/11/a.png');
  mkdirSync(join(root, 'manifest'));
  await tar.x({ file: archive, cwd: join(root, 'manifest') }, ['manifest.json']);
  manifest = JSON.parse(readFileSync(join(root, 'manifest', 'manifest.json'), 'utf8'));
  expect(manifest.database.migrations).toHaveLength(MIGRATIONS.length);
  expect(manifest.uploads.files).toBe(Object.keys(files(sourceUploads)).length);
  // version 2 (issue 34): every file of the archive with its size and sha256, the dump first
  expect(manifest.entries![0]).toEqual({ path: 'db.dump', type: 'file', bytes: manifest.dump.bytes, sha256: manifest.dump.sha256 });
  const listed = manifest.entries!.slice(1).flatMap((e) => (e.type === 'file' ? [`${e.path} ${e.sha256}`] : []));
  expect(listed.sort()).toEqual(
    Object.entries(files(sourceUploads))
      .map(([p, sha]) => `uploads/${p} ${sha}`)
      .sort(),
  );
  // the three newest kept: this one and the two newest older ones; the operator's own file stays
  expect(made.stdout).toContain('removed 1 older archives (BACKUP_KEEP=3): wantuo-2026-01-01T02-00-00-000Z.tar');
  expect(readdirSync(backupDir).sort()).toEqual(
    [basename(archive), 'notes.txt', 'wantuo-2026-01-02T02-00-00-000Z.tar', 'wantuo-2026-01-03T02-00-00-000Z.tar'].sort(),
  );

  const restored = await restoreBackup({ archive, databaseUrl: urlFor(target), uploadDir: targetUploads });
  expect(restored).toMatchObject({ pending: [], unknown: [], replacedUploads: null, files: manifest.uploads.files });
  const after = await fingerprint(target);
  expect(Object.keys(after.tables)).toEqual(Object.keys(before.tables));
  expect(after).toEqual(before);
  expect(files(targetUploads)).toEqual(files(sourceUploads));
  // the API's own migrations check: nothing to apply on the restored database
  const ds = new DataSource(dataSourceOptions(urlFor(target), 1));
  await ds.initialize();
  try {
    expect(await ds.showMigrations()).toBe(false);
  } finally {
    await ds.destroy();
  }
  // the source was only read
  expect(await fingerprint(source)).toEqual(before);
}, 60_000);

it('refuses a database with tables or an uploads folder with files; --force replaces them', async () => {
  await expect(restoreBackup({ archive, databaseUrl: urlFor(source), uploadDir: join(root, 'c', 'uploads') })).rejects.toThrow(
    /the database already has \d+ tables \(public\.\w+.*pass --force/,
  );
  expect(await fingerprint(source)).toEqual(before);
  // an empty database but an uploads folder with files
  await expect(restoreBackup({ archive, databaseUrl: urlFor(spare), uploadDir: sourceUploads })).rejects.toThrow(
    /the uploads folder .* already has \d+ files: .*--force/,
  );
  expect((await fingerprint(spare)).tables).toEqual({});

  // the CLI: a relative path is the caller's (npm's INIT_CWD); the refusal is one clear line and exit code 1
  const refused = await cli(['restore', basename(archive)], target, targetUploads, { INIT_CWD: backupDir });
  expect(refused).toMatchObject({ code: 1, stdout: '' });
  expect(refused.stderr).toMatch(/^the database already has \d+ tables \(public\.\w+.*pass --force to replace everything in it\n$/);

  // --force over a database and folder that changed since: everything replaced, the folder's files moved aside
  const c = new Client({ connectionString: urlFor(target) });
  await c.connect();
  await c.query(`create table stray (x int); update schools set name = 'changed'; select nextval(pg_get_serial_sequence('schools', 'id'))`);
  await c.end();
  writeFileSync(join(targetUploads, 'stray.txt'), 'after the backup');
  rmSync(join(targetUploads, 'avatars'), { recursive: true });
  const again = await restoreBackup({ archive, databaseUrl: urlFor(target), uploadDir: targetUploads, force: true });
  expect(await fingerprint(target)).toEqual(before);
  expect(files(targetUploads)).toEqual(files(sourceUploads));
  expect(again.replacedUploads).toMatch(/uploads\.replaced-/);
  expect(readFileSync(join(again.replacedUploads!, 'stray.txt'), 'utf8')).toBe('after the backup');
}, 60_000);

it('refuses clearly: no DATABASE_URL, no pg_dump or pg_restore, an archive it cannot read', async () => {
  const uploads = join(root, 'd', 'uploads');
  await expect(createBackup({ databaseUrl: null, uploadDir: uploads, backupDir, keep: 3 })).rejects.toThrow(/^DATABASE_URL is not set/);
  await expect(backupCommand('backup', [], config(uploads, null), () => undefined)).rejects.toThrow(BackupError);
  await expect(
    createBackup({ databaseUrl: urlFor(spare), uploadDir: uploads, backupDir, keep: 3, env: { ...process.env, PATH: join(root, 'nowhere') } }),
  ).rejects.toThrow(/^pg_dump not found: install the PostgreSQL client/);
  await expect(
    restoreBackup({ archive, databaseUrl: urlFor(spare), uploadDir: uploads, env: { ...process.env, PATH: join(root, 'nowhere') } }),
  ).rejects.toThrow(/^pg_restore not found/);
  await expect(createBackup({ databaseUrl: urlFor(spare), uploadDir: root, backupDir, keep: 3 })).rejects.toThrow(/must not be inside UPLOAD_DIR/);

  const restore = (archive: string) => restoreBackup({ archive, databaseUrl: urlFor(spare), uploadDir: uploads });
  await expect(restore(join(root, 'missing.tar'))).rejects.toThrow(/^cannot read the archive .*missing\.tar/);
  await expect(restore(root)).rejects.toThrow(/^cannot read the archive/);
  writeFileSync(join(root, 'garbage.tar'), randomBytes(10_000));
  await expect(restore(join(root, 'garbage.tar'))).rejects.toThrow(/^cannot read the archive/);
  await tar.c({ file: join(root, 'other.tar'), cwd: root }, ['garbage.tar']);
  await expect(restore(join(root, 'other.tar'))).rejects.toThrow(/not a backup of this platform/);
  copyFileSync(archive, join(root, 'cut.tar'));
  truncateSync(join(root, 'cut.tar'), Math.floor(manifest.dump.bytes / 2));
  await expect(restore(join(root, 'cut.tar'))).rejects.toThrow(/^cannot read the archive|is damaged/);
  await expect(backupCommand('restore', [], config(uploads, spare), () => undefined)).rejects.toThrow(/^usage: restore <archive.tar> \[--force\]/);
  // nothing was written by the refusals
  expect((await fingerprint(spare)).tables).toEqual({});
  expect(existsSync(uploads)).toBe(false);
});

/** The headers of a tar file: where each starts, its name (ustar's, enough for the short ASCII names used here) and size. */
function tarHeaders(buf: Buffer): { offset: number; name: string; size: number; data: number; end: number }[] {
  const out = [];
  for (let o = 0; o + 512 <= buf.length;) {
    const h = buf.subarray(o, o + 512);
    if (h.every((b) => b === 0)) break;
    const name = h.toString('utf8', 0, 100).replace(/\0.*$/s, '');
    const size = parseInt(h.toString('ascii', 124, 136).replace(/\0.*$/s, '').trim() || '0', 8);
    const end = o + 512 + Math.ceil(size / 512) * 512;
    out.push({ offset: o, name, size, data: o + 512, end });
    o = end;
  }
  return out;
}

/** A tar of dir's names written by node-tar in a process of its own (outside jest's sandbox, as the CLI writes them). */
function tarOf(dir: string, names: string[]): Buffer {
  const file = join(root, `piece-${Date.now().toString(36)}.tar`);
  execFileSync(
    process.execPath,
    ['-e', `require('tar').c({ file: ${JSON.stringify(file)}, cwd: ${JSON.stringify(dir)}, sync: true }, ${JSON.stringify(names)})`],
    {
      cwd: join(__dirname, '../..'),
    },
  );
  const buf = readFileSync(file);
  rmSync(file);
  return buf;
}

/** The end-of-archive marker node-tar writes: two zero blocks. */
const EOA = 1024;

describe('a damaged archive is refused before anything in the target is touched (issue 34)', () => {
  const populatedUploads = join(root, 'p', 'uploads');
  let good: Buffer;
  let headers: ReturnType<typeof tarHeaders>;
  let state: { db: Fingerprint; files: Record<string, string> };

  beforeAll(async () => {
    // a populated target that differs from the archive (so a restore of it would show): the demo, renamed, with a newer file
    await withAdmin((c) => c.query(`create database ${populated} template ${source}`));
    const c = new Client({ connectionString: urlFor(populated) });
    await c.connect();
    await c.query(`update schools set name = name || ' (after the backup)'`);
    await c.end();
    mkdirSync(populatedUploads, { recursive: true });
    for (const [path] of Object.entries(files(sourceUploads))) {
      mkdirSync(join(populatedUploads, path, '..'), { recursive: true });
      copyFileSync(join(sourceUploads, path), join(populatedUploads, path));
    }
    writeFileSync(join(populatedUploads, 'after-the-backup.txt'), 'newer');
    state = { db: await fingerprint(populated), files: files(populatedUploads) };
    good = readFileSync(archive);
    headers = tarHeaders(good);
  }, 60_000);

  const header = (name: string) => headers.find((h) => h.name === name)!;
  const flip = (buf: Buffer, at: number) => {
    const out = Buffer.from(buf);
    for (let i = at; i < at + 8; i++) out[i] ^= 0xff;
    return out;
  };

  const cases: [string, () => Buffer, RegExp][] = [
    [
      'cut off at an entry boundary just before the first uploads/ entry',
      () => good.subarray(0, header('db.dump').end),
      /is damaged: it ends without the tar end-of-archive \(cut off after db\.dump\); it holds 0 of the (\d+) uploaded files its manifest lists/,
    ],
    [
      'with 8 bytes flipped inside an uploaded file',
      () => flip(good, header('uploads/avatars/2026/11/a.png').data + 1_000),
      /is damaged: uploads\/avatars\/2026\/11\/a\.png does not match its checksum/,
    ],
    [
      'cut off inside the header of an entry',
      () => good.subarray(0, header('uploads/avatars/2026/11/a.png').offset + 200),
      /is damaged: it ends without the tar end-of-archive \(cut off after uploads\/[^)]+\); it holds \d+ of the \d+ uploaded files its manifest lists/,
    ],
    [
      'cut off inside the data of an entry',
      () => good.subarray(0, header('uploads/avatars/2026/11/a.png').data + 150_000),
      /is damaged: it is cut off inside uploads\/avatars\/2026\/11\/a\.png/,
    ],
    [
      'with an extra file the manifest does not list',
      () => {
        mkdirSync(join(root, 'extra', 'uploads'), { recursive: true });
        writeFileSync(join(root, 'extra', 'uploads', 'extra.txt'), 'not backed up');
        return Buffer.concat([good.subarray(0, good.length - EOA), tarOf(join(root, 'extra'), ['uploads/extra.txt'])]);
      },
      /is damaged: (?:.*; )?uploads\/extra\.txt is not in its manifest/,
    ],
  ];

  it.each(cases)(
    'an archive %s: refused naming the problem, exit 1, the database and uploads left as they were',
    async (_, make, message) => {
      const damaged = join(root, 'damaged.tar');
      writeFileSync(damaged, make());
      const refused = await cli(['restore', damaged, '--force'], populated, populatedUploads);
      expect({ code: refused.code, stdout: refused.stdout }).toEqual({ code: 1, stdout: '' });
      expect(refused.stderr).toMatch(message);
      expect(refused.stderr).toMatch(/^the archive \S+damaged\.tar is damaged: .*: nothing was restored\n$/);
      const counted = message.exec(refused.stderr)![1];
      if (counted) expect(Number(counted)).toBe(manifest.uploads.files);
      expect({ db: await fingerprint(populated), files: files(populatedUploads) }).toEqual(state);
      expect(readdirSync(join(root, 'p'))).toEqual(['uploads']);
    },
    60_000,
  );

  it('an archive of format v1 (no checksums of its uploads) is still restored, checked by its counts; cut off, refused', async () => {
    // v1 as issue 25 wrote it: the same archive with the manifest of then (no entries)
    const { entries: _, ...rest } = manifest;
    mkdirSync(join(root, 'v1'));
    writeFileSync(join(root, 'v1', 'manifest.json'), JSON.stringify({ ...rest, version: 1 }));
    const v1 = Buffer.concat([tarOf(join(root, 'v1'), ['manifest.json']).subarray(0, -EOA), good.subarray(header('db.dump').offset)]);
    writeFileSync(join(root, 'v1.tar'), v1.subarray(0, tarHeaders(v1).find((h) => h.name === 'db.dump')!.end));
    const cut = await cli(['restore', join(root, 'v1.tar'), '--force'], populated, populatedUploads);
    expect({ code: cut.code, stdout: cut.stdout }).toEqual({ code: 1, stdout: '' });
    expect(cut.stderr).toContain(`it holds 0 of the ${manifest.uploads.files} uploaded files its manifest lists: nothing was restored`);
    expect({ db: await fingerprint(populated), files: files(populatedUploads) }).toEqual(state);

    writeFileSync(join(root, 'v1.tar'), v1);
    const done = await cli(['restore', join(root, 'v1.tar'), '--force'], populated, populatedUploads);
    expect({ code: done.code, stderr: done.stderr }).toEqual({ code: 0, stderr: '' });
    expect(done.stdout).toContain(
      'restore: the archive is of format v1: its uploaded files were checked by their count and bytes only (no checksums)',
    );
    expect(await fingerprint(populated)).toEqual(before);
    expect(files(populatedUploads)).toEqual(files(sourceUploads));
  }, 90_000);
});
