import { readdirSync } from 'node:fs';
import type { Client } from 'pg';

/**
 * The fuzz test's view of its own database copy (installed by the test, never on a shared database):
 *
 * - "Nothing written by a refused request". Instead of hashing every table's content before and after (tens of ms a
 *   look here, thousands of looks a run), every table of the public schema gets a row trigger that notes the table in
 *   `fuzz.write_log` when a row is inserted, deleted or really changed (an UPDATE that leaves the row as it was is not
 *   noted), and a statement trigger for TRUNCATE. A write that is rolled back leaves no note. A look is `max(id)` of
 *   the log; a change names its tables. The upload directory (files on disk) is listed alongside.
 * - A snapshot of every table and sequence taken once the demo school and the test's sessions exist, put back before
 *   each route and caller (only the tables written since the last time): every batch starts from the same state, so a
 *   failure replays with FUZZ_ONLY / FUZZ_CASE, and a request that legitimately ends a session (logout, a password
 *   change, a teacher set to left-job) or deletes the demo's rows does not spoil the routes after it.
 *
 * Tables that a refused request writes by design are not checked, each with the reason; everything else a refused
 * request changes is a finding. (No table is written by every request: resolving a session only reads.)
 */
export const UNCHECKED_TABLES: Record<string, string> = {
  migrations: 'the schema history: written by migrations, never by a request',
  sms_codes:
    'the SMS quotas count every request for a code, refused ones too (SmsCodeService.issue counts a mobile without an account, then the action refuses it), and a wrong code counts a try (consume)',
};

export interface Mark {
  /** the log's last id */
  id: number;
  /** the upload directory's listing */
  files: string;
}

interface TableInfo {
  name: string;
  /** the columns an INSERT may set (generated ones left out) */
  columns: string[];
}

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

export class FuzzDatabase {
  private restoredUpTo = 0;

  private constructor(
    private readonly sql: Client,
    private readonly uploadDir: string,
    private readonly tables: Map<string, TableInfo>,
    private readonly sequences: Array<{ name: string; value: string; called: boolean }>,
  ) {}

  /** Installs the write log and its triggers, and snapshots every table and sequence. */
  static async install(sql: Client, uploadDir: string): Promise<FuzzDatabase> {
    const { rows } = await sql.query<{ table_name: string; columns: string[] }>(
      `select t.table_name, array_agg(c.column_name::text order by c.ordinal_position) filter (where c.is_generated = 'NEVER') as columns
         from information_schema.tables t join information_schema.columns c using (table_schema, table_name)
        where t.table_schema = 'public' and t.table_type = 'BASE TABLE' and t.table_name <> 'migrations'
        group by t.table_name order by t.table_name`,
    );
    const tables = new Map(rows.map((r) => [r.table_name, { name: r.table_name, columns: r.columns }]));
    await sql.query(`
      create schema fuzz;
      create schema fuzz_snapshot;
      create table fuzz.write_log (id bigserial primary key, table_name text not null, op text not null);
      create function fuzz.note_write() returns trigger language plpgsql as $$
      begin
        if tg_op = 'UPDATE' then
          if to_jsonb(old) = to_jsonb(new) then return null; end if;
        end if;
        insert into fuzz.write_log (table_name, op) values (tg_table_name, tg_op);
        return null;
      end $$;
      ${[...tables.keys()]
        .map(
          (t) => `create trigger fuzz_note_write after insert or update or delete on public.${q(t)} for each row execute function fuzz.note_write();
          create trigger fuzz_note_truncate after truncate on public.${q(t)} for each statement execute function fuzz.note_write();
          create table fuzz_snapshot.${q(t)} as select * from public.${q(t)};`,
        )
        .join('\n')}
    `);
    const { rows: seqs } = await sql.query<{ name: string }>(
      `select quote_ident(sequence_schema) || '.' || quote_ident(sequence_name) as name from information_schema.sequences where sequence_schema = 'public'`,
    );
    const sequences: Array<{ name: string; value: string; called: boolean }> = [];
    for (const s of seqs) {
      const { rows: v } = await sql.query<{ last_value: string; is_called: boolean }>(`select last_value, is_called from ${s.name}`);
      sequences.push({ name: s.name, value: v[0].last_value, called: v[0].is_called });
    }
    const db = new FuzzDatabase(sql, uploadDir, tables, sequences);
    db.restoredUpTo = (await db.mark()).id;
    return db;
  }

  async mark(): Promise<Mark> {
    const { rows } = await this.sql.query<{ id: string }>(`select coalesce(max(id), 0) as id from fuzz.write_log`);
    return { id: Number(rows[0].id), files: listFiles(this.uploadDir).join('\n') };
  }

  /** The checked tables written since a mark ("files under UPLOAD_DIR" for files), empty when nothing was. */
  async writtenSince(mark: Mark): Promise<string[]> {
    const now = await this.mark();
    const out: string[] = [];
    if (now.id !== mark.id) {
      const { rows } = await this.sql.query<{ w: string }>(
        `select table_name || ' (' || string_agg(distinct lower(op), '/') || ')' as w
           from fuzz.write_log where id > $1 and not (table_name = any($2)) group by table_name order by 1`,
        [mark.id, Object.keys(UNCHECKED_TABLES)],
      );
      out.push(...rows.map((r) => r.w));
    }
    if (now.files !== mark.files) out.push('files under UPLOAD_DIR');
    return out;
  }

  /** Puts back the snapshot of the tables written since the last restore, and every sequence; false when none was. */
  async restore(): Promise<boolean> {
    const { rows } = await this.sql.query<{ table_name: string; last: string }>(
      `select table_name, max(id) as last from fuzz.write_log where id > $1 group by table_name`,
      [this.restoredUpTo],
    );
    if (!rows.length) return false;
    const written = rows.map((r) => r.table_name);
    // replica: no foreign-key checks and no triggers (the log does not note the restore) while the rows go back
    const statements = ['begin', `set local session_replication_role = replica`];
    for (const name of written) {
      const t = this.tables.get(name);
      if (!t) continue;
      const cols = t.columns.map(q).join(', ');
      statements.push(
        `delete from public.${q(name)}`,
        `insert into public.${q(name)} (${cols}) overriding system value select ${cols} from fuzz_snapshot.${q(name)}`,
      );
    }
    statements.push(`select ${this.sequences.map((s) => `setval('${s.name}', ${s.value}, ${s.called})`).join(', ') || '1'}`, 'commit');
    await this.sql.query(statements.join(';\n'));
    this.restoredUpTo = Math.max(...rows.map((r) => Number(r.last)));
    return true;
  }
}

/** The upload directory's file names (stored under fresh random names: a new file is a new name). */
function listFiles(dir: string): string[] {
  try {
    return (readdirSync(dir, { recursive: true }) as string[]).sort();
  } catch {
    return [];
  }
}
