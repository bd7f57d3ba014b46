import { addDays, generateSessions, mondayOf, toHHMM, type GeneratedSession, type PatternSlot } from '@wantuo/shared';
import type { ShowcaseContext } from './demo-showcase';
import { seedTypes } from '../modules/tutoring/tutoring-sql';
import { calendarOf, clashesOf } from '../modules/teaching/teaching-sql';

export interface DemoTeaching {
  teaching: { id: number; teacher_id: number; members: number[] };
  tutoring: { id: number; teacher_id: number; members: number[] };
  /** 少儿书法兴趣班's sessions held before today (id and day), in day order */
  held: Array<{ id: number; day: string }>;
  /** the next sessions from today of both classes, in day order */
  upcoming: Array<{ kind: 'teaching' | 'tutoring'; class_id: number; day: string }>;
  counts: { rooms: number; sessions: number; roll_calls: number };
}

/** The term of the demo's classes: from the Monday six weeks ago, eighteen weeks. */
const TERM_WEEKS_BEFORE = 6;
const TERM_WEEKS = 18;

/**
 * Rooms, two teaching classes (少儿书法兴趣班: Wednesday evening and Saturday morning; 英语绘本阅读班 of 阳光二班's children:
 * Saturday afternoon) and a tutoring class (三年级数学小组辅导:
 * Tuesday and Thursday evening, the 小组辅导 type's 60 minutes) over a term around today, with students of 阳光一班
 * (after their care time slot ends at 19:30, so no student clashes). The sessions come from the schedule generator
 * (school calendar applied) and are checked by the modules' clash check before they are written; the sessions before
 * today are held with a roll call each (mostly present, some late, a few absent).
 */
export async function seedDemoTeaching(c: ShowcaseContext): Promise<DemoTeaching> {
  const { em, schoolId, users } = c;
  const rooms: Array<{ id: number; name: string }> = await em.query(
    `insert into rooms (school_id, name, capacity) select $1, r.name, r.capacity from unnest($2::text[], $3::int[]) as r(name, capacity) returning id, name`,
    [schoolId, ['101 教室', '102 教室', '书法室', '小组辅导室'], [30, 24, 16, 8]],
  );
  const room = (name: string) => rooms.find((r) => r.name === name)!.id;
  const from = mondayOf(addDays(c.today, -7 * TERM_WEEKS_BEFORE));
  const to = addDays(from, 7 * TERM_WEEKS - 1);
  const calendar = await calendarOf(em, schoolId, from, to);

  // the parent's two children and the next ones of 阳光一班
  const kids = [...c.running].sort((a, b) => Number(b.parents_child) - Number(a.parents_child) || a.id - b.id);
  const teachingMembers = kids.slice(0, 6).map((s) => s.id);
  const tutoringMembers = [kids[0], ...kids.slice(2, 5)].map((s) => s.id);

  const pattern: PatternSlot[] = [
    { weekday: 3, start_time: '19:30', end_time: '20:30' },
    { weekday: 6, start_time: '09:30', end_time: '11:00' },
  ];
  const teachingGen = generateSessions({ pattern, from, to, calendar });
  const [tc]: Array<{ id: number }> = await em.query(
    `insert into teaching_classes (school_id, name, subject, teacher_id, room_id, capacity, sessions_count, fee_fen, created_by, created_at)
     values ($1, '少儿书法兴趣班', '书法', $2, $3, 12, $4, 96000, $5, $6) returning id`,
    [schoolId, users.teacher, room('书法室'), teachingGen.sessions.length, users.admin, c.at(addDays(from, -7), '10:00')],
  );
  await em.query(`insert into teaching_class_students (school_id, class_id, student_id, joined_at) select $1, $2, unnest($3::int[]), $4`, [
    schoolId,
    tc.id,
    teachingMembers,
    c.at(addDays(from, -6), '10:00'),
  ]);
  await writeSessions(c, 'teaching', tc.id, teachingGen.sessions, users.teacher, room('书法室'), teachingMembers, c.at(addDays(from, -7), '10:00'));

  // a second teaching class on Saturday afternoons, of 阳光二班's children, in another room
  const englishPattern: PatternSlot[] = [{ weekday: 6, start_time: '14:00', end_time: '15:30' }];
  const englishGen = generateSessions({ pattern: englishPattern, from, to, calendar });
  const englishMembers = c.second.slice(0, 5).map((s) => s.id);
  const [ec]: Array<{ id: number }> = await em.query(
    `insert into teaching_classes (school_id, name, subject, teacher_id, room_id, capacity, sessions_count, fee_fen, created_by, created_at)
     values ($1, '英语绘本阅读班', '英语', $2, $3, 10, $4, 72000, $5, $6) returning id`,
    [schoolId, users.liu, room('101 教室'), englishGen.sessions.length, users.admin, c.at(addDays(from, -7), '11:00')],
  );
  await em.query(`insert into teaching_class_students (school_id, class_id, student_id, joined_at) select $1, $2, unnest($3::int[]), $4`, [
    schoolId,
    ec.id,
    englishMembers,
    c.at(addDays(from, -6), '11:00'),
  ]);
  await writeSessions(c, 'teaching', ec.id, englishGen.sessions, users.liu, room('101 教室'), englishMembers, c.at(addDays(from, -7), '11:00'));

  // the tutoring types are the module's defaults (inserted as on the school's first read); the class takes its type's setting
  await seedTypes(em, schoolId);
  const [type]: Array<{ id: number; duration_min: number; price_fen: string }> = await em.query(
    `select id, duration_min, price_fen from tutoring_types where school_id = $1 and name = '小组辅导'`,
    [schoolId],
  );
  const start = 19 * 60 + 30;
  const tutoringPattern: PatternSlot[] = [2, 4].map((weekday) => ({
    weekday,
    start_time: toHHMM(start),
    end_time: toHHMM(start + type.duration_min),
  }));
  const tutoringGen = generateSessions({ pattern: tutoringPattern, from, to, calendar });
  const [uc]: Array<{ id: number }> = await em.query(
    `insert into tutoring_classes (school_id, type_id, name, teacher_id, room_id, capacity, duration_min, price_fen, pattern, from_day, to_day, remark, created_by, created_at)
     values ($1, $2, '三年级数学小组辅导', $3, $4, 6, $5, $6, $7::jsonb, $8, $9, '每周二、四晚，巩固当天数学作业中的难点', $10, $11) returning id`,
    [
      schoolId,
      type.id,
      users.zhao,
      room('小组辅导室'),
      type.duration_min,
      type.price_fen,
      JSON.stringify(tutoringPattern),
      from,
      to,
      users.admin,
      c.at(addDays(from, -7), '10:30'),
    ],
  );
  const plans = [
    '计算速度偏慢：每次先做 5 分钟口算',
    '应用题审题不仔细：圈出关键词再列式',
    '乘法口诀不熟：每周过一遍 7、8、9 的口诀',
    '基础扎实：多做拓展题',
  ];
  await em.query(
    `insert into tutoring_class_students (school_id, class_id, student_id, plan, added_by, joined_at)
     select $1, $2, m.student_id, m.plan, $4, $5 from unnest($3::int[], $6::text[]) as m(student_id, plan)`,
    [schoolId, uc.id, tutoringMembers, users.admin, c.at(addDays(from, -6), '10:30'), plans.slice(0, tutoringMembers.length)],
  );
  await writeSessions(c, 'tutoring', uc.id, tutoringGen.sessions, users.zhao, room('小组辅导室'), tutoringMembers, c.at(addDays(from, -7), '10:30'));

  // the past sessions were held: a roll call of each, taken by the session's teacher at its end
  const [rc]: Array<{ sessions: number; roll_calls: number }> = await em.query(
    `with past as (
       select s.id, s.kind, s.class_id, s.day, s.end_min, s.teacher_id from class_sessions s
        where s.school_id = $1 and s.day < $2::date and s.state = 'planned' and ((s.kind = 'teaching' and s.class_id in ($3, $6)) or (s.kind = 'tutoring' and s.class_id = $4))),
     h as (update class_sessions s set state = 'held', version = s.version + 1, updated_at = now() from past where s.id = past.id returning s.id),
     members as (
       select class_id, student_id, 'teaching' as kind from teaching_class_students where class_id in ($3, $6)
       union all select class_id, student_id, 'tutoring' from tutoring_class_students where class_id = $4),
     r as (
       insert into session_roll_calls (session_id, student_id, school_id, status, by_user, at)
       select p.id, m.student_id, $1,
              case (p.id * 7 + m.student_id * 13) % 17 when 0 then 'absent' when 1 then 'late' when 2 then 'late' else 'present' end,
              p.teacher_id, (p.day + make_interval(mins => p.end_min)) at time zone $5
         from past p join members m on m.kind = p.kind and m.class_id = p.class_id
       returning 1)
     select (select count(*)::int from h) as sessions, (select count(*)::int from r) as roll_calls`,
    [schoolId, c.today, tc.id, uc.id, c.timezone, ec.id],
  );

  const held: Array<{ id: number; day: string }> = await em.query(
    `select id, to_char(day, 'YYYY-MM-DD') as day from class_sessions where kind = 'teaching' and class_id = $1 and state = 'held' order by day, start_min`,
    [tc.id],
  );
  const upcoming: DemoTeaching['upcoming'] = [
    ...teachingGen.sessions
      .filter((s) => s.day >= c.today)
      .slice(0, 3)
      .map((s) => ({ kind: 'teaching' as const, class_id: tc.id, day: s.day })),
    ...tutoringGen.sessions
      .filter((s) => s.day >= c.today)
      .slice(0, 3)
      .map((s) => ({ kind: 'tutoring' as const, class_id: uc.id, day: s.day })),
  ].sort((a, b) => a.day.localeCompare(b.day));
  return {
    teaching: { id: tc.id, teacher_id: users.teacher, members: teachingMembers },
    tutoring: { id: uc.id, teacher_id: users.zhao, members: tutoringMembers },
    held,
    upcoming,
    counts: {
      rooms: rooms.length,
      sessions: teachingGen.sessions.length + englishGen.sessions.length + tutoringGen.sessions.length,
      roll_calls: rc.roll_calls,
    },
  };
}

/** Writes a class's generated sessions after the modules' clash check (teachers, rooms, the students' sessions and care slots). */
async function writeSessions(
  c: ShowcaseContext,
  kind: 'teaching' | 'tutoring',
  classId: number,
  sessions: GeneratedSession[],
  teacherId: number,
  roomId: number,
  studentIds: number[],
  createdAt: Date,
): Promise<void> {
  const clashes = await clashesOf(
    c.em,
    c.schoolId,
    sessions.map((s) => ({
      day: s.day,
      weekday: s.weekday,
      start: s.start,
      end: s.end,
      teacher_id: teacherId,
      room_id: roomId,
      student_ids: studentIds,
    })),
    { exceptSessions: [], ownClass: { kind, id: classId } },
  );
  if (clashes.length) throw new Error(`the demo's ${kind} class clashes: ${JSON.stringify(clashes[0])}`);
  await c.em.query(
    `insert into class_sessions (school_id, kind, class_id, day, start_min, end_min, teacher_id, room_id, created_by, created_at)
     select $1, $2, $3, unnest($4::date[]), unnest($5::int[]), unnest($6::int[]), $7, $8, $9, $10`,
    [
      c.schoolId,
      kind,
      classId,
      sessions.map((s) => s.day),
      sessions.map((s) => s.start),
      sessions.map((s) => s.end),
      teacherId,
      roomId,
      c.users.admin,
      createdAt,
    ],
  );
}
