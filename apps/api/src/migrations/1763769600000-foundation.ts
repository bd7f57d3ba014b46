import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Schools, users, tokens, activity, SMS codes and outbox, site settings, files. */
export class Foundation1763769600000 implements MigrationInterface {
  name = 'Foundation1763769600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      create table schools (
        id serial primary key,
        name varchar(100) not null,
        timezone varchar(64) not null default 'Asia/Shanghai',
        service_expires_at timestamptz,
        balance_fen bigint not null default 0 check (balance_fen >= 0),
        contact_phone varchar(30),
        status smallint not null default 1 check (status in (0, 1)),
        version int not null default 1,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );

      create table users (
        id serial primary key,
        school_id int references schools(id),
        role smallint not null check (role in (1, 2, 5, 6, 9)),
        username varchar(64) not null,
        name varchar(64) not null,
        nickname varchar(64) not null,
        mobile varchar(20),
        email varchar(254),
        password_hash text,
        avatar_url text,
        lang varchar(8) not null default 'zh-CN',
        status smallint not null default 1 check (status in (0, 1)),
        failed_logins int not null default 0,
        locked_until timestamptz,
        last_login_at timestamptz,
        deleted_at timestamptz,
        version int not null default 1,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        constraint users_operator_has_no_school check ((role = 9) = (school_id is null))
      );
      create unique index users_username_key on users (lower(username));
      create unique index users_email_key on users (lower(email)) where email is not null;
      create unique index users_school_mobile_key on users (coalesce(school_id, 0), mobile) where mobile is not null and deleted_at is null;
      create index users_mobile_idx on users (mobile);
      create index users_school_role_idx on users (school_id, role);

      create table user_tokens (
        id bigserial primary key,
        user_id int not null references users(id),
        token_hash bytea not null unique,
        created_at timestamptz not null default now(),
        expires_at timestamptz not null,
        revoked_at timestamptz,
        ip varchar(64) not null default '',
        user_agent varchar(300) not null default ''
      );
      create index user_tokens_user_idx on user_tokens (user_id) where revoked_at is null;

      create table user_activity (
        id bigserial primary key,
        user_id int not null references users(id),
        school_id int references schools(id),
        action varchar(40) not null,
        detail jsonb not null default '{}',
        ip varchar(64) not null default '',
        user_agent varchar(300) not null default '',
        at timestamptz not null default now()
      );
      create index user_activity_user_at_idx on user_activity (user_id, at desc);

      create table sms_codes (
        id bigserial primary key,
        mobile varchar(20) not null,
        event varchar(20) not null,
        code_hash bytea,
        ip varchar(64) not null,
        attempts int not null default 0,
        created_at timestamptz not null default now(),
        expires_at timestamptz not null,
        used_at timestamptz
      );
      create index sms_codes_mobile_idx on sms_codes (mobile, created_at desc);
      create index sms_codes_ip_idx on sms_codes (ip, created_at desc);

      create table sms_outbox (
        id bigserial primary key,
        mobile varchar(20) not null,
        template varchar(40) not null,
        content text not null,
        params jsonb not null default '{}',
        created_at timestamptz not null default now()
      );
      create index sms_outbox_mobile_idx on sms_outbox (mobile, id desc);

      create table site_settings (
        key varchar(40) primary key,
        value jsonb not null,
        version int not null default 1,
        updated_by int references users(id),
        updated_at timestamptz not null default now()
      );

      create table files (
        id uuid primary key,
        school_id int references schools(id),
        user_id int not null references users(id),
        name varchar(255) not null,
        mime varchar(100) not null,
        size int not null,
        sha256 char(64) not null,
        storage_path varchar(300) not null,
        created_at timestamptz not null default now()
      );
      create index files_school_idx on files (school_id, created_at desc);
    `);
    await q.query(`insert into site_settings (key, value) values ('page_config', $1), ('about_us', $2)`, [
      JSON.stringify({
        site_name: '晚托管理平台',
        logo: null,
        nav: [
          { title: '首页', path: '/home' },
          { title: '资源下载', path: '/resource' },
          { title: '关于我们', path: '/about' },
        ],
        banners: [],
        footer: { text: '让每一个孩子的课后时光安全、有序、看得见。', icp: null },
        contact: { phone: null, email: null, address: null },
      }),
      JSON.stringify({ content: '<h2>关于我们</h2><p>我们为学校和晚托机构提供班级、接送、考勤、餐食与家校沟通的一体化管理。</p>' }),
    ]);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop table files, site_settings, sms_outbox, sms_codes, user_activity, user_tokens, users, schools`);
  }
}
