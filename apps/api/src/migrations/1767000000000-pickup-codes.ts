import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Verified pick-up codes (接送码, issue 27 item 1): each school's Ed25519 key pair (the private key never leaves the
 * server; the public key goes to staff phones for offline checks), share links for pick-up people without an account
 * (only the token's hash is kept; revoked_at stops the person's codes at once), the codes used by a departure (one
 * departure per code: the code id is unique, written in the departure's transaction) and every attempt, refused or not.
 */
export class PickupCodes1767000000000 implements MigrationInterface {
  name = 'PickupCodes1767000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      create table pickup_keys (
        school_id int primary key references schools(id),
        public_key text not null,
        private_key text not null,
        created_at timestamptz not null default now()
      );
      create table pickup_links (
        id serial primary key,
        school_id int not null references schools(id),
        pickup_person_id int not null references pickup_people(id),
        token_hash text not null unique,
        created_by int not null references users(id),
        created_at timestamptz not null default now(),
        revoked_at timestamptz,
        last_used_at timestamptz
      );
      create index pickup_links_person_idx on pickup_links (pickup_person_id) where revoked_at is null;
      create table pickup_used_codes (
        code_id text primary key,
        school_id int not null references schools(id),
        person varchar(12) not null,
        student_ids int[] not null,
        event_id uuid not null,
        offline boolean not null,
        verified_at timestamptz not null,
        actor_id int not null references users(id),
        used_at timestamptz not null default now()
      );
      create table pickup_attempts (
        id bigserial primary key,
        school_id int not null references schools(id),
        code_id text,
        person varchar(12),
        student_ids int[] not null,
        actor_id int references users(id),
        result varchar(40) not null,
        offline boolean not null default false,
        at timestamptz not null default now()
      );
      create index pickup_attempts_school_idx on pickup_attempts (school_id, at desc);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop table pickup_attempts, pickup_used_codes, pickup_links, pickup_keys`);
  }
}
