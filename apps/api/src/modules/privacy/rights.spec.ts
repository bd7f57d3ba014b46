import { anonymisedName, Code, LeaveStatus } from '@wantuo/shared';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import JSZip from 'jszip';
import { Workbook } from 'exceljs';
import { dirname, join } from 'node:path';
import { DataSource } from 'typeorm';
import { ErasureService } from './erasure.service';
import { DEMO_PASSWORD, seedShowcase, startTestApp, type TestApp } from '../../../test/harness';

/**
 * The guardians' rights (issue 37). The download: exactly one child's data, readable, with its photos. The erasure: a completed deletion request and the retention job leave none of the child's personal data
 * in any text, json or array column of any table, nor its photos on disk; money and the records' counts are unchanged.
 * The demo with its four weeks of history and the showcase (every module's data) is what is erased, with free text
 * written the way each module stores it.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ runJobs: false, demoPeople: true, demoHistory: true });
  await seedShowcase(t.app.get(DataSource), t.config.uploadDir);
});
afterAll(() => t.close());

/** Tables left out of the scan, and why. */
const NOT_SCANNED = new Set([
  // the providers' side (the local WeChat and WeChat Pay sandboxes): not our records
  'wechat_sandbox_users',
  'wechat_sandbox_messages',
  'wechat_sandbox_codes',
  'wechat_sandbox_tokens',
  'wechatpay_sandbox_orders',
  'wechatpay_sandbox_refunds',
  'wechatpay_sandbox_sub_merchants',
  'migrations',
]);

/** Every text, json and array column of every table in which `needle` occurs: `table.column`. */
async function whereFound(needle: string): Promise<string[]> {
  const { rows: cols } = await t.sql.query<{ table_name: string; column_name: string }>(
    `select c.table_name, c.column_name from information_schema.columns c join information_schema.tables tb
         on tb.table_name = c.table_name and tb.table_schema = c.table_schema and tb.table_type = 'BASE TABLE'
      where c.table_schema = 'public' and c.data_type in ('text', 'character varying', 'character', 'jsonb', 'json', 'ARRAY')`,
  );
  const found: string[] = [];
  for (const c of cols) {
    if (NOT_SCANNED.has(c.table_name)) continue;
    const { rows } = await t.sql.query(`select 1 from "${c.table_name}" where "${c.column_name}"::text like $1 limit 1`, [`%${needle}%`]);
    if (rows.length) found.push(`${c.table_name}.${c.column_name}`);
  }
  return found;
}

/** The money and the records' counts, which an erasure never changes. */
async function ledger() {
  const { rows } = await t.sql.query(
    `select (select coalesce(sum(amount_fen), 0)::text from payments) as payments,
            (select coalesce(sum(refunded_fen), 0)::text from payments) as refunded,
            (select coalesce(sum(amount_fen), 0)::text from ledger_entries) as ledger,
            (select coalesce(sum(balance), 0)::text from points_accounts) as points,
            (select coalesce(sum(delta), 0)::text from points_ledger) as points_moves,
            (select count(*)::int from flow_events) as flow_events,
            (select count(*)::int from contracts) as contracts,
            (select count(*)::int from meal_bookings) as meal_bookings,
            (select count(*)::int from exam_scores) as exam_scores,
            (select count(*)::int from receipts) as receipts,
            (select coalesce(sum(amount_fen), 0)::text from receipts) as receipted,
            (select string_agg(receipt_no, ',' order by id) from receipts) as receipt_nos`,
  );
  return rows[0];
}

/** A photo as an upload leaves it: the file under the upload dir and its `files` row; answers its URL. */
async function photo(schoolId: number, userId: number, name: string): Promise<{ url: string; path: string }> {
  const storage = `2026/12/${name}.jpg`;
  const path = join(t.config.uploadDir, storage);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1]));
  await t.sql.query(
    `insert into files (id, school_id, user_id, name, mime, size, sha256, storage_path) values (gen_random_uuid(), $1, $2, $3, 'image/jpeg', 12, repeat('0', 64), $4)`,
    [schoolId, userId, `${name}.jpg`, storage],
  );
  return { url: `/uploads/${storage}`, path };
}

const MARK = 'MARK-私人备注';

/**
 * Free text about the child in every place a module keeps it, written as that module writes it (the rows the
 * history and showcase seeds made, completed with what staff and guardians type). Answers the photos' files.
 */
async function writeChildText(studentId: number, name: string, guardianId: number): Promise<string[]> {
  const { rows } = await t.sql.query(`select school_id from students where id = $1`, [studentId]);
  const school = rows[0].school_id as number;
  const admin = (await t.sql.query(`select id from users where username = 'admin'`)).rows[0].id as number;
  const profile = await photo(school, admin, `profile-${studentId}`);
  const comment = await photo(school, admin, `comment-${studentId}`);
  const homework = await photo(school, admin, `homework-${studentId}`);
  const pickup = await photo(school, admin, `pickup-${studentId}`);
  await t.sql.query(`update students set photo_url = $2, notes = $3, allergies = '花生过敏', birthday = '2018-05-09' where id = $1`, [
    studentId,
    profile.url,
    `${MARK} 妈妈说${name}怕黑`,
  ]);
  await t.sql.query(`update pickup_people set photo_url = $2 where student_id = $1`, [studentId, pickup.url]);
  await t.sql.query(
    `insert into daily_comments (student_id, day, school_id, presets, text, photos, author_id, version)
     values ($1, current_date, $2, '{happy}', $3, $4::jsonb, $5, 1)
     on conflict (student_id, day) do update set text = excluded.text, photos = excluded.photos`,
    [studentId, school, `${MARK} ${name}今天很棒`, JSON.stringify([comment.url]), admin],
  );
  await t.sql.query(
    `insert into daily_comment_versions (school_id, student_id, day, version, presets, text, photos, author_id)
     values ($2, $1, current_date, 1, '{happy}', $3, $4::jsonb, $5)`,
    [studentId, school, `${MARK} ${name}今天很棒`, JSON.stringify([comment.url]), admin],
  );
  await t.sql.query(
    `update daily_reports set comment = jsonb_build_object('text', $2::text, 'photos', jsonb_build_array($3::text)) where student_id = $1`,
    [studentId, `${MARK} ${name}`, comment.url],
  );
  await t.sql.query(
    `insert into leave_requests (school_id, student_id, requested_by, start_day, end_day, reason, status, review_note)
     values ($2, $1, $3, current_date + 30, current_date + 30, $4, $5, $4)`,
    [studentId, school, guardianId, `${MARK} 去医院复查`, LeaveStatus.Approved],
  );
  await t.sql.query(
    `insert into student_comments (school_id, student_id, author_id, kind, period, content) values ($2, $1, $3, 'overall', '2026秋', $4)`,
    [studentId, school, admin, `${MARK} ${name}本学期进步很大`],
  );
  await t.sql.query(`update homework_submissions set note = $2, home_note = $2, photo_url = $3 where student_id = $1`, [
    studentId,
    `${MARK} 字迹工整`,
    homework.url,
  ]);
  await t.sql.query(`update homework_events set note = $2, photo_url = $3 where student_id = $1`, [studentId, `${MARK} 订正`, homework.url]);
  await t.sql.query(
    `with a as (update points_accounts set balance = balance + 1 where student_id = $1 returning school_id, student_id, balance)
     insert into points_ledger (school_id, student_id, kind, delta, balance_after, reason, actor_id)
     select school_id, student_id, 'award', 1, balance, $2, $3 from a`,
    [studentId, `${MARK} 帮助同学`, admin],
  );
  // a day's events with a note, an override and a departure whose pick-up code named the person
  await t.sql.query(
    `update flow_events set payload = payload || jsonb_build_object('note', $2::text, 'override', $2::text,
            'pickup_verified', jsonb_build_object('person', 'guardian:1', 'name', '张妈妈', 'relation', '母亲', 'code_id', 'c1', 'offline', false))
      where student_id = $1 and type = 'student.left'`,
    [studentId, `${MARK} 奶奶代接`],
  );
  // money and messages that name the child: the records stay, the name goes
  await t.sql.query(
    `insert into payments (school_id, out_trade_no, kind, ref_id, description, amount_fen, method, state, meta, payee, channel, created_by)
     values ($1, 'ERASE' || $2, 'meal', 'x', $3, 1600, 'wechat', 'paid', jsonb_build_object('student', $4::text), 'platform', 'native', $5)`,
    [school, studentId, `晚餐-${name}`, name, guardianId],
  );
  await t.sql.query(`update contracts set remark = $2 where student_id = $1`, [studentId, `${name}的托管合同 ${MARK}`]);
  // the family conversation: a guardian's text naming the child and a teacher's photo
  await t.sql.query(
    `with c as (insert into family_conversations (school_id, student_id) values ($1, $2) on conflict (student_id) do update set school_id = excluded.school_id returning id)
     insert into family_messages (conversation_id, school_id, student_id, side, sender_id, sender_role, sender_name, body, photo_url, request_id)
     select c.id, $1::int, $2::int, 'family', $3::int, 6, '妈妈', $4::text, null::text, 'erase-1' from c
     union all select c.id, $1::int, $2::int, 'school', $5::int, 1, '王老师', $6::text, $7::text, 'erase-2' from c`,
    [school, studentId, guardianId, `${MARK} ${name}今天咳嗽`, admin, `${MARK} ${name}的照片`, comment.url],
  );
  await t.sql.query(
    `insert into wechat_messages (school_id, user_id, appid, openid, kind, template_id, data, url, day, state, dedupe_key, params)
     values ($1, $2::int, 'wx-demo', 'o-erase', 'left', 't1', jsonb_build_object('thing1', jsonb_build_object('value', $3::text)), '/m', current_date,
             'sent', 'erase-' || $2::text, jsonb_build_object('student', $3::text))`,
    [school, guardianId, name],
  );
  await t.sql.query(
    `insert into sms_messages (school_id, day, mobile, kind, params, content, dedupe_key, provider, template_code, state)
     select $1, current_date, mobile, 'pickup', jsonb_build_object('name', $3::text), '【晚托】' || $3::text || '已离园', 'erase-' || $2::text, 'aliyun', 'SMS_1', 'sent'
       from users where id = $2::int`,
    [school, guardianId, name],
  );
  await t.sql.query(
    `insert into student_guardian_changes (school_id, student_id, kind, guardian_id, guardian_name, guardian_mobile, relation, guardians_version, actor_id)
     select $2, $1, 'added', u.id, u.name, u.mobile, '母亲', 1, $4 from users u where u.id = $3`,
    [studentId, school, guardianId, admin],
  );
  return [profile.path, comment.path, homework.path, pickup.path];
}

async function loginAs(userId: number): Promise<string> {
  await t.sql.query(`update users set password_hash = (select password_hash from users where username = 'admin') where id = $1`, [userId]);
  const { rows } = await t.sql.query(`select username from users where id = $1`, [userId]);
  const res = await t.post('/api/index/login').send({ account: rows[0].username, password: DEMO_PASSWORD });
  expect(res.body.code).toBe(Code.Ok);
  return res.body.data.userinfo.token as string;
}

/** A file answer's bytes (supertest buffers a zip as binary). */
const binary = (req: ReturnType<TestApp['get']>) =>
  req.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });

async function workbookOf(zip: JSZip): Promise<Map<string, string[][]>> {
  const wb = new Workbook();
  await wb.xlsx.load((await zip.file('孩子数据.xlsx')!.async('nodebuffer')) as never);
  const sheets = new Map<string, string[][]>();
  wb.eachSheet((ws) => {
    const rows: string[][] = [];
    ws.eachRow((r) => rows.push((r.values as unknown[]).slice(1).map((v) => (v === null || v === undefined ? '' : String(v)))));
    sheets.set(ws.name, rows);
  });
  return sheets;
}

describe('the download of a child’s data', () => {
  it('gives a guardian one zip of exactly their child: a sheet per kind, the photos, other guardians masked; logged', async () => {
    const { rows } = await t.sql.query(`select s.id, s.school_id from students s where s.name = '陈小雨'`);
    const child = rows[0];
    const admin = (await t.sql.query(`select id from users where username = 'admin'`)).rows[0].id;
    const face = await photo(child.school_id, admin, 'export-face');
    await t.sql.query(`update students set photo_url = $2 where id = $1`, [child.id, face.url]);
    // a second guardian of the child, whose number the demo parent may not read whole
    await t.sql.query(
      `with u as (insert into users (school_id, role, username, name, nickname, mobile) values ($1, 6, 'export_dad', '陈爸爸', '陈爸爸', '13911112222') returning id)
       insert into student_guardians (school_id, student_id, user_id, relation, is_primary) select $1, $2, id, '父亲', false from u`,
      [child.school_id, child.id],
    );
    const parent = await t.login('parent');
    const res = await binary(t.get(`/api/index/childDataExport?student_id=${child.id}`, parent));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('application/zip');
    expect(decodeURIComponent(res.headers['content-disposition'])).toContain('陈小雨-个人信息-');
    const zip = await JSZip.loadAsync(res.body as Buffer);
    expect(Object.keys(zip.files).sort()).toEqual(['孩子数据.xlsx', '照片/', '照片/孩子/', '照片/孩子/export-face.jpg', '说明.txt'].sort());
    const sheets = await workbookOf(zip);
    expect([...sheets.keys()]).toEqual([
      '基本信息',
      '监护人',
      '接送人',
      '每日考勤',
      '请假',
      '每日点评',
      '成长评语',
      '作业',
      '考试成绩',
      '积分',
      '晚餐',
      '合同与缴费',
      '收据',
      '家校消息',
      '授权记录',
      '访问记录',
    ]);
    expect(sheets.get('基本信息')![1][0]).toBe('陈小雨');
    expect(sheets.get('每日考勤')!.length).toBeGreaterThan(10);
    expect(sheets.get('考试成绩')!.length).toBeGreaterThan(1);
    const guardians = sheets.get('监护人')!.slice(1);
    expect(guardians).toEqual(
      expect.arrayContaining([expect.arrayContaining(['陈家长', '13800000006']), expect.arrayContaining(['陈爸爸', '139****2222'])]),
    );
    // exactly one child: no other student of the school is named anywhere in the workbook
    const { rows: others } = await t.sql.query(`select name from students where id <> $1 and school_id = $2`, [child.id, child.school_id]);
    const text = JSON.stringify([...sheets.values()]);
    for (const o of others) expect([o.name, text.includes(o.name)]).toEqual([o.name, false]);
    const { rows: log } = await t.sql.query(
      `select what, action from child_access_log where $1 = any(student_ids) and 'export' = any(what) order by id desc limit 1`,
      [child.id],
    );
    expect(log[0]).toMatchObject({ action: 'childDataExport', what: expect.arrayContaining(['export', 'photos']) });
    await t.sql.query(`delete from student_guardians where user_id = (select id from users where username = 'export_dad')`);
  });

  it('refuses another family’s child, staff other than the admin, another school and a bad id', async () => {
    const { rows } = await t.sql.query(`select id from students where name = '李欣怡'`);
    const parent = await t.login('parent');
    const other = await t.get(`/api/index/childDataExport?student_id=${rows[0].id}`, parent);
    expect(other.body).toMatchObject({ code: Code.Error, msg: '未找到该学生' });
    expect((await t.get(`/api/index/childDataExport?student_id=${rows[0].id}`, await t.login('teacher'))).body.msg).toBe(
      '当前账号没有权限执行此操作',
    );
    const { adminToken } = await t.otherSchool();
    expect((await t.get(`/api/index/childDataExport?student_id=${rows[0].id}`, adminToken)).body.msg).toBe('未找到该学生');
    expect((await t.get(`/api/index/childDataExport?student_id=x`, parent)).body.code).toBe(Code.Error);
    // the admin downloads any child of the school
    const res = await binary(t.get(`/api/index/childDataExport?student_id=${rows[0].id}`, await t.login('admin')));
    expect(res.status).toBe(200);
    const sheets = await workbookOf(await JSZip.loadAsync(res.body as Buffer));
    expect(sheets.get('基本信息')![1]).toEqual(expect.arrayContaining(['李欣怡', '花生过敏']));
  });
});

describe('a deletion request completed', () => {
  it('erases the child everywhere and the guardian who has no other child, keeping money and counts', async () => {
    const { rows } = await t.sql.query(
      `select s.id, s.name, u.id as guardian_id, u.mobile, u.username, pp.mobile as pickup_mobile, pp.name as pickup_name
         from students s join student_guardians g on g.student_id = s.id join users u on u.id = g.user_id
         join pickup_people pp on pp.student_id = s.id and pp.mobile <> u.mobile
        where s.name = '李欣怡' limit 1`,
    );
    const child = rows[0];
    const files = await writeChildText(child.id, child.name, child.guardian_id);
    const guardian = await loginAs(child.guardian_id);
    const before = await ledger();
    for (const needle of [child.name, MARK, child.mobile, child.pickup_mobile]) expect(await whereFound(needle)).not.toEqual([]);
    // the child's paid contract has its receipt (the demo's seed issued it), which names the child
    expect(await whereFound(child.name)).toContain('receipts.student_name');
    expect(await whereFound(MARK)).toContain('family_messages.body');

    const asked = await t
      .post('/api/index/privacyRequest', guardian)
      .send({ student_id: child.id, kind: 'deletion', body: `请删除${child.name}的全部信息` });
    expect(asked.body.code).toBe(Code.Ok);
    const fix = await t.post('/api/index/privacyRequest', guardian).send({ student_id: child.id, kind: 'correction', body: `${MARK} 更正生日` });
    expect(fix.body.code).toBe(Code.Ok);
    const admin = await t.login('admin');
    const done = await t.post('/api/index/handlePrivacyRequest', admin).send({ id: asked.body.data.id, version: 1, outcome: 'done', note: '已删除' });
    expect(done.body).toMatchObject({ code: Code.Ok, data: { status: 'done', student_name: anonymisedName(child.id) } });

    // nothing of the child, the guardian or the pick-up person is left in any column of any table
    for (const needle of [child.name, MARK, child.mobile, child.username, child.pickup_mobile])
      expect([needle, await whereFound(needle)]).toEqual([needle, []]);
    for (const f of files) expect(existsSync(f)).toBe(false);
    const { rows: pickup } = await t.sql.query(`select name, mobile, photo_url from pickup_people where student_id = $1`, [child.id]);
    expect(pickup.every((p) => p.name === '已删除' && p.mobile === '' && p.photo_url === null)).toBe(true);
    const { rows: left } = await t.sql.query(
      `select payload from flow_events where student_id = $1 and (payload ?| array['note', 'override', 'reason'] or payload->'pickup_verified'->>'name' <> '')`,
      [child.id],
    );
    expect(left).toEqual([]);
    const { rows: reports } = await t.sql.query(
      `select count(*)::int as n from daily_reports where student_id = $1 and (comment is not null or pickup->>'name' <> '')`,
      [child.id],
    );
    expect(reports[0].n).toBe(0);
    expect(await ledger()).toEqual(before);
    // the other request of the child is closed with it; the guardian's sessions are over
    const { rows: requests } = await t.sql.query(`select status, body from privacy_requests where student_id = $1 order by id`, [child.id]);
    expect(requests).toEqual([
      { status: 'done', body: '' },
      { status: 'done', body: '' },
    ]);
    expect((await t.get('/api/index/userInfo', guardian)).body.code).not.toBe(Code.Ok);
    const { rows: account } = await t.sql.query(
      `select u.name, u.mobile, u.password_hash, u.deleted_at is not null as gone,
              (select count(*)::int from wechat_bindings b where b.user_id = u.id and b.unbound_at is null) as bound
         from users u where u.id = $1`,
      [child.guardian_id],
    );
    expect(account[0]).toEqual({ name: '已注销家长', mobile: null, password_hash: null, gone: true, bound: 0 });
    const { rows: s } = await t.sql.query(
      `select name, status, anonymised_at is not null as anonymised, photo_url, allergies, birthday from students where id = $1`,
      [child.id],
    );
    expect(s[0]).toEqual({ name: anonymisedName(child.id), status: 0, anonymised: true, photo_url: null, allergies: null, birthday: null });
    // the admin's lists show the anonymised name where the child was
    const list = await t.get('/api/index/studentList?status=0&limit=50', admin);
    expect(JSON.stringify(list.body)).not.toContain(child.name);
  });

  it('keeps the account of a guardian with another child: only the erased child’s link goes', async () => {
    const { rows } = await t.sql.query(`select id, name from students where name in ('陈小雨', '陈小阳') order by name desc`);
    const [xiaoyu] = rows.filter((r) => r.name === '陈小雨');
    const parent = await t.login('parent');
    const asked = await t.post('/api/index/privacyRequest', parent).send({ student_id: xiaoyu.id, kind: 'deletion' });
    const admin = await t.login('admin');
    const done = await t.post('/api/index/handlePrivacyRequest', admin).send({ id: asked.body.data.id, version: 1, outcome: 'done' });
    expect(done.body.code).toBe(Code.Ok);
    expect(await whereFound('陈小雨')).toEqual([]);
    const children = await t.get('/api/index/parentChildren', parent);
    expect(children.body.code).toBe(Code.Ok);
    expect(JSON.stringify(children.body.data)).toContain('陈小阳');
    expect(JSON.stringify(children.body.data)).not.toContain(anonymisedName(xiaoyu.id));
    const { rows: u } = await t.sql.query(`select name, deleted_at from users where username = 'parent'`);
    expect(u[0]).toMatchObject({ name: '陈家长', deleted_at: null });
    // a second request for the erased child is refused: there is nothing left
    const again = await t.post('/api/index/privacyRequest', parent).send({ student_id: xiaoyu.id, kind: 'deletion' });
    expect(again.body.code).toBe(Code.Error);
  });
  it('leaves another family’s records alone, even where its child’s name contains the erased one', async () => {
    const { rows } = await t.sql.query(
      `select s.id, s.name, s.school_id, g.user_id from students s join student_guardians g on g.student_id = s.id
        where s.anonymised_at is null and s.status = 1 order by s.id desc limit 1`,
    );
    const a = rows[0];
    const longer = `${a.name}鸣`;
    const other = await t.sql.query(
      `with u as (insert into users (school_id, role, username, name, nickname, mobile) values ($1, 6, 'other_family', '别家家长', '别家家长', '13966667777') returning id)
       insert into wechat_messages (school_id, user_id, appid, openid, kind, template_id, data, url, day, state, dedupe_key, params)
       select $1, id, 'wx-demo', 'o-other', 'left', 't1', jsonb_build_object('thing1', jsonb_build_object('value', $2::text)), '/m', current_date,
              'sent', 'other-family', jsonb_build_object('student', $2::text) from u returning id`,
      [a.school_id, longer],
    );
    await t.app.get(DataSource).transaction((em) => t.app.get(ErasureService).eraseIn(em, a.school_id, [a.id]));
    const { rows: kept } = await t.sql.query(`select params->>'student' as student from wechat_messages where id = $1`, [other.rows[0].id]);
    expect(kept[0].student).toBe(longer);
  });
});

describe('the retention job', () => {
  it('erases students archived longer than the retention period, once; prunes the access log; leaves the rest', async () => {
    const { rows } = await t.sql.query(`select id, name from students where status = 1 and anonymised_at is null order by id desc limit 2`);
    const [old, recent] = rows;
    await t.sql.query(`update students set status = 0, archived_at = now() - interval '400 days' where id = $1`, [old.id]);
    await t.sql.query(`update students set status = 0, archived_at = now() - interval '30 days' where id = $1`, [recent.id]);
    const { rows: school } = await t.sql.query(`select school_id from students where id = $1`, [old.id]);
    await t.sql.query(
      `insert into child_access_log (school_id, actor_id, actor_role, student_ids, what, action, created_at)
       select $1, id, 1, array[$2::int], '{profile}', 'studentList', now() - d from users, unnest(array[interval '4 years', interval '2 years']) d
        where username = 'admin'`,
      [school[0].school_id, recent.id],
    );
    const before = await ledger();
    await t.app.get(ErasureService).retention(new Date());
    const { rows: after } = await t.sql.query(`select id, name, anonymised_at from students where id = any($1::int[]) order by id`, [
      [old.id, recent.id],
    ]);
    const byId = new Map(after.map((r) => [r.id, r]));
    expect(byId.get(old.id)).toMatchObject({ name: anonymisedName(old.id), anonymised_at: expect.any(Date) });
    expect(byId.get(recent.id)).toMatchObject({ name: recent.name, anonymised_at: null });
    expect(await whereFound(old.name)).toEqual([]);
    const { rows: log } = await t.sql.query(`select count(*)::int as n from child_access_log where created_at < now() - interval '3 years'`);
    expect(log[0].n).toBe(0);
    const { rows: kept } = await t.sql.query(`select count(*)::int as n from child_access_log where created_at < now() - interval '1 year'`);
    expect(kept[0].n).toBeGreaterThan(0);
    expect(await ledger()).toEqual(before);

    // a second run finds nothing new: the erased student's mark stays as it was
    const first = byId.get(old.id).anonymised_at as Date;
    await t.app.get(ErasureService).retention(new Date());
    const { rows: again } = await t.sql.query(`select anonymised_at from students where id = $1`, [old.id]);
    expect(again[0].anonymised_at).toEqual(first);
  });

  it('the histories stay append-only outside an erasure', async () => {
    await expect(t.sql.query(`update student_guardian_changes set guardian_name = 'x'`)).rejects.toThrow(/append-only/);
    await expect(t.sql.query(`delete from points_ledger`)).rejects.toThrow(/append-only/);
    await t.sql.query('begin');
    await t.sql.query(`set local wantuo.erasure = 'on'`);
    await expect(t.sql.query(`delete from ledger_entries`)).rejects.toThrow(/append-only/);
    await t.sql.query('rollback');
  });
});
