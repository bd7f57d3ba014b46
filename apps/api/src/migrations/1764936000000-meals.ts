import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The count contributions of a meal_bookings row `r`, times `sign`: booked, cancelled, unpaid, served, unbooked served. */
const CONTRIB = (r: string, sign: number) => `select ${r}.school_id, ${r}.day, coalesce(${r}.goods_id, 0),
  ${sign} * (${r}.status = 'booked')::int, ${sign} * (${r}.status = 'cancelled')::int, ${sign} * (${r}.status = 'unpaid')::int,
  ${sign} * (${r}.status = 'booked' and ${r}.served_at is not null)::int, ${sign} * (${r}.status <> 'booked' and ${r}.served_at is not null)::int`;

/**
 * Applies one statement's net change to meal_counts, grouped by (school, day, item), in key order; keys whose net
 * change is zero (a version bump, a payment reference) are not touched.
 */
const APPLY = (parts: string[]) => `
      insert into meal_counts as k (school_id, day, goods_id, booked, cancelled, unpaid, served, unbooked_served)
      select school_id, day, goods_id, sum(b)::int, sum(c)::int, sum(u)::int, sum(s)::int, sum(us)::int
        from (${parts.join(' union all ')}) x (school_id, day, goods_id, b, c, u, s, us)
       group by 1, 2, 3
      having sum(b) <> 0 or sum(c) <> 0 or sum(u) <> 0 or sum(s) <> 0 or sum(us) <> 0
       order by 1, 2, 3
      on conflict (school_id, day, goods_id) do update set booked = k.booked + excluded.booked, cancelled = k.cancelled + excluded.cancelled,
        unpaid = k.unpaid + excluded.unpaid, served = k.served + excluded.served, unbooked_served = k.unbooked_served + excluded.unbooked_served;`;

/**
 * Meals (issue 12):
 * - meal_goods: a school's meal items (name, picture, price, enabled); an item ever ordered is disabled, never deleted
 *   (delMealGoods hides one never ordered: deleted_at).
 * - meal_goods_prices: every price an item had, with who and why (append-only: a trigger refuses updates and deletes);
 *   bookings keep their own price_fen.
 * - meal_settings: a school's booking cutoff (time of day, the same day or the day before).
 * - meal_bookings: one row per student and day (unique): the item, its price at booking, who booked, where it is paid
 *   from, the status (unpaid until a guardian's WeChat payment, booked, cancelled, or 'none': a dinner served without a
 *   booking), why it was cancelled ('user' or 'leave' with the leave request: only those are restored when the leave is
 *   cancelled), and when dinner was served (the flow's dinner step). request_key makes a booking idempotent per school.
 * - meal_booking_events: the history of each booking (append-only).
 * - meal_counts: per school, day and item (0: no item) the bookings by status and the dinners served, kept by
 *   statement-level triggers in the booking's transaction; the counts read these rows, never the bookings.
 */
export class Meals1764936000000 implements MigrationInterface {
  name = 'Meals1764936000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      create table meal_goods (
        id serial primary key,
        school_id int not null references schools(id),
        name varchar(50) not null,
        description varchar(500),
        picture_url varchar(500),
        price_fen bigint not null check (price_fen > 0),
        enabled boolean not null default true,
        deleted_at timestamptz,
        version int not null default 1,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create unique index meal_goods_name_idx on meal_goods (school_id, lower(name)) where deleted_at is null;

      create table meal_goods_prices (
        id serial primary key,
        school_id int not null references schools(id),
        goods_id int not null references meal_goods(id),
        price_fen bigint not null check (price_fen > 0),
        reason varchar(200),
        actor_id int references users(id),
        at timestamptz not null default now()
      );
      create index meal_goods_prices_goods_idx on meal_goods_prices (goods_id, id);
      create function meal_history_append_only() returns trigger language plpgsql as $$
        begin raise exception '% is append-only', tg_table_name; end $$;
      create trigger meal_goods_prices_append_only before update or delete on meal_goods_prices
        for each statement execute function meal_history_append_only();

      create table meal_settings (
        school_id int primary key references schools(id),
        cutoff_time varchar(5) not null default '10:00' check (cutoff_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
        days_before smallint not null default 0 check (days_before in (0, 1)),
        version int not null default 1,
        updated_at timestamptz not null default now()
      );

      create table meal_bookings (
        id serial primary key,
        school_id int not null references schools(id),
        student_id int not null references students(id),
        day date not null,
        goods_id int references meal_goods(id),
        price_fen bigint not null default 0 check (price_fen >= 0),
        status varchar(10) not null check (status in ('unpaid', 'booked', 'cancelled', 'none')),
        cancel_cause varchar(10) check (cancel_cause in ('user', 'leave')),
        leave_id int,
        pay_from varchar(10) check (pay_from in ('contract', 'wechat', 'school')),
        contract_id int references contracts(id),
        out_trade_no varchar(64),
        booked_by int references users(id),
        booked_at timestamptz,
        cancelled_by int references users(id),
        cancelled_at timestamptz,
        served_at timestamptz,
        served_by int references users(id),
        request_key varchar(80),
        version int not null default 1,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        unique (student_id, day),
        unique (school_id, request_key),
        check ((status = 'none') = (goods_id is null)),
        check ((status = 'cancelled') = (cancel_cause is not null))
      );
      create index meal_bookings_school_day_idx on meal_bookings (school_id, day, goods_id);
      create index meal_bookings_goods_idx on meal_bookings (goods_id);
      create index meal_bookings_leave_idx on meal_bookings (leave_id) where cancel_cause = 'leave';

      create table meal_booking_events (
        id bigserial primary key,
        school_id int not null references schools(id),
        booking_id int not null references meal_bookings(id),
        type varchar(20) not null,
        data jsonb not null default '{}',
        actor_id int references users(id),
        at timestamptz not null default now()
      );
      create index meal_booking_events_booking_idx on meal_booking_events (booking_id, id);
      create trigger meal_booking_events_append_only before update or delete on meal_booking_events
        for each statement execute function meal_history_append_only();

      create table meal_counts (
        school_id int not null,
        day date not null,
        goods_id int not null,
        booked int not null default 0,
        cancelled int not null default 0,
        unpaid int not null default 0,
        served int not null default 0,
        unbooked_served int not null default 0,
        primary key (school_id, day, goods_id)
      );

      create function meal_counts_insert() returns trigger language plpgsql as $$
      begin${APPLY([CONTRIB('r', 1).replace(/\n/g, ' ') + ' from new_rows r'])}
        return null;
      end $$;
      create function meal_counts_update() returns trigger language plpgsql as $$
      begin${APPLY([CONTRIB('r', 1) + ' from new_rows r', CONTRIB('r', -1) + ' from old_rows r'])}
        return null;
      end $$;
      create function meal_counts_delete() returns trigger language plpgsql as $$
      begin${APPLY([CONTRIB('r', -1) + ' from old_rows r'])}
        return null;
      end $$;
      create trigger meal_counts_insert after insert on meal_bookings referencing new table as new_rows
        for each statement execute function meal_counts_insert();
      create trigger meal_counts_update after update on meal_bookings referencing old table as old_rows new table as new_rows
        for each statement execute function meal_counts_update();
      create trigger meal_counts_delete after delete on meal_bookings referencing old table as old_rows
        for each statement execute function meal_counts_delete();
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      drop table meal_booking_events;
      drop table meal_bookings;
      drop table meal_counts;
      drop function meal_counts_insert(), meal_counts_update(), meal_counts_delete();
      drop table meal_settings;
      drop table meal_goods_prices;
      drop table meal_goods;
      drop function meal_history_append_only();
    `);
  }
}
