/**
 * Client keys for writes the server answers once: a retry with the same key is answered, never done twice.
 * Built on `crypto.getRandomValues`, which (unlike `crypto.randomUUID`) also exists on a page served over plain http.
 */

const randomBytes = (n: number): Uint8Array => {
  const bytes = new Uint8Array(n);
  crypto.getRandomValues(bytes);
  return bytes;
};

const hex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/** A `request_id` for one attempt of a write (payments, orders, awards…): 32 hex characters, inside the schemas' [A-Za-z0-9_-]{8,64}. */
export function newRequestId(): string {
  return hex(randomBytes(16));
}

/** A UUID v4, for the keys the schemas want as a UUID (a flow step's `event_id`). */
export function newEventId(): string {
  const b = randomBytes(16);
  b[6] = (b[6] & 0x0f) | 0x40; // version 4
  b[8] = (b[8] & 0x3f) | 0x80; // RFC 4122 variant
  const h = hex(b);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
