import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Children's personal information (issue 37, design.md §5b3, docs/modules/privacy.md).
 * - `privacy_policies`: the privacy policy and the children's personal-information rules, versioned (a publish adds a
 *   version, none is rewritten); version 1 of each is written here.
 * - `privacy_consents`: every decision of a guardian for a child, appended (who, which child, which versions, granted
 *   or withdrawn, when, from where); `student_guardians` keeps the versions each guardian last accepted for each child,
 *   and `students.photo_consent` / `health_consent` the latest decision (null: nobody has been asked yet).
 * - `child_access_log`: who read or exported which child's data, appended; rows leave only by the retention job.
 * - `privacy_requests`: a guardian's correction and deletion requests, handled by the school's admin before `due_at`.
 * - `students.anonymised_at`: when the child's personal data was erased (a deletion request or the retention job).
 */
export class ChildrenPrivacy1767432000000 implements MigrationInterface {
  name = 'ChildrenPrivacy1767432000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      create table privacy_policies (
        id serial primary key,
        kind varchar(10) not null check (kind in ('privacy', 'children')),
        version int not null check (version > 0),
        title varchar(60) not null,
        body_zh text not null,
        body_en text not null default '',
        summary varchar(200) not null default '',
        published_by int references users(id),
        published_at timestamptz not null default now(),
        unique (kind, version)
      );

      alter table student_guardians
        add column privacy_version int,
        add column children_version int,
        add column consented_at timestamptz;

      alter table students
        add column photo_consent boolean,
        add column health_consent boolean,
        add column anonymised_at timestamptz;
      create index students_archived_idx on students (archived_at) where status = 0 and anonymised_at is null;

      create table privacy_consents (
        id bigserial primary key,
        school_id int not null references schools(id),
        user_id int not null references users(id),
        student_id int not null references students(id),
        kind varchar(10) not null check (kind in ('policies', 'photos', 'health')),
        granted boolean not null,
        privacy_version int,
        children_version int,
        ip varchar(64) not null default '',
        user_agent varchar(300) not null default '',
        created_at timestamptz not null default now(),
        check (kind <> 'policies' or not granted or (privacy_version is not null and children_version is not null))
      );
      create index privacy_consents_student_idx on privacy_consents (student_id, id desc);
      create index privacy_consents_user_idx on privacy_consents (user_id, id desc);

      create table child_access_log (
        id bigserial primary key,
        school_id int not null references schools(id),
        actor_id int not null references users(id),
        actor_role smallint not null,
        student_ids int[] not null check (cardinality(student_ids) > 0),
        what varchar(12)[] not null check (cardinality(what) > 0),
        action varchar(60) not null,
        ip varchar(64) not null default '',
        created_at timestamptz not null default now()
      );
      create index child_access_log_school_idx on child_access_log (school_id, created_at desc, id desc);
      create index child_access_log_students_idx on child_access_log using gin (student_ids);
      create index child_access_log_created_idx on child_access_log (created_at);

      create table privacy_requests (
        id serial primary key,
        school_id int not null references schools(id),
        student_id int not null references students(id),
        user_id int not null references users(id),
        kind varchar(12) not null check (kind in ('correction', 'deletion')),
        body varchar(500) not null default '',
        status varchar(10) not null default 'open' check (status in ('open', 'done', 'refused')),
        due_at timestamptz not null,
        handled_by int references users(id),
        handled_at timestamptz,
        result_note varchar(500) not null default '',
        version int not null default 1,
        created_at timestamptz not null default now()
      );
      create index privacy_requests_school_idx on privacy_requests (school_id, status, due_at);
      create index privacy_requests_student_idx on privacy_requests (student_id, id desc);
      create unique index privacy_requests_one_open on privacy_requests (student_id, kind) where status = 'open';

      -- appended only: consents and the access log are never rewritten; the access log loses rows only to the
      -- retention job, which says so in its transaction (set local wantuo.retention = 'on')
      create function privacy_append_only() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' and tg_table_name = 'child_access_log' and current_setting('wantuo.retention', true) = 'on' then
          return old;
        end if;
        raise exception '% is append-only', tg_table_name using errcode = 'P0001';
      end $$;
      create trigger privacy_consents_append_only before update or delete on privacy_consents
        for each row execute function privacy_append_only();
      create trigger child_access_log_append_only before update or delete on child_access_log
        for each row execute function privacy_append_only();
    `);
    await q.query(
      `insert into privacy_policies (kind, version, title, body_zh, body_en, summary) values
        ('privacy', 1, '隐私政策', $1, $2, '首次发布'),
        ('children', 1, '儿童个人信息保护规则', $3, $4, '首次发布')`,
      [PRIVACY_ZH, PRIVACY_EN, CHILDREN_ZH, CHILDREN_EN],
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      drop table privacy_requests, child_access_log, privacy_consents, privacy_policies;
      drop function privacy_append_only();
      alter table students drop column photo_consent, drop column health_consent, drop column anonymised_at;
      alter table student_guardians drop column privacy_version, drop column children_version, drop column consented_at;
    `);
  }
}

// The first versions. {{platform}} and {{school}} are filled in when a page is shown (packages/shared privacy.ts).
const PRIVACY_ZH = `# 隐私政策

{{platform}}（以下简称“平台”）为{{school}}（以下简称“学校”）提供课后托管管理服务。学校是您和孩子个人信息的处理者，平台受学校委托处理这些信息。

## 我们收集哪些信息
- 监护人：姓名、手机号、与孩子的关系；在微信中使用时，公众号的 openid。
- 孩子：姓名、性别、出生日期、就读学校与班级、托管班级、每天的到校、用餐、辅导与离园记录、作业、评语与成绩。
- 经您单独同意后：孩子的照片（日报、作业、评语中），孩子的健康备注（如过敏）。
- 接送人：姓名、关系、手机号。
- 缴费记录：金额、时间、支付方式与交易号。

## 为什么收集
用于托管服务本身：安全接送、告知您孩子在哪里、用餐与健康照护、学业反馈、收费与开具凭证。不用于广告，不出售，不向无关的第三方提供。

## 谁能看到
学校管理员可以查看本校全部信息；班主任查看本班孩子；老师只查看当天由其负责的孩子，监护人手机号默认隐藏，拨打时留痕。每一次查看孩子档案、监护人、接送人、健康备注、照片以及每一次导出都会被记录，您可以在“我的 → 隐私与数据”中查看孩子的访问记录。

## 保存多久
孩子离开学校后，其个人信息在保存期限（默认一学年）届满后匿名化；法律要求保存的缴费记录保留，但其中的孩子信息已匿名化。访问记录按平台设定的期限保存。

## 您的权利
您可以随时在“我的 → 隐私与数据”中：下载孩子的全部信息；申请更正；申请删除；撤回照片或健康备注的同意（立即生效）。删除申请由学校在规定时限内完成。

## 联系我们
如有疑问，请联系{{school}}，或平台运营方{{platform}}。`;

const PRIVACY_EN = `# Privacy policy

{{platform}} ("the platform") provides after-school-care management to {{school}} ("the school"). The school controls your and your child's personal information; the platform processes it on the school's behalf.

## What we collect
- Guardians: name, mobile, relation to the child; inside WeChat, the official account's openid.
- Children: name, gender, birthday, day school and class, care class, each day's arrival, dinner, tutoring and departure, homework, comments and scores.
- With your separate consent: photos of the child (in daily reports, homework, comments) and health notes (such as allergies).
- Pick-up people: name, relation, mobile.
- Payments: amount, time, method and transaction number.

## Why
For the care itself: safe pick-up, telling you where your child is, dinner and health care, learning feedback, fees and receipts. Never for advertising, never sold, never given to unrelated third parties.

## Who sees it
The school's admin sees the whole school; head teachers their classes; teachers only the children they are on duty for today, with guardians' mobiles hidden unless they call (which is recorded). Every read of a child's profile, guardians, pick-up people, health notes or photos and every export is recorded: see your child's access log under Me → Privacy and data.

## How long
After a child leaves the school their personal information is anonymised when the retention period (by default one school year) ends; payment records the law requires are kept with the child anonymised. The access log is kept for the period the platform sets.

## Your rights
At any time under Me → Privacy and data: download everything held about your child, ask for a correction, ask for deletion, withdraw the consent for photos or health notes (at once). The school completes deletion requests within the set time.

## Contact
Ask {{school}}, or the platform's operator {{platform}}.`;

const CHILDREN_ZH = `# 儿童个人信息保护规则

依据《中华人民共和国个人信息保护法》与《儿童个人信息网络保护规定》，不满十四周岁儿童的个人信息属于敏感个人信息。{{school}}与{{platform}}按本规则处理。

1. **监护人同意**：在您阅读并同意本规则和隐私政策之前，不向您展示、也不收集孩子的信息；规则更新后会再次征求您的同意。
2. **单独同意**：孩子的照片和健康备注需要您单独同意；未同意时，老师无法上传孩子的照片，健康备注不会被保存。您可以随时撤回，撤回立即生效，已保存的健康备注随即删除。
3. **最少够用**：工作人员只看到工作所需的信息：老师仅在当天负责孩子时看到完整的监护人手机号，其余情况下隐藏；拨打电话、导出信息均被记录。
4. **访问记录**：每一次查看、导出孩子的信息都会留下记录（谁、什么角色、哪个孩子、什么信息、何时、从哪里），记录只增不改。
5. **您的权利**：您可以下载、更正、删除孩子的信息。删除后，孩子的姓名、手机号、照片等从所有位置清除，法律要求保存的缴费记录保留但不再能识别孩子。
6. **保存期限**：孩子离开学校满保存期限后，其个人信息自动匿名化。
7. **专人负责**：学校指定管理员负责儿童个人信息保护，您可以通过学校联系方式与其联系。`;

const CHILDREN_EN = `# Children's personal information rules

Under the Personal Information Protection Law and the Provisions on the Online Protection of Children's Personal Information, all personal information of a child under 14 is sensitive. {{school}} and {{platform}} handle it by these rules.

1. **Guardian's consent**: until you have read and accepted these rules and the privacy policy, nothing about your child is shown to you or collected; when they change you are asked again.
2. **Separate consent**: photos of your child and health notes need their own consent; without it teachers cannot attach your child's photo and health notes are not stored. You can withdraw at any time, at once, and stored health notes are then erased.
3. **Least access**: staff see what their work needs: a teacher sees a guardian's full mobile only for the children they are on duty for today; calls and exports are recorded.
4. **Access log**: every read and export of your child's data is recorded (who, role, which child, what, when, from where), appended only.
5. **Your rights**: you can download, correct and delete your child's data. After deletion the child's name, mobiles and photos are gone everywhere; payment records the law requires are kept without identifying the child.
6. **Retention**: when a child has left the school for the retention period their personal information is anonymised by itself.
7. **A person in charge**: the school names an admin responsible for children's personal information; reach them through the school's contacts.`;
