import { departureWho, EMPTY_DAY, evolve, type DayState, type DeparturePayload, type FlowPayload } from '@wantuo/shared';
import type { DataSource, EntityManager } from 'typeorm';
import type { Queryable } from '../../core/database/sql-kit';
import { EVENT_COLUMNS, toFlowEvent } from '../flow/flow-store';

/** A (student, school day) of the projection daily_reports. */
export interface DayKey {
  student_id: number;
  day: string;
}

/** An instant as JSON carries it, whatever the session's time zone (UTC, milliseconds, Z). */
export const iso = (expr: string) => `to_char(${expr} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The instants a school day `day` (a date expression) of zone `tz` starts and ends. */
const dayStart = (day: string, tz: string) => `(${day}::timestamp at time zone ${tz})`;
const dayEnd = (day: string, tz: string) => `((${day} + 1)::timestamp at time zone ${tz})`;

/**
 * The homework open on a day (set on or before it, due on or after it) of a student, as the report's JSON list: done
 * (handed in or checked), marked (checked), the teacher's note, the guardian's note, the photos of that day's history
 * entries (the teacher's or the guardian's). Homework marking emits no domain event: the report reads this live.
 */
export const HOMEWORK_OF = (student: string, day: string, tz: string) => `coalesce((
  select jsonb_agg(jsonb_build_object('homework_id', h.id, 'title', h.title, 'due_day', to_char(h.due_day, 'YYYY-MM-DD'),
           'class_name', coalesce(case when h.kind = 'care' then (select cc.name from care_classes cc where cc.id = h.class_id)
                                       else (select tc.name from teaching_classes tc where tc.id = h.class_id) end, ''),
           'state', hs.state, 'done', hs.state <> 'todo', 'marked', hs.state = 'checked', 'note', hs.note, 'home_note', hs.home_note,
           'photos', coalesce((select jsonb_agg(distinct e.photo_url) from homework_events e
                                where e.homework_id = h.id and e.student_id = hs.student_id and e.photo_url is not null
                                  and e.at >= ${dayStart(day, tz)} and e.at < ${dayEnd(day, tz)}), '[]'::jsonb))
         order by h.due_day, h.id)
    from homework_submissions hs join homeworks h on h.id = hs.homework_id
   where hs.student_id = ${student} and h.set_day <= ${day} and h.due_day >= ${day}), '[]'::jsonb)`;

/** The points awarded or deducted on a day (the exchanges and refunds of the mall are not "earned"). Read live, like the homework. */
const LEDGER_OF_DAY = (student: string, day: string, tz: string) => `from points_ledger l
   where l.student_id = ${student} and l.kind in ('award', 'deduct') and l.created_at >= ${dayStart(day, tz)} and l.created_at < ${dayEnd(day, tz)}`;
export const POINTS_OF = (student: string, day: string, tz: string) => `(select coalesce(sum(l.delta), 0)::int ${LEDGER_OF_DAY(student, day, tz)})`;
export const POINTS_ENTRIES_OF = (student: string, day: string, tz: string) =>
  `(select coalesce(jsonb_agg(jsonb_build_object('delta', l.delta, 'reason', l.reason, 'at', ${iso('l.created_at')}) order by l.id), '[]'::jsonb) ${LEDGER_OF_DAY(student, day, tz)})`;

/** The teacher's comment of a day as the report's JSON (null: none). Saving a comment refreshes the row in its transaction. */
const COMMENT_OF = (student: string, day: string) => `(
  select jsonb_build_object('presets', to_jsonb(c.presets), 'text', c.text, 'photos', c.photos, 'author_name', u.name,
                            'at', ${iso('c.updated_at')}, 'version', c.version)
    from daily_comments c join users u on u.id = c.author_id where c.student_id = ${student} and c.day = ${day})`;

/** The columns the refresh writes (everything but sent_at, the time the report's message went out). */
const WRITTEN = [
  'class_id',
  'state',
  'on_leave',
  'picked_up_at',
  'arrived_at',
  'arrived_by',
  'dinner_at',
  'tutor_started_at',
  'tutor_ended_at',
  'left_at',
  'left_by',
  'pickup',
  'comment',
  'last_position',
] as const;

/** One statement: the rows of the keys from the folded flow parts ($1, JSON) and the day's facts read here. */
const UPSERT_SQL = `insert into daily_reports (student_id, day, school_id, ${WRITTEN.join(', ')}, updated_at)
  select f.student_id, f.day, st.school_id,
         coalesce(f.class_id, (select min(ccs.class_id) from care_class_students ccs where ccs.student_id = f.student_id)),
         f.state, coalesce(f.on_leave, false), f.picked_up_at, f.arrived_at, f.arrived_by, f.dinner_at, f.tutor_started_at, f.tutor_ended_at,
         f.left_at, f.left_by, f.pickup, ${COMMENT_OF('f.student_id', 'f.day')}, f.last_position, now()
    from jsonb_to_recordset($1::jsonb) as f(student_id int, day date, class_id int, state text, on_leave bool, picked_up_at timestamptz,
           arrived_at timestamptz, arrived_by int, dinner_at timestamptz, tutor_started_at timestamptz, tutor_ended_at timestamptz,
           left_at timestamptz, left_by int, pickup jsonb, last_position bigint)
    join students st on st.id = f.student_id
   where f.last_position is not null or exists (select 1 from daily_comments c where c.student_id = f.student_id and c.day = f.day)
  on conflict (student_id, day) do update set ${WRITTEN.map((c) => `${c} = excluded.${c}`).join(', ')}, updated_at = now()
   -- never backwards: a refresh that read the day before a later event (another process's) does not overwrite the newer row
   where daily_reports.last_position is null or excluded.last_position is null or daily_reports.last_position <= excluded.last_position`;

type EventRow = Parameters<typeof toFlowEvent>[0] & { student_id: number; day: string; class_id: number | null; position: string };

/**
 * Recomputes the daily_reports rows of these student-days, set-based: one read of their flow events (folded by the flow's
 * own state machine, so a voided step is gone), one read of the departures' pick-up people, one upsert that also reads
 * the day's comment. A key with neither events nor a comment loses its row. With `lock` (the live
 * path, inside the caller's transaction) the keys are locked first, so two refreshes of a day cannot write out of order.
 */
export async function refreshReports(em: Queryable, keys: readonly DayKey[], opts: { lock?: boolean } = {}): Promise<number> {
  const uniq = [...new Map(keys.map((k) => [`${k.student_id}:${k.day}`, k])).values()].sort(
    (a, b) => a.student_id - b.student_id || a.day.localeCompare(b.day),
  );
  if (!uniq.length) return 0;
  const students = uniq.map((k) => k.student_id);
  const days = uniq.map((k) => k.day);
  if (opts.lock) {
    await em.query(
      `select pg_advisory_xact_lock(hashtext('daily_report'), hashtext(k.student_id || ':' || k.day))
         from unnest($1::int[], $2::date[]) with ordinality as k(student_id, day, n) order by n`,
      [students, days],
    );
  }
  const events: EventRow[] = await em.query(
    `select ${EVENT_COLUMNS}, e.student_id, to_char(e.day, 'YYYY-MM-DD') as day, e.class_id, e.global_position::text as position
       from flow_events e join unnest($1::int[], $2::date[]) as k(student_id, day) on e.student_id = k.student_id and e.day = k.day
      order by e.student_id, e.day, e.version`,
    [students, days],
  );
  const folded = new Map<string, { state: DayState; class_id: number | null; position: string; payloads: Map<string, FlowPayload> }>();
  for (const row of events) {
    const key = `${row.student_id}:${row.day}`;
    const cur = folded.get(key) ?? { state: EMPTY_DAY, class_id: null, position: '0', payloads: new Map() };
    cur.state = evolve(cur.state, toFlowEvent(row));
    cur.class_id = row.class_id ?? cur.class_id;
    cur.position = row.position;
    cur.payloads.set(row.event_id, row.payload);
    folded.set(key, cur);
  }
  const departures = [...folded.values()].map((f) => (f.state.steps.left ? (f.payloads.get(f.state.steps.left.event_id) ?? {}) : null));
  const pickupIds = [...new Set(departures.map((p) => p?.picked_up_by).filter((id): id is number => typeof id === 'number'))];
  const pickups = new Map<number, { name: string; relation: string }>(
    pickupIds.length
      ? (
          (await em.query(`select id, name, relation from pickup_people where id = any($1::int[])`, [pickupIds])) as Array<{
            id: number;
            name: string;
            relation: string;
          }>
        ).map((p) => [p.id, p])
      : [],
  );
  const rows = uniq.map((k) => {
    const f = folded.get(`${k.student_id}:${k.day}`);
    if (!f) return { student_id: k.student_id, day: k.day, last_position: null };
    const s = f.state.steps;
    const left = s.left ? ((f.payloads.get(s.left.event_id) ?? {}) as DeparturePayload) : null;
    const pickup = left ? departureWho(left, typeof left.picked_up_by === 'number' ? (pickups.get(left.picked_up_by) ?? null) : null) : null;
    return {
      student_id: k.student_id,
      day: k.day,
      class_id: f.class_id,
      state: f.state.state,
      on_leave: f.state.on_leave,
      picked_up_at: s.picked_up?.at ?? null,
      arrived_at: s.entered?.at ?? null,
      arrived_by: s.entered?.by ?? null,
      dinner_at: s.dinner?.at ?? null,
      tutor_started_at: s.tutor_started?.at ?? null,
      tutor_ended_at: s.tutor_ended?.at ?? null,
      left_at: s.left?.at ?? null,
      left_by: s.left?.by ?? null,
      pickup,
      last_position: f.position,
    };
  });
  await em.query(
    `delete from daily_reports r using unnest($1::int[], $2::date[]) as k(student_id, day)
      where r.student_id = k.student_id and r.day = k.day
        and not exists (select 1 from flow_events e where e.student_id = k.student_id and e.day = k.day)
        and not exists (select 1 from daily_comments c where c.student_id = k.student_id and c.day = k.day)`,
    [students, days],
  );
  await em.query(UPSERT_SQL, [JSON.stringify(rows)]);
  return rows.length;
}

/** Keys per refresh of a rebuild. */
const REBUILD_BATCH = 1_000;

/**
 * `reports:rebuild`: recomputes every daily_reports row (one school or all) from flow_events and the comments, in keyset batches through the live path's own refreshReports, and drops rows no event or comment backs.
 * One transaction that holds off flow appends and comment saves meanwhile (share locks), so the result is the live
 * projection of that moment. `sent_at` (when the report's message went out) is kept: it is a fact, not derived.
 */
export async function rebuildReports(db: DataSource, opts: { schoolId?: number } = {}): Promise<{ days: number }> {
  return db.transaction((em) => rebuildReportsIn(em, opts));
}

export async function rebuildReportsIn(em: EntityManager, opts: { schoolId?: number } = {}): Promise<{ days: number }> {
  await em.query(`lock table flow_events, daily_comments in share mode`);
  const school = opts.schoolId ?? null;
  await em.query(
    `delete from daily_reports r where ($1::int is null or r.school_id = $1)
        and not exists (select 1 from flow_events e where e.student_id = r.student_id and e.day = r.day)
        and not exists (select 1 from daily_comments c where c.student_id = r.student_id and c.day = r.day)`,
    [school],
  );
  let days = 0;
  let after: [number, string] = [0, '0001-01-01'];
  const keyOf = (k: DayKey) => [k.student_id, k.day] as const;
  const before = (a: DayKey, b: DayKey) => a.student_id < b.student_id || (a.student_id === b.student_id && a.day < b.day);
  for (;;) {
    // the next keys of each source in index order (distinct on the primary keys' prefix stops at the limit)
    const next = (table: string): Promise<DayKey[]> =>
      em.query(
        `select distinct on (x.student_id, x.day) x.student_id, to_char(x.day, 'YYYY-MM-DD') as day from ${table} x
          where ($1::int is null or x.school_id = $1) and (x.student_id, x.day) > ($2::int, $3::date)
          order by x.student_id, x.day limit ${REBUILD_BATCH}`,
        [school, ...after],
      );
    const [fromEvents, fromComments] = [await next('flow_events'), await next('daily_comments')];
    // only keys up to the smaller last key of a full list are complete in both
    const full = [fromEvents, fromComments].filter((l) => l.length === REBUILD_BATCH).map((l) => l[l.length - 1]);
    const bound = full.reduce<DayKey | null>((m, k) => (!m || before(k, m) ? k : m), null);
    const merged = [...new Map([...fromEvents, ...fromComments].map((k) => [`${k.student_id}:${k.day}`, k])).values()]
      .filter((k) => !bound || !before(bound, k))
      .sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
    if (!merged.length) break;
    days += await refreshReports(em, merged);
    const last = merged[merged.length - 1];
    after = [...keyOf(last)];
    if (!full.length) break;
  }
  return { days };
}
