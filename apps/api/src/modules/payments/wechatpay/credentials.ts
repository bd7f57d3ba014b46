import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What the WeChat Pay API v3 adapter needs (merchant side) and what the local sandbox needs (platform side).
 * In production every merchant value comes from the environment (config.ts validates them at start) and there is no
 * platform side here. Elsewhere, without them, the sandbox's test keys are made at first start under
 * DATA_DIR/wechatpay-sandbox/keys.json (mode 0600; DATA_DIR is never committed) and both sides use them.
 */
export interface MerchantCredentials {
  /** the service provider's merchant id (sp_mchid) and official account (sp_appid) */
  mchid: string;
  appid: string;
  /** the platform's own sub-merchant: what the platform sells is received there (design.md §5b2) */
  platformSubMchid: string;
  /** serial number of the merchant's API certificate (the Authorization header's serial_no) */
  serial: string;
  /** merchant API private key, PEM (signs requests) */
  privateKey: string;
  /** WeChat Pay public key id (the Wechatpay-Serial header of answers and notifies) and the key, PEM */
  platformKeyId: string;
  platformPublicKey: string;
  /** APIv3 key: 32 characters, AEAD_AES_256_GCM key of notify resources */
  apiV3Key: string;
}

/** The sandbox's own side: the platform's private key (signs answers and notifies) and the merchant's public key. */
export interface SandboxKeys extends MerchantCredentials {
  platformPrivateKey: string;
  merchantPublicKey: string;
}

const rsaPair = () =>
  generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });

/** An APIv3 key: 32 printable characters, as the merchant platform makes them. */
const apiV3Key = () => randomBytes(24).toString('base64').replace(/[+/]/g, 'x').slice(0, 32);

/**
 * The sandbox's test keys: read from DATA_DIR/wechatpay-sandbox/keys.json, made there at first start. Created with a
 * hard link from a temporary file, so concurrent first starts (test workers, two API processes) end up with one set.
 * `appid`: the configured official account's (JSAPI pays with its openids: the guardians are bound under it), else the
 * sandbox's own wxsandbox00000001.
 */
export function loadSandboxKeys(dataDir: string, appid?: string): SandboxKeys {
  const made = { ...readOrMakeSandboxKeys(dataDir), platformSubMchid: SANDBOX_PLATFORM_SUB_MCHID };
  return appid ? { ...made, appid } : made;
}

/** The sandbox's sub-merchant of the platform itself (平台自营), onboarded under its service provider from the start. */
export const SANDBOX_PLATFORM_SUB_MCHID = '1900000201';
/** The demo school's sub-merchant (demo-seed.ts records it), onboarded in the sandbox from the start too. */
export const SANDBOX_DEMO_SUB_MCHID = '1900000301';

function readOrMakeSandboxKeys(dataDir: string): Omit<SandboxKeys, 'platformSubMchid'> {
  const dir = join(dataDir, 'wechatpay-sandbox');
  const file = join(dir, 'keys.json');
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Omit<SandboxKeys, 'platformSubMchid'>;
  } catch {
    // absent (or unreadable): make a set
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const merchant = rsaPair();
  const platform = rsaPair();
  const keys: Omit<SandboxKeys, 'platformSubMchid'> = {
    mchid: '1900000109',
    appid: 'wxsandbox00000001',
    serial: randomBytes(20).toString('hex').toUpperCase(),
    privateKey: merchant.privateKey,
    merchantPublicKey: merchant.publicKey,
    platformKeyId: `PUB_KEY_ID_SANDBOX_${randomBytes(8).toString('hex').toUpperCase()}`,
    platformPublicKey: platform.publicKey,
    platformPrivateKey: platform.privateKey,
    apiV3Key: apiV3Key(),
  };
  const tmp = join(dir, `keys.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  writeFileSync(tmp, JSON.stringify(keys, null, 2), { mode: 0o600 });
  try {
    linkSync(tmp, file);
    return keys;
  } catch {
    // another process made them first: use theirs
    return JSON.parse(readFileSync(file, 'utf8')) as Omit<SandboxKeys, 'platformSubMchid'>;
  } finally {
    rmSync(tmp, { force: true });
  }
}
