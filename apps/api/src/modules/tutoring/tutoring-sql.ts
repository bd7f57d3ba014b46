import { DEFAULT_TUTORING_TYPES, findClashes, type Clash, type ProposedSession } from '@wantuo/shared';
import type { EntityManager } from 'typeorm';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { busyScope, loadBusy } from '../teaching/teaching-sql';

/** SQL and checks shared by the tutoring services. Sessions are class_sessions rows of kind 'tutoring'. */

type Db = Pick<EntityManager, 'query'>;

/** The caller's school (the role guard only lets the school's admin reach these actions). */
export const schoolOf = (user: SessionUser): number => user.schoolId ?? -1;

/**
 * The school's default tutoring types, inserted once: only while the school has none, and a concurrent first read
 * inserts nothing twice (the unique name index).
 */
export async function seedTypes(db: Db, schoolId: number): Promise<void> {
  await db.query(
    `insert into tutoring_types (school_id, name, sort, duration_min, price_fen)
     select $1, d.name, d.sort, d.duration_min, d.price_fen
       from unnest($2::text[], $3::int[], $4::int[]) with ordinality as d(name, duration_min, price_fen, sort)
      where not exists (select 1 from tutoring_types where school_id = $1)
     on conflict do nothing`,
    [
      schoolId,
      DEFAULT_TUTORING_TYPES.map((d) => d.name),
      DEFAULT_TUTORING_TYPES.map((d) => d.duration_min),
      DEFAULT_TUTORING_TYPES.map((d) => d.price_fen),
    ],
  );
}

/** A TutoringClass row (`c` tutoring_classes). */
export const CLASS_COLUMNS = `c.id, c.name, c.type_id, ty.name as type_name, c.teacher_id, u.name as teacher_name, c.room_id, r.name as room_name, c.capacity,
  (select count(*)::int from tutoring_class_students m where m.class_id = c.id) as students, c.duration_min::int as duration_min, c.price_fen::float8 as price_fen,
  c.pattern, to_char(c.from_day, 'YYYY-MM-DD') as "from", to_char(c.to_day, 'YYYY-MM-DD') as "to",
  (select count(*)::int from class_sessions s where s.kind = 'tutoring' and s.class_id = c.id and s.state <> 'cancelled') as sessions_scheduled,
  (select count(*)::int from class_sessions s where s.kind = 'tutoring' and s.class_id = c.id and s.state = 'held') as sessions_held,
  c.remark, c.status::int as status, c.version, c.created_at`;
export const CLASS_JOINS = `join tutoring_types ty on ty.id = c.type_id join users u on u.id = c.teacher_id left join rooms r on r.id = c.room_id`;

export interface LockedTutoringClass {
  id: number;
  name: string;
  teacher_id: number;
  room_id: number | null;
  capacity: number;
  status: number;
}

/** A tutoring class of the school (not deleted), locked for update when asked. */
export async function tutoringClassOf(db: Db, schoolId: number, id: number, lock = false): Promise<LockedTutoringClass> {
  const [c]: LockedTutoringClass[] = await db.query(
    `select id, name, teacher_id, room_id, capacity, status::int as status from tutoring_classes
      where school_id = $1 and id = $2 and deleted_at is null${lock ? ' for update' : ''}`,
    [schoolId, id],
  );
  if (!c) throw new AppError('tutoring.class_not_found');
  return c;
}

/** A working teacher (or head teacher) of the school. */
export async function checkTeacher(db: Db, schoolId: number, teacherId: number): Promise<void> {
  const [t]: unknown[] = await db.query(
    `select 1 from users where id = $1 and school_id = $2 and role in (2, 5) and job_status = 1 and deleted_at is null for share`,
    [teacherId, schoolId],
  );
  if (!t) throw new AppError('tutoring.teacher_invalid');
}

export async function checkRoom(db: Db, schoolId: number, roomId: number | null | undefined): Promise<void> {
  if (roomId === null || roomId === undefined) return;
  const [r]: unknown[] = await db.query(`select 1 from rooms where id = $1 and school_id = $2`, [roomId, schoolId]);
  if (!r) throw new AppError('tutoring.room_not_found');
}

/**
 * The clashes of proposed tutoring sessions: the teaching module's busy intervals (teachers' and rooms' sessions of
 * either kind, the students' teaching sessions and care time slots) plus the students' other tutoring sessions, checked
 * by the shared rule, with the names of who clashes and the tutoring classes' names on their sessions. Four to six
 * statements whatever the numbers.
 */
export async function tutoringClashes(
  db: Db,
  schoolId: number,
  proposed: ProposedSession[],
  opts: { exceptSessions: number[]; ownClass: number | null },
): Promise<Clash[]> {
  if (!proposed.length) return [];
  const range = busyScope(proposed);
  const busy = await loadBusy(db, schoolId, {
    ...range,
    exceptSessions: opts.exceptSessions,
    ownClass: opts.ownClass === null ? null : { kind: 'tutoring', id: opts.ownClass },
  });
  if (range.studentIds.length) {
    const theirs: Array<{ who: number; id: number; class_id: number; day: string; start_min: number; end_min: number }> = await db.query(
      `select m.student_id as who, s.id, s.class_id, to_char(s.day, 'YYYY-MM-DD') as day, s.start_min, s.end_min
         from tutoring_class_students m
         join tutoring_classes c on c.id = m.class_id and c.deleted_at is null
         join class_sessions s on s.kind = 'tutoring' and s.class_id = m.class_id and s.day between $2::date and $3::date and s.state <> 'cancelled'
        where m.student_id = any($4::int[]) and m.school_id = $1 and m.class_id <> $5 and s.id <> all($6::int[])`,
      [schoolId, range.from, range.to, range.studentIds, opts.ownClass ?? 0, opts.exceptSessions],
    );
    // once the teaching module counts tutoring members too, the same session is not listed twice
    const known = new Set(busy.filter((b) => b.kind === 'student' && b.ref.session_id).map((b) => `${b.who}:${b.ref.session_id}`));
    for (const s of theirs) {
      if (known.has(`${s.who}:${s.id}`)) continue;
      busy.push({
        kind: 'student',
        who: s.who,
        day: s.day,
        start: s.start_min,
        end: s.end_min,
        ref: { source: 'tutoring', session_id: s.id, class_id: s.class_id, label: 'tutoring' },
      });
    }
  }
  const clashes = findClashes(proposed, busy);
  if (!clashes.length) return clashes;
  return named(db, clashes);
}

/** Who clashes by name, and the tutoring sessions labelled with their class's name (one statement). */
async function named(db: Db, clashes: Clash[]): Promise<Clash[]> {
  const ids = (kind: Clash['kind']) => [...new Set(clashes.filter((c) => c.kind === kind).map((c) => c.who))];
  const tutoring = [...new Set(clashes.filter((c) => c.with.source === 'tutoring' && c.with.class_id).map((c) => c.with.class_id as number))];
  const names: Array<{ k: string; id: number; name: string }> = await db.query(
    `select 'teacher' as k, id, name from users where id = any($1::int[])
     union all select 'room', id, name from rooms where id = any($2::int[])
     union all select 'student', id, name from students where id = any($3::int[])
     union all select 'tutoring', id, name from tutoring_classes where id = any($4::int[])`,
    [ids('teacher'), ids('room'), ids('student'), tutoring],
  );
  const byKey = new Map(names.map((n) => [`${n.k}:${n.id}`, n.name]));
  return clashes.map((c) => ({
    ...c,
    who_name: byKey.get(`${c.kind}:${c.who}`) ?? String(c.who),
    with: c.with.source === 'tutoring' && c.with.class_id ? { ...c.with, label: byKey.get(`tutoring:${c.with.class_id}`) ?? c.with.label } : c.with,
  }));
}
