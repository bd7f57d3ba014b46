import { Role } from '@wantuo/shared';
import { beforeEach, describe, expect, it } from 'vitest';
import { storage } from '../lib/storage';
import { DESKTOP_CHOSEN, phoneOfferFor } from './phone-offer';

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 MicroMessenger/8.0.54';
const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/156.0 Safari/537.36';

describe('a phone that opens a desktop route is offered the phone page (issue 35)', () => {
  beforeEach(() => storage.remove(DESKTOP_CHOSEN));

  it('offers the twin on a phone, keeping the query; nothing on a desktop or without a twin', () => {
    expect(phoneOfferFor('/parent_report', '?student=2', Role.Parent, IPHONE)).toBe('/m/parent_report?student=2');
    expect(phoneOfferFor('/teacher_today', '', Role.Teacher, IPHONE)).toBe('/m/teacher_today');
    expect(phoneOfferFor('/teacher_today', '', Role.Teacher, DESKTOP)).toBeNull();
    expect(phoneOfferFor('/principalIndex', '', Role.Admin, IPHONE)).toBeNull();
  });

  it('coming from the phone app’s 电脑版 (?desktop=1) or saying 留在电脑版 stops the offer', () => {
    expect(phoneOfferFor('/parent', '?desktop=1', Role.Parent, IPHONE)).toBeNull();
    expect(phoneOfferFor('/parent', '', Role.Parent, IPHONE)).toBeNull();
    storage.remove(DESKTOP_CHOSEN);
    expect(phoneOfferFor('/parent', '', Role.Parent, IPHONE)).toBe('/m/parent');
  });
});
