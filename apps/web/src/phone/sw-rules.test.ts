import { describe, expect, it } from 'vitest';
import { actionOf, OFFLINE_READS } from './sw-rules';
import { takeOverNow } from './sw-register';

describe('the phone worker’s rules', () => {
  it('names the action of an API read, nothing else', () => {
    expect(actionOf('/api/index/flowBoard')).toBe('flowBoard');
    expect(actionOf('/api/index/parentChildren')).toBe('parentChildren');
    for (const p of ['/api/index/', '/api/index/flowBoard/x', '/m/teacher_today', '/api/health', '/x/api/index/flowBoard'])
      expect(actionOf(p)).toBeNull();
  });

  it('keeps the first screens’ reads for offline use', () => {
    expect(OFFLINE_READS).toEqual(expect.arrayContaining(['flowBoard', 'parentChildren', 'userInfo']));
  });

  it('takes a new release at once unless the user is busy on a visible page', () => {
    expect(takeOverNow(false, false)).toBe(true);
    expect(takeOverNow(false, true)).toBe(true);
    expect(takeOverNow(true, true)).toBe(true);
    expect(takeOverNow(true, false)).toBe(false);
  });
});
