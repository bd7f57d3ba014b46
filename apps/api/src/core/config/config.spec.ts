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
])('refuses %s=%s with a message naming it', (name, value) => {
  expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
  expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`${name}="${value}"`));
});
