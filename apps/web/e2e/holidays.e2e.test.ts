import { addDays, NATIONAL_HOLIDAYS, type HolidayYear } from '@wantuo/shared';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { choose, SHOTS, signedIn, startStack, type Stack } from './stack';

let stack: Stack;
/** the closed Monday and Tuesday two weeks ahead, and the make-up Saturday after them (running as a Tuesday) */
let mon: string, tue: string, sat: string, year: number;

/** The Monday of the week of a YYYY-MM-DD day. */
function mondayOf(day: string): string {
  const wd = new Date(`${day}T00:00:00Z`).getUTCDay();
  return addDays(day, -((wd + 6) % 7));
}

beforeAll(async () => {
  // the State Council's next arrangement as an operator loads it (NATIONAL_HOLIDAYS_FILE): the built-in year of two
  // weeks ahead with one more festival, so its closed days and make-up Saturday are still to come whatever the date
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date());
  mon = addDays(mondayOf(today), 14);
  [tue, sat] = [addDays(mon, 1), addDays(mon, 5)];
  year = Number(mon.slice(0, 4));
  const base: HolidayYear = NATIONAL_HOLIDAYS[year] ?? { year, notice: '测试通知〔旅程〕1号', issued: today, festivals: [] };
  const file = [{ ...base, festivals: [...base.festivals, { name: '旅程测试节', from: mon, to: tue, makeup: [{ day: sat, works_as: 2 }] }] }];
  const dir = mkdtempSync(join(tmpdir(), 'wantuo-holidays-e2e-'));
  writeFileSync(join(dir, 'holidays.json'), JSON.stringify(file));
  stack = await startStack({ NATIONAL_HOLIDAYS_FILE: join(dir, 'holidays.json') });
});
afterAll(async () => {
  await stack?.stop();
});

/**
 * Issue 27's calendar journey: the admin imports the national arrangement (a year with a make-up Saturday), sees first
 * which sessions, dinner bookings and day contracts it touches, confirms, and exactly those sessions and bookings are
 * cancelled; the closed days and the make-up Saturday (running as a Tuesday) are on the school's calendar.
 */
it('导入法定节假日: the preview names the sessions and bookings, the import does exactly that, the make-up Saturday runs as Tuesday', async () => {
  const [school] = await stack.sql<{ id: number }>(`select id from schools order by id limit 1`);
  const [teacher] = await stack.sql<{ id: number }>(`select id from users where username = 'teacher'`);
  const [cls] = await stack.sql<{ id: number }>(
    `insert into teaching_classes (school_id, name, subject, teacher_id, capacity, sessions_count) values ($1, '节假日演示班', '数学', $2, 10, 40) returning id`,
    [school.id, teacher.id],
  );
  const sessions = await stack.sql<{ id: number; day: string }>(
    `insert into class_sessions (school_id, kind, class_id, day, start_min, end_min, teacher_id, state)
     select $1, 'teaching', $2, d::date, 960, 1020, $3, 'planned' from unnest($4::text[]) d returning id, to_char(day, 'YYYY-MM-DD') as day`,
    [school.id, cls.id, teacher.id, [mon, tue, addDays(mon, 2)]],
  );
  const [kid] = await stack.sql<{ id: number }>(`select id from students where name = '陈小雨'`);
  const bookings = await stack.sql<{ id: number; day: string }>(
    `with g as (insert into meal_goods (school_id, name, price_fen) values ($1, '节前套餐', 1500) returning id)
     insert into meal_bookings (school_id, student_id, day, goods_id, price_fen, status, pay_from)
     select $1, $2, d::date, g.id, 1500, 'booked', 'school' from g, unnest($3::text[]) d returning id, to_char(day, 'YYYY-MM-DD') as day`,
    [school.id, kid.id, [tue, addDays(mon, 2)]],
  );

  const admin = await signedIn(stack, 'admin', 1280, 900, '/principal_class?tab=calendar');
  await admin.getByTestId('holiday-import').click();
  const select = admin.getByTestId('holiday-year');
  await select.waitFor();
  // what the preview lists, as the API answers it to the page
  const answered = admin.waitForResponse((r) => r.url().includes('/api/index/holidayImportPreview') && r.url().includes(`year=${year}`));
  await choose(admin, select, `${year}（配置文件）`, async () => (await admin.getByTestId('holiday-preview').count()) > 0);
  const shown = (await (await answered).json()) as {
    data: { sessions: Array<{ id: number; day: string }>; bookings: { list: Array<{ id: number }> } };
  };
  const preview = admin.getByTestId('holiday-preview');
  await preview.waitFor();
  await expect.poll(() => admin.getByTestId('holiday-sessions').innerText()).toContain('节假日演示班');
  await admin.screenshot({ path: join(SHOTS, 'holidays-preview.png') });
  const listedSessions = new Set(shown.data.sessions.filter((x) => x.day === mon || x.day === tue).map((x) => x.id));
  const listedBookings = new Set(shown.data.bookings.list.map((b) => b.id));
  expect(listedSessions.size).toBe(2);
  expect(listedBookings.size).toBeGreaterThan(0);

  await admin.getByTestId('holiday-import-confirm').click();
  await expect
    .poll(
      async () =>
        (await stack.sql<{ kind: string }>(`select kind from school_calendar_days where school_id = $1 and day = $2::date`, [school.id, sat]))[0]
          ?.kind,
    )
    .toBe('makeup');
  await admin.screenshot({ path: join(SHOTS, 'holidays-imported.png') });

  // the calendar: Monday and Tuesday closed, Saturday runs as Tuesday
  const days = await stack.sql<{ day: string; kind: string; works_as: number | null }>(
    `select to_char(day, 'YYYY-MM-DD') as day, kind, works_as from school_calendar_days where school_id = $1 and day = any($2::date[]) order by day`,
    [school.id, [mon, tue, sat]],
  );
  expect(days).toEqual([
    { day: mon, kind: 'holiday', works_as: null },
    { day: tue, kind: 'holiday', works_as: null },
    { day: sat, kind: 'makeup', works_as: 2 },
  ]);
  // exactly the sessions and bookings on the closed days were cancelled, as the preview listed them; Wednesday's stay
  const after = await stack.sql<{ id: number; state: string }>(`select id, state from class_sessions where id = any($1::int[]) order by id`, [
    sessions.map((s) => s.id),
  ]);
  for (const s of sessions) {
    const closed = s.day === mon || s.day === tue;
    expect(listedSessions.has(s.id)).toBe(closed);
    expect(after.find((a) => a.id === s.id)!.state === 'cancelled').toBe(closed);
  }
  const afterBookings = await stack.sql<{ id: number; status: string }>(`select id, status from meal_bookings where id = any($1::int[])`, [
    bookings.map((b) => b.id),
  ]);
  for (const b of bookings) {
    const closed = b.day === tue;
    expect(listedBookings.has(b.id)).toBe(closed);
    expect(afterBookings.find((a) => a.id === b.id)!.status === 'cancelled').toBe(closed);
  }
});
