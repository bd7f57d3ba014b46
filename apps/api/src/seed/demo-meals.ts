import { addDays, mealDayRefusal } from '@wantuo/shared';
import type { ShowcaseContext } from './demo-showcase';
import { spread } from './demo-showcase';
import { classDaysOf } from '../modules/meals/meals-sql';

/** The demo kitchen's dinners (price in fen). */
const ITEMS = [
  { name: '番茄炒蛋套餐', price_fen: 1500, description: '番茄炒蛋、清炒时蔬、米饭、紫菜蛋花汤' },
  { name: '红烧鸡腿饭', price_fen: 1800, description: '红烧鸡腿、蒜蓉西兰花、米饭、冬瓜汤' },
  { name: '肉末茄子套餐', price_fen: 1600, description: '肉末茄子、玉米炒胡萝卜、米饭、海带汤' },
  { name: '鲜虾蒸蛋套餐', price_fen: 2000, description: '鲜虾蒸蛋、香菇青菜、杂粮饭、番茄汤' },
  { name: '牛肉面', price_fen: 1700, description: '清汤牛肉面，配时令水果一份' },
];

/** Days before and after today the bookings cover: a fortnight around today. */
const PAST_DAYS = 7;
const COMING_DAYS = 7;

/**
 * Meal items with their first price, and the dinner bookings of a fortnight around today (the week before, today and
 * the week after) for every student of the demo's classes who has dinner, on the days their class meets (the meals
 * module's day rule, mealDayRefusal, with the school calendar). A contract with dinner covering the day pays, as
 * bookDinner decides; the other bookings were made by the school. Past days: served when the flow history has the
 * student's dinner (student_days.dinner_at, as the flow's dinner step marks it), else cancelled by the guardian (the
 * child stayed home). The demo parent booked their children's coming dinners: one without a contract waits for payment.
 */
export async function seedDemoMeals(c: ShowcaseContext): Promise<number> {
  const { em, schoolId, users } = c;
  const created = c.at(addDays(c.today, -30), '09:00');
  const goods: Array<{ id: number; price_fen: string }> = await em.query(
    `insert into meal_goods (school_id, name, description, price_fen, created_at, updated_at)
     select $1, g.name, g.description, g.price_fen, $5, $5 from unnest($2::text[], $3::text[], $4::bigint[]) with ordinality as g(name, description, price_fen, ord)
      order by g.ord returning id, price_fen`,
    [schoolId, ITEMS.map((i) => i.name), ITEMS.map((i) => i.description), ITEMS.map((i) => i.price_fen), created],
  );
  await em.query(
    `insert into meal_goods_prices (school_id, goods_id, price_fen, reason, actor_id, at) select $1, g.id, g.price_fen, '新增餐品', $2, $3 from meal_goods g where g.school_id = $1`,
    [schoolId, users.admin, created],
  );

  const rows = {
    student: [] as number[],
    day: [] as string[],
    goods: [] as number[],
    price: [] as number[],
    by: [] as number[],
    parent: [] as boolean[],
  };
  const from = addDays(c.today, -PAST_DAYS);
  const to = addDays(c.today, COMING_DAYS);
  for (const [list, booker] of [
    [c.running, users.adviser],
    [c.second, users.liu],
  ] as const) {
    for (const st of list) {
      if (!st.needs_dinner) continue;
      const days = await classDaysOf(em, schoolId, st.id, from, to);
      for (let d = from, i = 0; d <= to; d = addDays(d, 1), i++) {
        if (mealDayRefusal(d, days.weekdays, days.calendar.get(d) ?? null)) continue;
        const g = goods[spread(st.id, i, goods.length)];
        const byParent = st.parents_child && d > c.today;
        rows.student.push(st.id);
        rows.day.push(d);
        rows.goods.push(g.id);
        rows.price.push(Number(g.price_fen));
        rows.by.push(byParent ? users.parent : booker);
        rows.parent.push(byParent);
      }
    }
  }
  // one statement: the contract that pays each booking (as bookDinner picks it), its status and served time, the rows
  // and their history; meal_counts follow by the table's own triggers
  const [r]: Array<{ bookings: number }> = await em.query(
    `with w as (select * from unnest($2::int[], $3::date[], $4::int[], $5::bigint[], $6::int[], $7::boolean[]) as w(student_id, day, goods_id, price_fen, booked_by, by_parent)),
     x as (
       select w.*, k.id as contract_id, sd.dinner_at, sd.dinner_by,
              least(now(), ((w.day - case when w.by_parent then 2 else 1 end) + time '18:00') at time zone $8) as booked_at
         from w
         left join student_days sd on sd.student_id = w.student_id and sd.day = w.day
         left join lateral (
           select c.id from contracts c join contract_packages p on p.id = c.package_id
            where c.school_id = $1 and c.student_id = w.student_id and c.status = 'active' and 'dinner' = any(p.includes) and w.day between c.start_day and c.end_day
            order by c.start_day limit 1) k on true),
     y as (
       select x.*,
              case when x.contract_id is not null then 'contract' when x.by_parent then 'wechat' else 'school' end as pay_from,
              case when x.day < $9::date and x.dinner_at is null then 'cancelled'
                   when x.contract_id is null and x.by_parent then 'unpaid' else 'booked' end as status
         from x),
     b as (
       insert into meal_bookings (school_id, student_id, day, goods_id, price_fen, status, cancel_cause, pay_from, contract_id, booked_by, booked_at,
                                  cancelled_by, cancelled_at, served_at, served_by, request_key, version, created_at, updated_at)
       select $1, y.student_id, y.day, y.goods_id, y.price_fen, y.status, case when y.status = 'cancelled' then 'user' end, y.pay_from, y.contract_id,
              y.booked_by, y.booked_at,
              case when y.status = 'cancelled' then g.user_id end, case when y.status = 'cancelled' then (y.day + time '07:30') at time zone $8 end,
              case when y.status = 'booked' then y.dinner_at end, case when y.status = 'booked' then y.dinner_by end,
              'demo:' || y.student_id || ':' || y.day, case when y.status = 'cancelled' or y.dinner_at is not null then 2 else 1 end, y.booked_at, y.booked_at
         from y left join lateral (select sg.user_id from student_guardians sg where sg.student_id = y.student_id order by sg.is_primary desc, sg.user_id limit 1) g on true
       returning id, student_id, day, goods_id, price_fen, status, pay_from, booked_by, booked_at, cancelled_by, cancelled_at, served_at),
     e as (
       insert into meal_booking_events (school_id, booking_id, type, data, actor_id, at)
       select $1, b.id, 'booked', jsonb_build_object('goods_id', b.goods_id, 'goods_name', mg.name, 'price_fen', b.price_fen, 'pay_from', b.pay_from,
                                                     'status', case when b.status = 'unpaid' then 'unpaid' else 'booked' end), b.booked_by, b.booked_at
         from b join meal_goods mg on mg.id = b.goods_id
       union all select $1, b.id, 'cancelled', '{}'::jsonb, b.cancelled_by, b.cancelled_at from b where b.status = 'cancelled'
       union all select $1, b.id, 'served', '{}'::jsonb, null, b.served_at from b where b.served_at is not null
       returning 1)
     select (select count(*)::int from b) as bookings, (select count(*)::int from e) as events`,
    [schoolId, rows.student, rows.day, rows.goods, rows.price, rows.by, rows.parent, c.timezone, c.today],
  );
  return r.bookings;
}
