import 'reflect-metadata';
import { ConfigError, loadConfig } from './core/config/config';
import { createLogger } from './core/logging/logger';
import { prepareDatabase, resolveDatabase } from './runtime';

const USAGE = 'usage: node dist/cli.js migrate | seed';

/** Operations commands: `migrate` applies migrations; `seed` migrates and seeds the demo school (once). */
async function main(command: string | undefined) {
  const config = loadConfig();
  const log = createLogger(config.logLevel);
  if (command !== 'migrate' && command !== 'seed') throw new ConfigError(USAGE);
  const db = await resolveDatabase(config, log);
  try {
    await prepareDatabase({ ...db.config, seedDemo: command === 'seed' }, log);
  } finally {
    await db.stop();
  }
}

main(process.argv[2]).catch((err) => {
  process.stderr.write(`${err instanceof ConfigError ? err.message : err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
