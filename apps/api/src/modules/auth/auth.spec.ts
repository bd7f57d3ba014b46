import { Code, LOGIN_LOCK, Role } from '@wantuo/shared';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, eventually, snapshot, startTestApp, type TestApp } from '../../../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function outboxCode(mobile: string, after = 0): Promise<string> {
  return eventually(async () => {
    const res = await t.get(`/api/dev/sms-outbox?mobile=${mobile}`);
    const newest = res.body.data.list[0];
    return newest && newest.id > after ? (newest.params.code as string) : null;
  });
}

async function lastOutboxId(mobile: string): Promise<number> {
  const { rows } = await t.sql.query(`select coalesce(max(id), 0)::int as id from sms_outbox where mobile = $1`, [mobile]);
  return rows[0].id;
}

describe('login', () => {
  it.each(DEMO_ACCOUNTS.map((a) => [a.username, a.role] as const))('signs in %s (role %i) and userInfo returns the role', async (username, role) => {
    const res = await t.post('/api/index/login').send({ account: username, password: DEMO_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(Code.Ok);
    const info = res.body.data.userinfo;
    expect(info).toEqual(
      expect.objectContaining({ token: expect.any(String), id: expect.any(Number), role, nickname: expect.any(String), avatar_text: null }),
    );
    expect(info.school_id === null).toBe(role === Role.Operator);
    const me = await t.get('/api/index/userInfo', info.token);
    expect(me.body).toMatchObject({ code: 200, data: { id: info.id, role, username, school_id: info.school_id } });
  });

  it('accepts the mobile number and the user name in any case as the account', async () => {
    for (const account of ['13800000002', 'TEACHER']) {
      const res = await t.post('/api/index/login').send({ account, password: DEMO_PASSWORD });
      expect(res.body.data.userinfo.role).toBe(Role.Teacher);
    }
  });

  it('remember me gives a 24 h session, otherwise 12 h', async () => {
    const hours = async (remember?: boolean) => {
      const res = await t.post('/api/index/login').send({ account: 'admin', password: DEMO_PASSWORD, remember });
      return (Date.parse(res.body.data.userinfo.expires_at) - Date.now()) / 3_600_000;
    };
    expect(await hours(true)).toBeCloseTo(24, 0);
    expect(await hours(false)).toBeCloseTo(12, 0);
  });

  it('answers an unknown account exactly like a wrong password', async () => {
    const unknown = await t.post('/api/index/login').send({ account: 'nobody', password: 'whatever1' });
    const wrong = await t.post('/api/index/login').send({ account: 'adviser', password: 'whatever1' });
    expect(unknown.body).toEqual({ code: Code.Error, msg: '账号或密码错误', data: null });
    expect(wrong.body).toEqual(unknown.body);
    await t.sql.query(`update users set failed_logins = 0 where username = 'adviser'`);
  });

  it('speaks English when the lang header asks', async () => {
    const res = await t.post('/api/index/login').set('lang', 'en').send({ account: 'nobody', password: 'whatever1' });
    expect(res.body.msg).toBe('Wrong account or password');
  });

  it('locks an account after five wrong passwords, even for the right one, and says for how long', async () => {
    await t.sql.query(
      `insert into users (school_id, role, username, name, nickname, password_hash)
       select school_id, 2, 'locky', '锁定测试', '锁定测试', password_hash from users where username = 'teacher'`,
    );
    const answers: string[] = [];
    for (let i = 0; i < LOGIN_LOCK.maxFailures; i++) {
      const res = await t.post('/api/index/login').send({ account: 'locky', password: 'wrong-pass-1' });
      expect(res.body.code).toBe(Code.Error);
      answers.push(res.body.msg);
    }
    expect(answers.slice(0, 4).every((m) => m === '账号或密码错误')).toBe(true);
    expect(answers[4]).toBe('密码错误次数过多，账号已锁定，请 15 分钟后再试');
    const right = await t.post('/api/index/login').send({ account: 'locky', password: DEMO_PASSWORD });
    expect(right.body).toMatchObject({ code: Code.Error, msg: expect.stringContaining('已锁定') });

    // once the lock has run out, the right password works and the count starts again
    await t.sql.query(`update users set locked_until = now() - interval '1 second' where username = 'locky'`);
    const after = await t.post('/api/index/login').send({ account: 'locky', password: DEMO_PASSWORD });
    expect(after.body.code).toBe(Code.Ok);
    const { rows } = await t.sql.query(`select failed_logins, locked_until from users where username = 'locky'`);
    expect(rows[0]).toEqual({ failed_logins: 0, locked_until: null });
  });

  it('refuses a disabled account with a clear message', async () => {
    await t.sql.query(
      `insert into users (school_id, role, username, name, nickname, password_hash, status)
       select school_id, 2, 'gone', '离职', '离职', password_hash, 0 from users where username = 'teacher'`,
    );
    const res = await t.post('/api/index/login').send({ account: 'gone', password: DEMO_PASSWORD });
    expect(res.body).toMatchObject({ code: Code.Error, msg: '该账号已停用，请联系机构管理员' });
  });
});

describe('schools', () => {
  it('one mobile in two schools: each password opens its own account, and userInfo shows that account’s school', async () => {
    const { schoolId: otherSchool } = await t.otherSchool();
    const { hashPassword } = await import('./passwords');
    await t.sql.query(
      `insert into users (school_id, role, username, name, nickname, mobile, password_hash) values ($1, 2, 'twin_b', '外校老师', '外校老师', '13700003333', $2)`,
      [otherSchool, await hashPassword('OtherSchool1')],
    );
    await t.sql.query(
      `insert into users (school_id, role, username, name, nickname, mobile, password_hash)
       select school_id, 2, 'twin_a', '本校老师', '本校老师', '13700003333', password_hash from users where username = 'teacher'`,
    );
    const a = await t.post('/api/index/login').send({ account: '13700003333', password: DEMO_PASSWORD });
    const b = await t.post('/api/index/login').send({ account: '13700003333', password: 'OtherSchool1' });
    expect(a.body.data.userinfo.school_id).toBe(t.demo.schoolId);
    expect(b.body.data.userinfo.school_id).toBe(otherSchool);
    const me = await t.get('/api/index/userInfo', b.body.data.userinfo.token);
    expect(me.body.data).toMatchObject({ username: 'twin_b', school: { id: otherSchool, name: '另一所机构' } });
  });

  it('a school whose service expired past the grace period lets its staff sign in and read, not write; its admin signs in to renew', async () => {
    const { schoolId } = await t.otherSchool();
    await t.sql.query(`update schools set service_expires_at = now() - interval '8 days' where id = $1`, [schoolId]);
    await t.sql.query(
      `insert into users (school_id, role, username, name, nickname, password_hash)
       select $1, 2, 'expired_teacher', '过期', '过期', password_hash from users where username = 'teacher'`,
      [schoolId],
    );
    const teacher = await t.post('/api/index/login').send({ account: 'expired_teacher', password: DEMO_PASSWORD });
    expect(teacher.body.code).toBe(Code.Ok);
    const token = teacher.body.data.userinfo.token;
    expect((await t.get('/api/index/userInfo', token)).body.code).toBe(Code.Ok);
    expect((await t.post('/api/index/teacherClockIn', token).send({})).body.msg).toContain('只能查看');
    const admin = await t.post('/api/index/login').send({ account: `other_admin_${schoolId}`, password: DEMO_PASSWORD });
    expect(admin.body.code).toBe(Code.Ok);
  });
});

describe('tokens', () => {
  it('userInfo without a token, or with a bad one, answers 401', async () => {
    for (const token of [undefined, 'not-a-token', 'x'.repeat(500)]) {
      const res = await t.get('/api/index/userInfo', token);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ code: Code.Untoken, data: null });
    }
  });

  it('logout revokes the token', async () => {
    const token = await t.login('parent');
    expect((await t.post('/api/index/logout', token).send({})).body.code).toBe(Code.Ok);
    expect((await t.get('/api/index/userInfo', token)).body.code).toBe(Code.Untoken);
    expect((await t.post('/api/index/logout', token).send({})).body.code).toBe(Code.Untoken);
  });

  it('an expired token answers 401', async () => {
    const token = await t.login('parent');
    await t.sql.query(`update user_tokens set expires_at = now() - interval '1 second' where revoked_at is null and user_id = $1`, [
      t.demo.users.parent,
    ]);
    expect((await t.get('/api/index/userInfo', token)).body.code).toBe(Code.Untoken);
  });

  it('stores only a hash of the token', async () => {
    const token = await t.login('adviser');
    const { rows } = await t.sql.query(`select count(*)::int as n from user_tokens where encode(token_hash, 'escape') like '%' || $1 || '%'`, [
      token,
    ]);
    expect(rows[0].n).toBe(0);
  });
});

describe('SMS codes and mobile sign-in', () => {
  it('sends a code through the sms queue; the outbox code signs in once', async () => {
    const mobile = '13800000005';
    const before = await lastOutboxId(mobile);
    const send = await t.post('/api/sms/send').send({ mobile, event: 'login' });
    expect(send.body).toEqual({ code: Code.Ok, msg: '成功', data: {} });
    const code = await outboxCode(mobile, before);
    expect(code).toMatch(/^\d{6}$/);

    const wrong = await t.post('/api/index/mobilelogin').send({ mobile, code: code === '000000' ? '000001' : '000000' });
    expect(wrong.body).toMatchObject({ code: Code.Error, msg: '短信验证码错误或已过期' });
    const ok = await t.post('/api/index/mobilelogin').send({ mobile, code, remember: true });
    expect(ok.body.code).toBe(Code.Ok);
    expect(ok.body.data.userinfo).toMatchObject({ role: Role.HeadTeacher, token: expect.any(String) });
    const again = await t.post('/api/index/mobilelogin').send({ mobile, code });
    expect(again.body.code).toBe(Code.Error);
  });

  it('a second code within 60 s answers code 100 and sends nothing', async () => {
    const mobile = '13800000006';
    expect((await t.post('/api/sms/send').send({ mobile, event: 'login' })).body.code).toBe(Code.Ok);
    const second = await t.post('/api/sms/send').send({ mobile, event: 'login' });
    expect(second.body.code).toBe(Code.Error);
    expect(second.body.msg).toMatch(/^验证码发送过于频繁，请 \d+ 秒后再试$/);
    const { rows } = await t.sql.query(`select count(*)::int as n from sms_codes where mobile = $1`, [mobile]);
    expect(rows[0].n).toBe(1);
  });

  it('allows ten codes a day per mobile', async () => {
    const mobile = '13800000009';
    await t.sql.query(
      `insert into sms_codes (mobile, event, code_hash, ip, created_at, expires_at)
       select $1, 'login', null, '10.0.0.1', now() - make_interval(mins => 2 + g), now() from generate_series(1, 10) g`,
      [mobile],
    );
    const res = await t.post('/api/sms/send').send({ mobile, event: 'login' });
    expect(res.body).toMatchObject({ code: Code.Error, msg: '该手机号今日获取验证码次数已达上限' });
  });

  it('limits codes per IP', async () => {
    await t.sql.query(
      `insert into sms_codes (mobile, event, code_hash, ip, created_at, expires_at)
       select '1370000' || lpad(g::text, 4, '0'), 'login', null, '::1', now() - interval '1 minute', now() from generate_series(1, 30) g`,
    );
    await t.sql.query(`update sms_codes set ip = '127.0.0.1' where ip = '::1'`);
    const res = await t.post('/api/sms/send').send({ mobile: '13800000001', event: 'login' });
    expect(res.body).toMatchObject({ code: Code.Error, msg: '当前网络请求验证码过于频繁，请稍后再试' });
    await t.sql.query(`delete from sms_codes where mobile like '1370000%'`);
  });

  it('tells a mobile without account, and sends nothing', async () => {
    const res = await t.post('/api/sms/send').send({ mobile: '13912345678', event: 'login' });
    expect(res.body).toMatchObject({ code: Code.Error, msg: '该手机号未绑定账号' });
    const { rows } = await t.sql.query(`select count(*)::int as n from sms_outbox where mobile = '13912345678'`);
    expect(rows[0].n).toBe(0);
  });

  it('burns a code after five wrong tries', async () => {
    const mobile = '13800000001';
    await t.sql.query(`delete from sms_codes where mobile = $1`, [mobile]);
    const before = await lastOutboxId(mobile);
    await t.post('/api/sms/send').send({ mobile, event: 'login' });
    const code = await outboxCode(mobile, before);
    const bad = code === '111111' ? '222222' : '111111';
    for (let i = 0; i < 5; i++) await t.post('/api/index/mobilelogin').send({ mobile, code: bad });
    expect((await t.post('/api/index/mobilelogin').send({ mobile, code })).body.code).toBe(Code.Error);
  });
});

describe('passwords', () => {
  it('changepwd checks the old password, then ends every session', async () => {
    await t.sql.query(
      `insert into users (school_id, role, username, name, nickname, mobile, password_hash)
       select school_id, 2, 'pwuser', '改密', '改密', '13700001111', password_hash from users where username = 'teacher'`,
    );
    const login = async (password: string) => (await t.post('/api/index/login').send({ account: 'pwuser', password })).body;
    const token = (await login(DEMO_PASSWORD)).data.userinfo.token;
    const other = (await login(DEMO_PASSWORD)).data.userinfo.token;
    const wrongOld = await t.post('/api/index/changepwd', token).send({ oldpassword: 'nope-1234', newpassword: 'NewPass2026' });
    expect(wrongOld.body).toMatchObject({ code: Code.Error, msg: '原密码错误' });
    const weak = await t.post('/api/index/changepwd', token).send({ oldpassword: DEMO_PASSWORD, newpassword: 'short' });
    expect(weak.body).toMatchObject({ code: Code.Error, msg: '密码需 8-64 位，且同时包含字母和数字' });
    const ok = await t.post('/api/index/changepwd', token).send({ oldpassword: DEMO_PASSWORD, newpassword: 'NewPass2026' });
    expect(ok.body.code).toBe(Code.Ok);
    for (const tk of [token, other]) expect((await t.get('/api/index/userInfo', tk)).body.code).toBe(Code.Untoken);
    expect((await login(DEMO_PASSWORD)).code).toBe(Code.Error);
    expect((await login('NewPass2026')).code).toBe(Code.Ok);
  });

  it('resetpwd: step 1 masks the mobile, step 2 resets with the SMS code', async () => {
    await t.sql.query(
      `insert into users (school_id, role, username, name, nickname, mobile, password_hash)
       select school_id, 2, 'forgetful', '忘记', '忘记', '13700002222', password_hash from users where username = 'teacher'`,
    );
    const step1 = await t.get('/api/index/resetpwd?account=forgetful');
    expect(step1.body).toMatchObject({ code: Code.Ok, data: { masked_mobile: '137****2222', mobile: '' } });
    expect((await t.get('/api/index/resetpwd?account=nobody')).body).toMatchObject({ code: Code.Error, msg: '未找到该账号' });

    const mobile = '13700002222';
    await t.post('/api/sms/send').send({ mobile, event: 'resetpwd' });
    const code = await outboxCode(mobile);
    const wrong = await t.post('/api/index/resetpwd').send({ mobile, code: code === '000000' ? '000001' : '000000', newpassword: 'Reset2026x' });
    expect(wrong.body.code).toBe(Code.Error);
    const ok = await t.post('/api/index/resetpwd').send({ mobile, code, newpassword: 'Reset2026x' });
    expect(ok.body.code).toBe(Code.Ok);
    const login = await t.post('/api/index/login').send({ account: 'forgetful', password: 'Reset2026x' });
    expect(login.body.code).toBe(Code.Ok);
    // a login code cannot reset a password
    await t.sql.query(`delete from sms_codes where mobile = $1`, [mobile]);
    await t.post('/api/sms/send').send({ mobile, event: 'login' });
    const loginCode = await outboxCode(mobile);
    expect((await t.post('/api/index/resetpwd').send({ mobile, code: loginCode, newpassword: 'Other2026x' })).body.code).toBe(Code.Error);
  });
});

describe('profile and activity', () => {
  const PNG = Buffer.from(
    '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
    'hex',
  );

  it('updates the nickname and uploads an avatar image', async () => {
    const token = await t.login('teacher');
    const res = await t
      .post('/api/index/profile', token)
      .field('nickname', '李老师（数学）')
      .attach('avatar', PNG, { filename: '头像.png', contentType: 'image/png' });
    expect(res.body.code).toBe(Code.Ok);
    expect(res.body.data).toMatchObject({ nickname: '李老师（数学）', avatar_text: expect.stringMatching(/^\/uploads\/.+\.png$/) });
    const img = await t.get(res.body.data.avatar_text);
    expect(img.status).toBe(200);
    expect(img.headers['content-type']).toBe('image/png');
  });

  it('refuses an avatar that is not an image, whatever it claims to be', async () => {
    const token = await t.login('teacher');
    const before = await snapshot(t.sql);
    const res = await t
      .post('/api/index/profile', token)
      .attach('avatar', Buffer.from('%PDF-1.4 fake'), { filename: 'a.png', contentType: 'image/png' });
    expect(res.body).toMatchObject({ code: Code.Error, msg: '头像只能是 JPG、PNG、GIF 或 WebP 图片' });
    expect(await snapshot(t.sql)).toEqual(before);
  });

  it('refuses an avatar over 2 MB', async () => {
    const token = await t.login('teacher');
    const big = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]);
    const res = await t.post('/api/index/profile', token).attach('avatar', big, { filename: 'big.png' });
    expect(res.body).toMatchObject({ code: Code.Error, msg: '文件过大，最大 2 MB' });
  });

  it('loginLog lists the user’s own sign-ins, newest first, paged', async () => {
    const token = await t.login('operator');
    await t.login('operator');
    const res = await t.get('/api/index/loginLog?page=1&limit=1', token);
    expect(res.body.code).toBe(Code.Ok);
    expect(res.body.data).toMatchObject({ page: 1, limit: 1, list: [expect.objectContaining({ action: 'login' })] });
    expect(res.body.data.total).toBeGreaterThanOrEqual(2);
  });
});

describe('bad input on every auth action answers code 100 and writes nothing', () => {
  const big = 'x'.repeat(10 * 1024);
  const sqlish = "' or 1=1; drop table users; --";
  const html = '<script>alert(1)</script>';
  const cases: Array<[string, 'GET' | 'POST', string, boolean, unknown[]]> = [
    [
      'login',
      'POST',
      '/api/index/login',
      false,
      [
        {},
        { account: 'admin' },
        { password: 'x' },
        { account: 1, password: 2 },
        { account: big, password: 'x' },
        { account: 'admin', password: big },
        { account: sqlish, password: sqlish },
        { account: html, password: html },
        { account: 'admin', password: DEMO_PASSWORD, remember: 'yes' },
        { account: 'admin', password: DEMO_PASSWORD, extra: 1 },
        [1, 2],
      ],
    ],
    [
      'mobilelogin',
      'POST',
      '/api/index/mobilelogin',
      false,
      [
        {},
        { mobile: '138' },
        { mobile: '13800000001' },
        { mobile: '13800000001', code: '12ab56' },
        { mobile: big, code: big },
        { mobile: sqlish, code: html },
        { mobile: 13800000001, code: 123456 },
      ],
    ],
    [
      'sms/send',
      'POST',
      '/api/sms/send',
      false,
      [
        {},
        { mobile: '13800000001' },
        { mobile: '13800000001', event: 'pay' },
        { mobile: '12345', event: 'login' },
        { mobile: big, event: 'login' },
        { mobile: sqlish, event: html },
        { mobile: ['13800000001'], event: 'login' },
      ],
    ],
    [
      'changepwd',
      'POST',
      '/api/index/changepwd',
      true,
      [
        {},
        { oldpassword: DEMO_PASSWORD },
        { oldpassword: DEMO_PASSWORD, newpassword: 'abc' },
        { oldpassword: DEMO_PASSWORD, newpassword: 'abcdefghij' },
        { oldpassword: big, newpassword: big },
        { oldpassword: sqlish, newpassword: html },
        { oldpassword: 1, newpassword: 2 },
      ],
    ],
    ['resetpwd GET', 'GET', '/api/index/resetpwd', false, [{}, { account: '' }, { account: big }, { account: 'admin', x: '1' }]],
    [
      'resetpwd POST',
      'POST',
      '/api/index/resetpwd',
      false,
      [
        {},
        { mobile: '13800000001', code: '123456' },
        { mobile: '13800000001', code: '123456', newpassword: 'weak' },
        { mobile: big, code: big, newpassword: big },
        { mobile: sqlish, code: html, newpassword: html },
      ],
    ],
    [
      'profile',
      'POST',
      '/api/index/profile',
      true,
      [{ nickname: '' }, { nickname: big }, { nickname: 5 }, { avatar: 'x' }, { nickname: 'ok', role: 1 }],
    ],
    ['userInfo', 'GET', '/api/index/userInfo', true, [{ id: '2' }, { school_id: '2' }]],
    ['logout', 'POST', '/api/index/logout', true, [{ token: 'x' }, { all: true }]],
  ];

  it.each(cases)('%s', async (_, method, path, signedIn, inputs) => {
    const token = signedIn ? await t.login('admin') : undefined;
    for (const input of inputs) {
      const before = await snapshot(t.sql);
      const res =
        method === 'GET' ? await t.get(path, token).query(input as Record<string, string>) : await t.post(path, token).send(input as object);
      expect({ input, status: res.status, code: res.body.code }).toEqual({ input, status: 200, code: Code.Error });
      expect(typeof res.body.msg).toBe('string');
      expect(res.body.msg.length).toBeGreaterThan(0);
      expect(res.body.msg.length).toBeLessThan(300);
      expect(await snapshot(t.sql)).toEqual(before);
    }
    const { rows } = await t.sql.query(`select count(*)::int as n from users`);
    expect(rows[0].n).toBeGreaterThanOrEqual(5);
  });

  it('the spec’s login messages', async () => {
    expect((await t.post('/api/index/login').send({ password: 'x' })).body.msg).toBe('请输入用户名');
    expect((await t.post('/api/index/login').send({ account: 'admin' })).body.msg).toBe('请输入密码');
    expect((await t.post('/api/index/mobilelogin').send({ code: '123456' })).body.msg).toBe('请输入手机号');
    expect((await t.post('/api/index/mobilelogin').send({ mobile: '13800000001' })).body.msg).toBe('请输入短信验证码');
    expect((await t.post('/api/index/login').set('lang', 'en').send({ password: 'x' })).body.msg).toBe('Please input a user name');
  });
});
