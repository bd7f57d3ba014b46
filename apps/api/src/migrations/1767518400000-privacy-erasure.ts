import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The erasure of a child's personal data (issue 37, docs/modules/privacy.md "Erasure"). The append-only histories stay
 * append-only, with one exception: a transaction that has said `set local wantuo.erasure = 'on'` (only the erasure
 * does) may UPDATE a row, to blank or anonymise its text; it may never delete one, and amounts, times and ids are not
 * in what it writes. One statement trigger function for the five histories that can hold a child's or a guardian's
 * free text (student_guardian_changes, points_ledger, contract_events, ledger_entries, meal_booking_events).
 */
export class PrivacyErasure1767518400000 implements MigrationInterface {
  name = 'PrivacyErasure1767518400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      create function history_append_only() returns trigger language plpgsql as $$
      begin
        if tg_op = 'UPDATE' and current_setting('wantuo.erasure', true) = 'on' then
          return null;
        end if;
        raise exception '% is append-only: % refused', tg_table_name, tg_op using errcode = 'insufficient_privilege';
      end $$;
    `);
    // the triggers as they were (names kept), now on the one function; the other users of the old functions keep them
    await q.query(`
      drop trigger student_guardian_changes_append_only on student_guardian_changes;
      create trigger student_guardian_changes_append_only before update or delete on student_guardian_changes
        for each statement execute function history_append_only();
      drop trigger points_ledger_append_only on points_ledger;
      create trigger points_ledger_append_only before update or delete on points_ledger
        for each statement execute function history_append_only();
      drop trigger contract_events_no_update on contract_events;
      create trigger contract_events_no_update before update or delete on contract_events
        for each statement execute function history_append_only();
      drop trigger ledger_entries_no_update on ledger_entries;
      create trigger ledger_entries_no_update before update or delete on ledger_entries
        for each statement execute function history_append_only();
      drop trigger meal_booking_events_append_only on meal_booking_events;
      create trigger meal_booking_events_append_only before update or delete on meal_booking_events
        for each statement execute function history_append_only();
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      drop trigger student_guardian_changes_append_only on student_guardian_changes;
      create trigger student_guardian_changes_append_only before update or delete on student_guardian_changes
        for each statement execute function student_guardian_changes_append_only();
      drop trigger points_ledger_append_only on points_ledger;
      create trigger points_ledger_append_only before update or delete on points_ledger
        for each statement execute function points_append_only();
      drop trigger contract_events_no_update on contract_events;
      create trigger contract_events_no_update before update or delete on contract_events
        for each statement execute function contract_events_append_only();
      drop trigger ledger_entries_no_update on ledger_entries;
      create trigger ledger_entries_no_update before update or delete on ledger_entries
        for each statement execute function ledger_entries_append_only();
      drop trigger meal_booking_events_append_only on meal_booking_events;
      create trigger meal_booking_events_append_only before update or delete on meal_booking_events
        for each statement execute function meal_history_append_only();
      drop function history_append_only();
    `);
  }
}
