import { randomBytes } from 'node:crypto';
import { Aes, Formatter, Rsa } from 'wechatpay-axios-plugin';
import type { SandboxKeys } from '../src/modules/payments/wechatpay/credentials';

/** What a test may change of a notify to forge it: the signing key, the APIv3 key, the clock, the key id. */
export interface NotifyForgery {
  platformKey?: string;
  apiV3Key?: string;
  timestamp?: number;
  serial?: string;
}

/**
 * A WeChat Pay v3 notify as the platform sends it (the sandbox's encryptedNotify): the resource encrypted with the
 * APIv3 key (AEAD_AES_256_GCM, associated data `kind`), the whole body signed with the platform key, with the sandbox's
 * keys unless the test forges one of them.
 */
export function signedNotify(
  keys: SandboxKeys,
  eventType: string,
  kind: 'transaction' | 'refund',
  resource: object,
  o: NotifyForgery = {},
): { body: string; headers: Record<string, string> } {
  const nonce = randomBytes(6).toString('hex');
  const ciphertext = Aes.AesGcm.encrypt(JSON.stringify(resource), o.apiV3Key ?? keys.apiV3Key, nonce, kind);
  const body = JSON.stringify({
    id: randomBytes(8).toString('hex'),
    create_time: new Date().toISOString(),
    event_type: eventType,
    resource_type: 'encrypt-resource',
    resource: { algorithm: 'AEAD_AES_256_GCM', ciphertext, nonce, associated_data: kind, original_type: kind },
  });
  const timestamp = String(o.timestamp ?? Math.floor(Date.now() / 1000));
  const sigNonce = Formatter.nonce();
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'wechatpay-timestamp': timestamp,
      'wechatpay-nonce': sigNonce,
      'wechatpay-serial': o.serial ?? keys.platformKeyId,
      'wechatpay-signature': Rsa.sign(Formatter.response(timestamp, sigNonce, body), o.platformKey ?? keys.platformPrivateKey),
    },
  };
}
