import { addDays, instantOf, localDay, weekdayOf, type CalendarDay } from '@wantuo/shared';
import type { DataSource, EntityManager } from 'typeorm';
import { seedDemoCourseware } from './demo-courseware';
import { seedDemoLessons } from './demo-lessons';
import { seedDemoExams } from './demo-exams';
import { seedDemoHomework } from './demo-homework';
import { seedDemoMeals } from './demo-meals';
import { seedDemoNotices } from './demo-notices';
import { seedDemoPoints } from './demo-points';
import { seedDemoGoods } from './demo-goods';
import { seedDemoOrders } from './demo-orders';
import { calendarOf } from '../modules/teaching/teaching-sql';
import { seedDemoTeaching } from './demo-teaching';

/** What every module's showcase seed works with: the demo school, its people and its days. */
export interface ShowcaseContext {
  em: EntityManager;
  schoolId: number;
  timezone: string;
  /** the school's local day the seed runs on (YYYY-MM-DD) */
  today: string;
  users: { admin: number; teacher: number; adviser: number; parent: number; operator: number; liu: number; zhao: number };
  classes: { running: number; second: number };
  /** the active students of the running class 阳光一班, by id */
  running: ShowcaseStudent[];
  /** the active students of the second class 阳光二班, by id */
  second: ShowcaseStudent[];
  /** the school calendar (holidays, make-up days) around today */
  calendar: CalendarDay[];
  /** the instant of a school-local day and time HH:MM */
  at(day: string, time: string): Date;
  /** the school days (Monday to Friday, or a make-up day; never a holiday) from `from` to `to`, in order */
  schoolDays(from: string, to: string): string[];
}

export interface ShowcaseStudent {
  id: number;
  name: string;
  needs_dinner: boolean;
  /** the demo parent's children (陈小雨, 陈小阳) */
  parents_child: boolean;
}

export interface ShowcaseResult {
  ms: number;
  rooms: number;
  sessions: number;
  roll_calls: number;
  meal_bookings: number;
  exams: number;
  notices: number;
  homeworks: number;
  points_orders: number;
  store_orders: number;
  coursewares_owned: number;
  lesson_plans: number;
}

/** The calendar is read this far around today (the term of the teaching classes lies inside). */
const CALENDAR_SPAN = 200;

/**
 * The demo's showcase (issue 21): after seedDemo (with people and history), a fortnight of data in every module newer
 * than the daily flow, dated from the day it runs in the school's time zone, so a fresh `npm start` shows the whole
 * product: meal items and dinner bookings, rooms, a teaching and a tutoring class with a term of sessions and the roll
 * calls of the past ones, exams with published scores, notices with receipts, homework set and marked, points goods
 * with awards and exchanges, mall orders, bought courseware with lesson plans. Written with the modules' own rules
 * (the schedule generator and clash check, the notice publish statement, the homework and store state machines, the
 * meal day rule, the order pricing) and in one transaction; once per database (site_settings 'seed.showcase'): null
 * when it ran before or there is no demo school. `uploadDir` is where the demo courseware's files go (seeded first
 * when missing). Not part of seedDemo: the API tests and browser journeys start from the plain demo.
 */
export async function seedShowcase(db: DataSource, uploadDir: string): Promise<ShowcaseResult | null> {
  const started = Date.now();
  // the catalogue the school buys from (once per database; its files are written outside the transaction)
  await seedDemoCourseware(db, uploadDir);
  return db.transaction(async (em) => {
    const [demo]: Array<{ school_id: number; timezone: string }> = await em.query(
      `select u.school_id, s.timezone from users u join schools s on s.id = u.school_id where u.username = 'admin' and u.deleted_at is null`,
    );
    if (!demo) return null;
    const inserted: unknown[] = await em.query(
      `insert into site_settings (key, value) values ('seed.showcase', jsonb_build_object('at', now())) on conflict (key) do nothing returning key`,
    );
    if (!inserted.length) return null;
    const c = await contextOf(em, demo.school_id, demo.timezone);
    if (!c) return null;
    // the operator's catalogue: the demo goods, when the mall has none (a demo seeded without people)
    const [goods]: Array<{ n: number }> = await em.query(`select count(*)::int as n from store_goods where listed`);
    if (!goods.n) await seedDemoGoods(em, c.users.operator);

    const teaching = await seedDemoTeaching(c);
    const meal_bookings = await seedDemoMeals(c);
    const exams = await seedDemoExams(c);
    const notices = await seedDemoNotices(c);
    const homeworks = await seedDemoHomework(c, teaching);
    const points_orders = await seedDemoPoints(c);
    const store_orders = await seedDemoOrders(c);
    const lessons = await seedDemoLessons(c, teaching);
    return { ms: Date.now() - started, ...teaching.counts, meal_bookings, exams, notices, homeworks, points_orders, store_orders, ...lessons };
  });
}

async function contextOf(em: EntityManager, schoolId: number, timezone: string): Promise<ShowcaseContext | null> {
  const people: Array<{ username: string; id: number }> = await em.query(
    `select username, id from users where username = any($1::text[]) and deleted_at is null`,
    [['admin', 'teacher', 'adviser', 'parent', 'operator', 'demo_liu', 'demo_zhao']],
  );
  const u = new Map(people.map((p) => [p.username, p.id]));
  const classes: Array<{ name: string; id: number }> = await em.query(
    `select name, id from care_classes where school_id = $1 and name in ('阳光一班', '阳光二班') and deleted_at is null`,
    [schoolId],
  );
  const k = new Map(classes.map((x) => [x.name, x.id]));
  if (people.length < 7 || !k.get('阳光一班') || !k.get('阳光二班')) return null; // the demo without its people
  const students: Array<ShowcaseStudent & { class_id: number }> = await em.query(
    `select s.id, s.name, s.needs_dinner, ccs.class_id,
            exists (select 1 from student_guardians g where g.student_id = s.id and g.user_id = $2) as parents_child
       from care_class_students ccs join students s on s.id = ccs.student_id and s.status = 1
      where ccs.school_id = $1 order by s.id`,
    [schoolId, u.get('parent')],
  );
  const today = localDay(new Date(), timezone);
  const calendar = await calendarOf(em, schoolId, addDays(today, -CALENDAR_SPAN), addDays(today, CALENDAR_SPAN));
  const byDay = new Map(calendar.map((d) => [d.day, d]));
  const strip = ({ class_id: _, ...s }: ShowcaseStudent & { class_id: number }): ShowcaseStudent => s;
  return {
    em,
    schoolId,
    timezone,
    today,
    users: {
      admin: u.get('admin')!,
      teacher: u.get('teacher')!,
      adviser: u.get('adviser')!,
      parent: u.get('parent')!,
      operator: u.get('operator')!,
      liu: u.get('demo_liu')!,
      zhao: u.get('demo_zhao')!,
    },
    classes: { running: k.get('阳光一班')!, second: k.get('阳光二班')! },
    running: students.filter((s) => s.class_id === k.get('阳光一班')).map(strip),
    second: students.filter((s) => s.class_id === k.get('阳光二班')).map(strip),
    calendar,
    at: (day, time) => instantOf(day, time, timezone),
    schoolDays(from, to) {
      const days: string[] = [];
      for (let d = from; d <= to; d = addDays(d, 1)) {
        const c = byDay.get(d);
        if (c?.kind === 'holiday') continue;
        if (c?.kind === 'makeup' || weekdayOf(d) < 6) days.push(d);
      }
      return days;
    },
  };
}

/** A deterministic spread (0..n-1) of two numbers (an integer hash): the demo's "random", the same on every run. */
export function spread(a: number, b: number, n: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x632be5ab, 0xc2b2ae35);
  h ^= h >>> 13;
  h = Math.imul(h, 0x27d4eb2f);
  h ^= h >>> 16;
  return (h >>> 0) % n;
}
