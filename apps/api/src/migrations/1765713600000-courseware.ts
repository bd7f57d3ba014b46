import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Courseware (issue 15): the catalogue, its purchase and its locked files.
 * - courseware_dicts: the six dictionaries of the catalogue (subject, discipline = school stage, grade, term, tixi =
 *   series, edition), kept by the operator, seeded here with a Chinese primary/middle-school set. Entries are never
 *   deleted (courseware points at them): they are switched off.
 * - coursewares: the platform's courseware (school_id null, published by the operator) or a school's own; price in
 *   fen; status 1 on sale, 0 withdrawn (schools that bought it keep it).
 * - courseware_sections: the publisher's sections (school_id null) and the sections a school adds to courseware it
 *   owns (school_id set: seen by that school only). Lesson plans (a later module) reference sections and files by id.
 * - courseware_files: a section's files, in order: a stored file (files.id, kept under UPLOAD_DIR/.courseware, which
 *   the public /uploads path never serves) with its page count for PDFs, or a video link.
 * - courseware_purchases: a school owns a courseware through a purchase that is `owned` (at most one per school and
 *   courseware: the partial unique index is what makes buying twice impossible) until a refund makes it `refunded`.
 * - files.pages: a PDF's page count, known when it is stored (`preview` answers it).
 * - courseware_sign_keys: the HMAC key of the signed, short-lived file URLs (one row, made here, shared by every
 *   process of the deployment).
 */
export class Courseware1765713600000 implements MigrationInterface {
  name = 'Courseware1765713600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      -- a PDF's page count (an image: 1), known when it is stored
      alter table files add column pages int;

      create table courseware_dicts (
        id serial primary key,
        kind varchar(12) not null check (kind in ('subject', 'discipline', 'grade', 'term', 'tixi', 'edition')),
        name varchar(30) not null,
        sort int not null default 0,
        active boolean not null default true,
        version int not null default 1,
        updated_by int references users(id),
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create unique index courseware_dicts_name_idx on courseware_dicts (kind, lower(name));

      create table coursewares (
        id serial primary key,
        school_id int references schools(id),
        title varchar(60) not null,
        subject_id int not null references courseware_dicts(id),
        discipline_id int references courseware_dicts(id),
        grade_id int references courseware_dicts(id),
        term_id int references courseware_dicts(id),
        tixi_id int references courseware_dicts(id),
        edition_id int references courseware_dicts(id),
        description text not null default '',
        price_fen bigint not null check (price_fen >= 0),
        status smallint not null default 1 check (status in (0, 1)),
        version int not null default 1,
        created_by int references users(id),
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      -- the catalogue: the platform's courseware on sale, newest first, by any dictionary (bitmap-ANDed when combined)
      create index coursewares_catalogue_idx on coursewares (id desc) where school_id is null and status = 1;
      create index coursewares_subject_idx on coursewares (subject_id, id desc) where status = 1;
      create index coursewares_discipline_idx on coursewares (discipline_id, id desc) where status = 1;
      create index coursewares_grade_idx on coursewares (grade_id, id desc) where status = 1;
      create index coursewares_term_idx on coursewares (term_id, id desc) where status = 1;
      create index coursewares_tixi_idx on coursewares (tixi_id, id desc) where status = 1;
      create index coursewares_edition_idx on coursewares (edition_id, id desc) where status = 1;
      create index coursewares_school_idx on coursewares (school_id, id desc) where school_id is not null;

      create table courseware_sections (
        id serial primary key,
        courseware_id int not null references coursewares(id),
        school_id int references schools(id),
        title varchar(60) not null,
        sort int not null default 0,
        version int not null default 1,
        created_by int references users(id),
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create index courseware_sections_idx on courseware_sections (courseware_id, sort, id);

      create table courseware_files (
        id serial primary key,
        section_id int not null references courseware_sections(id),
        kind varchar(8) not null check (kind in ('pdf', 'image', 'video', 'other')),
        file_id uuid references files(id),
        video_url varchar(500),
        name varchar(100) not null,
        pages int check (pages > 0),
        sort int not null default 0,
        created_at timestamptz not null default now(),
        check ((kind = 'video') = (video_url is not null)),
        check ((kind = 'video') = (file_id is null))
      );
      create index courseware_files_section_idx on courseware_files (section_id, sort, id);
      create index courseware_files_file_idx on courseware_files (file_id) where file_id is not null;

      create table courseware_purchases (
        id serial primary key,
        school_id int not null references schools(id),
        courseware_id int not null references coursewares(id),
        price_fen bigint not null check (price_fen >= 0),
        method varchar(8) not null check (method in ('balance', 'wechat')),
        out_trade_no varchar(64) not null unique,
        state varchar(10) not null default 'owned' check (state in ('owned', 'refunded')),
        bought_by int references users(id),
        created_at timestamptz not null default now(),
        refunded_at timestamptz
      );
      create unique index courseware_purchases_owned_idx on courseware_purchases (school_id, courseware_id) where state = 'owned';
      create index courseware_purchases_courseware_idx on courseware_purchases (courseware_id) where state = 'owned';

      create table courseware_sign_keys (
        id smallint primary key check (id = 1),
        key text not null,
        created_at timestamptz not null default now()
      );
      insert into courseware_sign_keys (id, key) values (1, replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''));
    `);

    const dicts: Array<[string, string[]]> = [
      ['subject', ['语文', '数学', '英语', '科学', '道德与法治', '物理', '化学', '生物', '历史', '地理', '信息科技', '美术', '音乐']],
      ['discipline', ['小学', '初中']],
      ['grade', ['一年级', '二年级', '三年级', '四年级', '五年级', '六年级', '七年级', '八年级', '九年级']],
      ['term', ['上学期', '下学期', '寒假', '暑假']],
      ['tixi', ['同步课堂', '专题精讲', '课后托管练习', '思维拓展', '阅读与写作']],
      ['edition', ['人教版', '部编版', '北师大版', '苏教版', '外研版', '沪教版']],
    ];
    const kinds = dicts.flatMap(([kind, names]) => names.map(() => kind));
    const names = dicts.flatMap(([, n]) => n);
    const sorts = dicts.flatMap(([, n]) => n.map((_, i) => (i + 1) * 10));
    await q.query(`insert into courseware_dicts (kind, name, sort) select * from unnest($1::text[], $2::text[], $3::int[])`, [kinds, names, sorts]);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      drop table courseware_sign_keys;
      drop table courseware_purchases;
      drop table courseware_files;
      drop table courseware_sections;
      drop table coursewares;
      drop table courseware_dicts;
      alter table files drop column pages;
    `);
  }
}
