import { guardianPhoneLink } from './phone-links';

describe('a guardian message links the phone page', () => {
  it.each([
    ['/parent_notices', '/m/parent_notices'],
    ['/parent?student=3', '/m/parent?student=3'],
    ['/parent_report?student=3&day=2026-12-07', '/m/parent_report?student=3&day=2026-12-07'],
    ['/parent_growth', '/parent_growth'],
    ['/parentx', '/parentx'],
    ['/m/parent', '/m/parent'],
    ['/principalIndex', '/principalIndex'],
  ])('%s → %s', (from, to) => expect(guardianPhoneLink(from)).toBe(to));
});
