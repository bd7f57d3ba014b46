import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withApiAddress } from './api-address';
import { ConfigError, loadConfig } from './config';

it('has working defaults: port 8080, embedded database with the demo, in-process jobs', () => {
  const c = loadConfig({});
  expect(c).toMatchObject({ env: 'development', port: 8080, databaseUrl: null, redisUrl: null, seedDemo: true, queuePrefix: 'bull' });
});

it('uses the given database and Redis, and then seeds only when asked', () => {
  const c = loadConfig({ DATABASE_URL: 'postgres://u@db:5432/app', REDIS_URL: 'redis://redis:6379', PORT: '3000' });
  expect(c).toMatchObject({ databaseUrl: 'postgres://u@db:5432/app', redisUrl: 'redis://redis:6379', port: 3000, seedDemo: false });
  expect(loadConfig({ DATABASE_URL: 'postgres://u@db/app', SEED_DEMO: '1' }).seedDemo).toBe(true);
});

it.each([
  ['PORT', 'eighty'],
  ['PORT', '70000'],
  ['DATABASE_URL', 'mysql://x'],
  ['REDIS_URL', 'localhost:6379'],
  ['NODE_ENV', 'staging'],
  ['SEED_DEMO', 'yes'],
  ['LOG_LEVEL', 'loud'],
  ['LIVE_DIRECT_WRITE', 'off'],
])('refuses %s=%s with a message naming it', (name, value) => {
  expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
  expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`${name}="${value}"`));
});

describe('production', () => {
  const db = {
    DATABASE_URL: 'postgres://u@db:5432/app',
    WECHATPAY_SANDBOX: '1',
    PICKUP_KEYS_ENCRYPTION_KEYS: 'k1:AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=',
  };

  it('refuses to start without DATABASE_URL: no embedded database in production', () => {
    const production = { NODE_ENV: 'production', WECHATPAY_SANDBOX: '1' };
    expect(() => loadConfig(production)).toThrow(ConfigError);
    expect(() => loadConfig(production)).toThrow(/DATABASE_URL: required in production/);
    expect(() => loadConfig({ ...production, DATABASE_URL: '' })).toThrow(/DATABASE_URL: required in production/);
    expect(loadConfig({ NODE_ENV: 'production', ...db })).toMatchObject({ env: 'production', databaseUrl: db.DATABASE_URL });
  });

  // issue 34 item 3: without Redis the API runs the jobs in its own timers: the stock hold, payment checks and the texts
  // held for quiet hours would be lost on a restart
  it('the API refuses to start without REDIS_URL: no in-process jobs in production', () => {
    const production = { NODE_ENV: 'production', ...db };
    expect(() => loadConfig(production, { api: true })).toThrow(ConfigError);
    expect(() => loadConfig(production, { api: true })).toThrow(/REDIS_URL: required in production/);
    expect(() => loadConfig({ ...production, REDIS_URL: '' }, { api: true })).toThrow(/REDIS_URL: required in production/);
    expect(loadConfig({ ...production, REDIS_URL: 'redis://redis:6379' }, { api: true }).redisUrl).toBe('redis://redis:6379');
    // the CLI's commands (migrate, backup) queue no job: they still run without it
    expect(loadConfig(production).redisUrl).toBeNull();
    // outside production `npm start` runs the jobs in-process
    expect(loadConfig({}, { api: true }).redisUrl).toBeNull();
  });

  it('development (npm start) and tests still run on the embedded database', () => {
    expect(loadConfig({ NODE_ENV: 'development' }).databaseUrl).toBeNull();
    expect(loadConfig({ NODE_ENV: 'test' }).databaseUrl).toBeNull();
  });
});

it('writes live frames directly unless LIVE_DIRECT_WRITE=0', () => {
  expect(loadConfig({}).liveDirectWrite).toBe(true);
  expect(loadConfig({ LIVE_DIRECT_WRITE: '0' }).liveDirectWrite).toBe(false);
  expect(loadConfig({ LIVE_DIRECT_WRITE: 'false' }).liveDirectWrite).toBe(false);
  expect(loadConfig({ LIVE_DIRECT_WRITE: '1' }).liveDirectWrite).toBe(true);
});

describe('WeChat Pay', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wechatpay-config-'));
  const key = join(dir, 'key.pem');
  writeFileSync(key, '-----BEGIN PRIVATE KEY-----\nx\n-----END PRIVATE KEY-----\n');
  const merchant = {
    WECHATPAY_MCHID: '1900000109',
    WECHATPAY_APPID: 'wx1234567890abcdef',
    WECHATPAY_MCH_SERIAL: 'ABCDEF0123456789',
    WECHATPAY_PRIVATE_KEY_FILE: key,
    WECHATPAY_PUBLIC_KEY_ID: 'PUB_KEY_ID_0114232134912410000000000000',
    WECHATPAY_PUBLIC_KEY_FILE: key,
    WECHATPAY_APIV3_KEY: 'a'.repeat(32),
    WECHATPAY_NOTIFY_URL: 'https://school.example.com/api/pay/wechat/notify',
    WECHATPAY_PLATFORM_SUB_MCHID: '1900000201',
  };

  it('outside production, without a merchant, uses the sandbox', () => {
    expect(loadConfig({}).wechatpay).toBeNull();
  });

  // production also needs its database (above)
  const production = {
    NODE_ENV: 'production',
    DATABASE_URL: 'postgres://u@db:5432/app',
    PICKUP_KEYS_ENCRYPTION_KEYS: 'k1:AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=',
  };

  it('production needs the merchant, or an explicit sandbox for a demo', () => {
    expect(() => loadConfig(production)).toThrow(/WECHATPAY_MCHID: required for WeChat Pay in production/);
    expect(loadConfig({ ...production, WECHATPAY_SANDBOX: '1' }).wechatpay).toBeNull();
  });

  it('a merchant is all or nothing, its key files are read, the base URL defaults to the real service', () => {
    // the official account too (production: JSAPI pays with its openids, core/config/wechat-config.ts)
    const oa = { WECHAT_OA_APPID: merchant.WECHATPAY_APPID, WECHAT_OA_SECRET: 's'.repeat(32), WECHAT_OA_TOKEN: 'token123' };
    const c = loadConfig({ ...production, ...merchant, ...oa });
    expect(c.wechatpay).toMatchObject({
      mchid: '1900000109',
      platformSubMchid: '1900000201',
      baseUrl: 'https://api.mch.weixin.qq.com/',
      privateKey: expect.stringContaining('PRIVATE KEY'),
    });
    expect(() => loadConfig({ ...merchant, WECHATPAY_APIV3_KEY: undefined })).toThrow(/WECHATPAY_APIV3_KEY: required/);
    expect(() => loadConfig({ ...merchant, WECHATPAY_PRIVATE_KEY_FILE: join(dir, 'absent.pem') })).toThrow(/cannot be read/);
    expect(() => loadConfig({ ...merchant, WECHATPAY_APIV3_KEY: 'short' })).toThrow(/WECHATPAY_APIV3_KEY/);
    // service-provider mode: what the platform sells needs the platform's own sub-merchant (issue 36)
    expect(() => loadConfig({ ...merchant, WECHATPAY_PLATFORM_SUB_MCHID: undefined })).toThrow(/WECHATPAY_PLATFORM_SUB_MCHID: required/);
    expect(() => loadConfig({ ...merchant, WECHATPAY_PLATFORM_SUB_MCHID: 'abc' })).toThrow(/WECHATPAY_PLATFORM_SUB_MCHID/);
  });

  // issue 34 item 11: a guardian bound under the account could not pay inside WeChat with another appid, in any environment
  it('WeChat Pay pays with the official account: two different appids are refused, naming both', () => {
    const oa = { WECHAT_OA_APPID: 'wxabcdef1234567890', WECHAT_OA_SECRET: 's'.repeat(32), WECHAT_OA_TOKEN: 'token123' };
    const both = /WECHATPAY_APPID="wx1234567890abcdef": must be the official account's WECHAT_OA_APPID \(wxabcdef1234567890\)/;
    expect(() => loadConfig({ ...production, ...merchant, ...oa })).toThrow(both);
    expect(() => loadConfig({ ...merchant, ...oa })).toThrow(both);
    expect(loadConfig({ ...merchant, ...oa, WECHAT_OA_APPID: merchant.WECHATPAY_APPID }).wechatOa!.appid).toBe(merchant.WECHATPAY_APPID);
  });
});

describe('the official account (WeChat)', () => {
  const production = {
    NODE_ENV: 'production',
    DATABASE_URL: 'postgres://u@db:5432/app',
    WECHATPAY_SANDBOX: '1',
    PICKUP_KEYS_ENCRYPTION_KEYS: 'k1:AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=',
  };
  const oa = { WECHAT_OA_APPID: 'wx1234567890abcdef', WECHAT_OA_SECRET: 'a1'.repeat(16), WECHAT_OA_TOKEN: 'serverToken1' };

  it('outside production, without an account, uses the sandbox; in production as WeChat Pay or WECHAT_OA_SANDBOX says', () => {
    expect(loadConfig({}).wechatOa).toBeNull();
    expect(loadConfig(production).wechatOa).toBeNull();
    expect(() => loadConfig({ ...production, WECHAT_OA_SANDBOX: '0' })).toThrow(
      /WECHAT_OA_APPID: required for the official account in production \(or WECHAT_OA_SANDBOX=1/,
    );
    expect(loadConfig({ WECHAT_OA_API_URL: 'http://api:8080/api/dev/wechat/' })).toMatchObject({
      wechatOa: null,
      wechatOaSandboxApiUrl: 'http://api:8080/api/dev/wechat/',
      wechatOaSandboxOpenUrl: null,
    });
  });

  it('an account is all three or nothing, the URLs default to the real service', () => {
    expect(loadConfig({ ...production, ...oa }).wechatOa).toEqual({
      appid: oa.WECHAT_OA_APPID,
      secret: oa.WECHAT_OA_SECRET,
      token: oa.WECHAT_OA_TOKEN,
      apiUrl: 'https://api.weixin.qq.com/',
      openUrl: 'https://open.weixin.qq.com/',
    });
    expect(() => loadConfig({ ...oa, WECHAT_OA_TOKEN: undefined })).toThrow(/WECHAT_OA_TOKEN: required for the official account when any/);
    expect(() => loadConfig({ ...oa, WECHAT_OA_APPID: 'gh_123456' })).toThrow(/WECHAT_OA_APPID="gh_123456": an appid starts with wx/);
    expect(() => loadConfig({ WECHAT_OA_API_URL: 'https://api.weixin.qq.com' })).toThrow(/WECHAT_OA_API_URL/);
    expect(loadConfig({ ...oa, WECHAT_OA_OPEN_URL: '/api/dev/wechat/' }).wechatOa!.openUrl).toBe('/api/dev/wechat/');
  });
});

describe('SMS', () => {
  const production = {
    NODE_ENV: 'production',
    DATABASE_URL: 'postgres://u@db:5432/app',
    WECHATPAY_SANDBOX: '1',
    PICKUP_KEYS_ENCRYPTION_KEYS: 'k1:AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=',
  };
  const aliyun = {
    SMS_ALIYUN_ACCESS_KEY_ID: 'LTAI5tExample',
    SMS_ALIYUN_ACCESS_KEY_SECRET: 'secret',
    SMS_ALIYUN_SIGN_NAME: '晚托平台',
    SMS_ALIYUN_TEMPLATES: '{"code.login":"SMS_100001","alert.raised":"SMS_100002"}',
  };
  const tencent = {
    SMS_TENCENT_SECRET_ID: 'AKIDexample',
    SMS_TENCENT_SECRET_KEY: 'secret',
    SMS_TENCENT_SDK_APP_ID: '1400000001',
    SMS_TENCENT_SIGN_NAME: '晚托平台',
    SMS_TENCENT_TEMPLATES: '{"code.login":"100001"}',
  };

  it('defaults to the outbox; outside production a gateway without its account is the local fake', () => {
    expect(loadConfig({}).sms).toMatchObject({ provider: 'outbox', fallback: null, aliyun: null, tencent: null, fakes: true });
    expect(loadConfig({ SMS_PROVIDER: 'aliyun' }).sms).toMatchObject({ provider: 'aliyun', aliyun: null, fakes: true });
  });

  it('reads an account whole, its templates by kind and its endpoint (default the provider)', () => {
    const c = loadConfig({
      ...production,
      ...aliyun,
      ...tencent,
      SMS_PROVIDER: 'aliyun',
      SMS_FALLBACK_PROVIDER: 'tencent',
      SMS_REPORT_TOKEN: 'r'.repeat(20),
    });
    expect(c.sms).toMatchObject({
      provider: 'aliyun',
      fallback: 'tencent',
      fakes: false,
      reportToken: 'r'.repeat(20),
      aliyun: {
        signName: '晚托平台',
        templates: { 'code.login': 'SMS_100001', 'alert.raised': 'SMS_100002' },
        endpoint: { protocol: 'https', host: 'dysmsapi.aliyuncs.com' },
      },
      tencent: { sdkAppId: '1400000001', region: 'ap-guangzhou', endpoint: { protocol: 'https', host: 'sms.tencentcloudapi.com' } },
    });
    const local = loadConfig({ ...aliyun, SMS_PROVIDER: 'aliyun', SMS_ALIYUN_ENDPOINT: 'http://127.0.0.1:9000/api/dev/sms/aliyun/' });
    expect(local.sms.aliyun!.endpoint).toEqual({ protocol: 'http', host: '127.0.0.1:9000/api/dev/sms/aliyun' });
  });

  it('refuses part of an account, bad templates, a fallback equal to the provider, and production without account or report token', () => {
    expect(() => loadConfig({ ...aliyun, SMS_ALIYUN_SIGN_NAME: undefined })).toThrow(/SMS_ALIYUN_SIGN_NAME: required for aliyun SMS/);
    expect(() => loadConfig({ ...aliyun, SMS_ALIYUN_TEMPLATES: 'not json' })).toThrow(/SMS_ALIYUN_TEMPLATES: not JSON/);
    expect(() => loadConfig({ ...aliyun, SMS_ALIYUN_TEMPLATES: '{"code.lgoin":"SMS_1"}' })).toThrow(/unknown message kind "code.lgoin"/);
    expect(() => loadConfig({ ...aliyun, SMS_ALIYUN_TEMPLATES: '{"code.login":"SMS 1"}' })).toThrow(/a template code is/);
    expect(() => loadConfig({ SMS_PROVIDER: 'tencent', SMS_FALLBACK_PROVIDER: 'tencent' })).toThrow(/the fallback must differ/);
    expect(() => loadConfig({ ...production, SMS_PROVIDER: 'tencent', SMS_REPORT_TOKEN: 'r'.repeat(20) })).toThrow(
      /SMS_TENCENT_\*: .*required in production/,
    );
    expect(() => loadConfig({ ...production, ...aliyun, SMS_PROVIDER: 'aliyun' })).toThrow(/SMS_REPORT_TOKEN: required in production/);
    expect(() => loadConfig({ ...tencent, SMS_TENCENT_SDK_APP_ID: '12345' })).toThrow(/SmsSdkAppId has 10 digits/);
    expect(() => loadConfig({ SMS_PROVIDER: 'yunpian' })).toThrow(/SMS_PROVIDER/);
    // the production demo stack keeps the outbox
    expect(loadConfig(production).sms.provider).toBe('outbox');
  });
});

describe('NATIONAL_HOLIDAYS_FILE', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wantuo-holidays-config-'));
  const year2030 = {
    year: 2030,
    notice: '测试通知〔2029〕1号',
    issued: '2029-11-01',
    festivals: [{ name: '测试节', from: '2030-03-04', to: '2030-03-05', makeup: [{ day: '2030-03-09', works_as: 2 }] }],
  };
  const file = (name: string, content: string) => {
    writeFileSync(join(dir, name), content);
    return join(dir, name);
  };

  it('unset: the built-in table', () => {
    const c = loadConfig({});
    expect(c.nationalHolidays).toMatchObject({ file: null, fileYears: [] });
    expect(Object.keys(c.nationalHolidays.table)).toEqual(['2025', '2026']);
  });

  it('adds the file’s years over the built-in ones', () => {
    const path = file('ok.json', JSON.stringify([year2030]));
    const c = loadConfig({ NATIONAL_HOLIDAYS_FILE: path });
    expect(c.nationalHolidays.file).toBe(path);
    expect(c.nationalHolidays.fileYears).toEqual([2030]);
    expect(c.nationalHolidays.table[2030]).toEqual(year2030);
    expect(c.nationalHolidays.table[2026].notice).toBe('国办发明电〔2025〕7号');
  });

  it.each([
    ['absent', null, /NATIONAL_HOLIDAYS_FILE=".*absent\.json": cannot be read/],
    ['not JSON', '[{', /NATIONAL_HOLIDAYS_FILE=".*not JSON\.json": not JSON/],
    ['not an array', JSON.stringify(year2030), /NATIONAL_HOLIDAYS_FILE=".*not an array\.json": .*expected array/],
    [
      'a make-up day on a Friday',
      JSON.stringify([{ ...year2030, festivals: [{ ...year2030.festivals[0], makeup: [{ day: '2030-03-08', works_as: 2 }] }] }]),
      /NATIONAL_HOLIDAYS_FILE=".*Friday\.json": \[0\.festivals\.0\.makeup\.0\] 测试节: make-up day 2030-03-08 is not a Saturday or Sunday/,
    ],
    ['a year twice', JSON.stringify([year2030, year2030]), /2030 is in the file twice/],
  ])('a bad file (%s) stops the start with a message naming it', (name, content, message) => {
    const path = content === null ? join(dir, `${name}.json`) : file(`${name}.json`, content);
    expect(() => loadConfig({ NATIONAL_HOLIDAYS_FILE: path })).toThrow(ConfigError);
    expect(() => loadConfig({ NATIONAL_HOLIDAYS_FILE: path })).toThrow(message);
  });
});

// issue 34 item 12: one rule for where a process without HTTP server (the worker) finds the API's sandboxes and fakes
describe('API_INTERNAL_URL', () => {
  it('defaults to the loopback at PORT (HOST when it names one address); a process without HTTP server uses it', () => {
    expect(loadConfig({}).apiInternalUrl).toBe('http://127.0.0.1:8080');
    expect(loadConfig({ PORT: '3000', HOST: '10.0.0.5' }).apiInternalUrl).toBe('http://10.0.0.5:3000');
    expect(loadConfig({ API_INTERNAL_URL: 'http://api:8080' }).apiInternalUrl).toBe('http://api:8080');
    expect(() => loadConfig({ API_INTERNAL_URL: 'http://api:8080/api/' })).toThrow(/API_INTERNAL_URL="http:\/\/api:8080\/api\/"/);
    const w = withApiAddress(loadConfig({ API_INTERNAL_URL: 'http://api:8080', SMS_PROVIDER: 'aliyun' }));
    expect(w).toMatchObject({
      wechatpaySandboxUrl: 'http://api:8080/api/dev/wechatpay/',
      wechatpayNotifyUrl: 'http://api:8080/api/pay/wechat/notify',
      wechatOaSandboxApiUrl: 'http://api:8080/api/dev/wechat/',
    });
    expect(w.sms.endpoints.aliyun).toEqual({ protocol: 'http', host: 'api:8080/api/dev/sms/aliyun' });
    // what is set explicitly wins
    expect(withApiAddress(loadConfig({ WECHATPAY_BASE_URL: 'http://pay:1/v3/' })).wechatpaySandboxUrl).toBe('http://pay:1/v3/');
  });
});
