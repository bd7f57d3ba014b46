import { hash, verify } from '@node-rs/argon2';

// OWASP's argon2id profile: 19 MiB, 2 passes, 1 lane
// algorithm 2 = Argon2id (the package's const enum cannot be imported under isolatedModules)
const OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (!passwordHash) {
    // same work as a real check, so an unknown account answers no faster than a wrong password
    dummyHash ??= hash('not-a-real-password-1', OPTIONS);
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;
