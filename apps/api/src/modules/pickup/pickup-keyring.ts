import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * The keys that encrypt the schools' pick-up signing keys at rest (pickup_keys.sealed_private_key): AES-256-GCM, a
 * random 96-bit IV per seal, the school's id as additional data (a sealed key copied to another school's row does not
 * open), the id of the key that sealed it stored beside it (pickup_keys.key_id).
 *
 * PICKUP_KEYS_ENCRYPTION_KEYS is `id:base64,id2:base64` (each key 32 bytes, base64): the first seals, every one
 * opens. Rotation: put the new key first (keep the old after it), restart, run `npm run pickup:reseal` (cli.ts), then
 * remove the old key. Required in production; elsewhere unset, a fixed development key (id `dev`) is used.
 */
export interface PickupKeyring {
  /** the key that seals first, then the others that still open */
  keys: Array<{ id: string; key: Buffer }>;
  /** false: the development key (not from the environment) */
  fromEnv: boolean;
}

export const PICKUP_KEYS_VAR = 'PICKUP_KEYS_ENCRYPTION_KEYS';
const DEV_KEY = { id: 'dev', key: createHash('sha256').update('wantuo development pick-up key: never in production').digest() };
const ID_RE = /^[A-Za-z0-9_-]{1,32}$/;

/** Reads PICKUP_KEYS_ENCRYPTION_KEYS; a problem names the variable and what is wrong (the start stops). */
export function pickupKeyringConfig(raw: string | undefined, env: string, problems: string[]): PickupKeyring {
  if (!raw) {
    if (env === 'production')
      problems.push(`  ${PICKUP_KEYS_VAR}: required in production (id:base64 of 32 bytes, e.g. k1:$(openssl rand -base64 32))`);
    return { keys: [DEV_KEY], fromEnv: false };
  }
  const keys: PickupKeyring['keys'] = [];
  for (const [i, entry] of raw.split(',').entries()) {
    const at = entry.indexOf(':');
    const id = entry.slice(0, Math.max(0, at)).trim();
    const b64 = entry.slice(at + 1).trim();
    const key = Buffer.from(b64, 'base64');
    if (at < 1 || !ID_RE.test(id)) problems.push(`  ${PICKUP_KEYS_VAR}: entry ${i + 1} is not id:base64 (an id of letters, digits, - or _)`);
    else if (key.length !== 32 || key.toString('base64') !== b64) problems.push(`  ${PICKUP_KEYS_VAR}: key ${id} is not 32 bytes in base64`);
    else if (keys.some((k) => k.id === id)) problems.push(`  ${PICKUP_KEYS_VAR}: key id ${id} is given twice`);
    else keys.push({ id, key });
  }
  return { keys: keys.length ? keys : [DEV_KEY], fromEnv: true };
}

/** A key that does not open: its key id is not configured, or the ciphertext does not authenticate with it. */
export class PickupKeyError extends Error {}

const aad = (schoolId: number) => Buffer.from(`pickup_keys:${schoolId}`);

/** Seals a school's private key with the ring's first key: base64 of IV (12) ‖ ciphertext ‖ tag (16), and its id. */
export function sealPrivateKey(ring: PickupKeyring, schoolId: number, privateKey: string): { sealed: string; keyId: string } {
  const { id, key } = ring.keys[0];
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(aad(schoolId));
  const body = Buffer.concat([cipher.update(privateKey, 'utf8'), cipher.final()]);
  return { sealed: Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64'), keyId: id };
}

/** Opens a sealed private key with the ring's key of that id; a PickupKeyError names the key when it cannot. */
export function openPrivateKey(ring: PickupKeyring, schoolId: number, sealed: string, keyId: string): string {
  const found = ring.keys.find((k) => k.id === keyId);
  if (!found) throw new PickupKeyError(`pick-up key of school ${schoolId} is sealed with key ${keyId}, which ${PICKUP_KEYS_VAR} does not hold`);
  const raw = Buffer.from(sealed, 'base64');
  try {
    const decipher = createDecipheriv('aes-256-gcm', found.key, raw.subarray(0, 12)).setAAD(aad(schoolId));
    decipher.setAuthTag(raw.subarray(raw.length - 16));
    return Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]).toString('utf8');
  } catch {
    throw new PickupKeyError(`pick-up key of school ${schoolId} does not open with key ${keyId} of ${PICKUP_KEYS_VAR} (a wrong key under that id?)`);
  }
}
