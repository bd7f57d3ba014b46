import { describe, expect, it } from 'vitest';
import { newEventId, newRequestId } from './request-id';

describe('client keys', () => {
  it('a request id fits the schemas ([A-Za-z0-9_-]{8,64}) and is new each time', () => {
    const ids = new Set(Array.from({ length: 50 }, newRequestId));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
  });

  it('an event id is a UUID v4 (what the flow schemas accept)', () => {
    const ids = new Set(Array.from({ length: 50 }, newEventId));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
