import AES from 'crypto-js/aes';
import Utf8 from 'crypto-js/enc-utf8';
import type { Cipher } from './storage';

/**
 * AES encryption for storage entries (spec §3): AES-CBC with PKCS#7 padding, key and IV as UTF-8.
 * A key whose length is not a multiple of 8 is warned about: decryption will fail.
 */
export function aesCipher(key: string, iv = key.slice(0, 16)): Cipher {
  // eslint-disable-next-line no-console -- spec §3: a bad key length is warned about
  if (key.length % 8 !== 0) console.warn(`[storage] the AES key length (${key.length}) is not a multiple of 8: decryption will fail`);
  const k = Utf8.parse(key);
  const v = Utf8.parse(iv);
  return {
    seal: (text) => AES.encrypt(text, k, { iv: v }).toString(),
    open: (text) => AES.decrypt(text, k, { iv: v }).toString(Utf8),
  };
}
