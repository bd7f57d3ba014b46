import { describe, expect, it } from 'vitest';
import { givenName } from './children';

describe('givenName (a share card names the child by the given name only)', () => {
  it.each([
    ['陈小雨', '小雨'],
    ['陈小阳', '小阳'],
    ['王一', '一'],
    ['欧阳娜娜', '娜娜'],
    ['司马光', '光'],
    ['李', '李'],
    [' 张三 ', '三'],
    ['Emma Chen', 'Emma'],
  ])('%s → %s', (name, given) => {
    expect(givenName(name)).toBe(given);
  });
});
