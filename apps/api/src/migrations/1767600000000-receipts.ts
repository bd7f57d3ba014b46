import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Receipts (收据, issue 40, docs/modules/receipts.md):
 * - receipts: one per paid contract, paid dinner booking and refund of those, issued once per source (`source`
 *   unique: `payment:<id>` a WeChat payment, `refund:<id>` its refund, `contract_event:<id>` a desk payment or desk
 *   refund of a contract). The row is the receipt's snapshot, written when it is issued (the school's name, its stamp
 *   file, the child's name, the item, the period, the amount, the method, the transaction number, the zone its times are
 *   shown in), so the PDF rendered from it is the same every time. A refund's receipt (红字) names the receipt it gives
 *   back (`original_receipt_id`). Append-only: a trigger refuses updates and deletes, except the erasure's UPDATE
 *   (history_append_only: the child's name replaced, amounts and numbers untouched).
 * - receipt_counters: the school's counter of each (school-local) year; a receipt number is `<year>-<counter>`, taken
 *   by one `insert … on conflict do update … returning` in the issuing transaction (never max()+1).
 * - schools.receipt_stamp_file_id / receipt_stamp_at: the stamp (印章) image new receipts carry.
 */
export class Receipts1767600000000 implements MigrationInterface {
  name = 'Receipts1767600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      alter table schools add column receipt_stamp_file_id uuid references files(id), add column receipt_stamp_at timestamptz;

      create table receipt_counters (
        school_id int not null references schools(id),
        year int not null check (year between 2000 and 9999),
        last int not null check (last > 0),
        primary key (school_id, year)
      );

      create table receipts (
        id serial primary key,
        school_id int not null references schools(id),
        receipt_no varchar(24) not null,
        kind varchar(10) not null check (kind in ('contract', 'meal', 'refund')),
        item_kind varchar(10) not null check (item_kind in ('contract', 'meal')),
        source varchar(40) not null unique,
        student_id int not null references students(id),
        payer_id int references users(id),
        contract_id int references contracts(id),
        booking_id int references meal_bookings(id),
        school_name varchar(100) not null,
        stamp_file_id uuid references files(id),
        student_name varchar(100) not null,
        item varchar(200) not null,
        period_start date,
        period_end date,
        amount_fen bigint not null check (amount_fen > 0),
        method varchar(10) not null check (method in ('wechat', 'cash', 'bank', 'external')),
        txn_no varchar(80) not null,
        paid_at timestamptz not null,
        timezone varchar(64) not null,
        original_receipt_id int references receipts(id),
        issued_at timestamptz not null default now(),
        unique (school_id, receipt_no),
        check ((kind = 'refund') = (original_receipt_id is not null)),
        check ((item_kind = 'contract') = (contract_id is not null)),
        check ((item_kind = 'meal') = (booking_id is not null))
      );
      create index receipts_school_issued_idx on receipts (school_id, issued_at desc, id desc);
      create index receipts_student_idx on receipts (student_id, issued_at desc, id desc);
      create index receipts_contract_idx on receipts (contract_id) where contract_id is not null;
      create index receipts_booking_idx on receipts (booking_id) where booking_id is not null;
      create index receipts_original_idx on receipts (original_receipt_id) where original_receipt_id is not null;
      create trigger receipts_append_only before update or delete on receipts
        for each statement execute function history_append_only();
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      drop trigger receipts_append_only on receipts;
      drop table receipts;
      drop table receipt_counters;
      alter table schools drop column receipt_stamp_at, drop column receipt_stamp_file_id;
    `);
  }
}
