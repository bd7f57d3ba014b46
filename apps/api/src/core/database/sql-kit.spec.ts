import { containsPattern, escapeLike, isUniqueViolation, offsetOf, pageOf, prefixPattern, totalOf, uniqueViolationOf } from './sql-kit';

describe('the SQL kit', () => {
  it.each([
    ['abc', 'abc', '%abc%'],
    ['50%', '50\\%', '%50\\%%'],
    ['a_b', 'a\\_b', '%a\\_b%'],
    ['back\\slash', 'back\\\\slash', '%back\\\\slash%'],
    ['  spaced  ', '  spaced  ', '%spaced%'],
  ])('escapes %p for LIKE', (text, escaped, pattern) => {
    expect(escapeLike(text)).toBe(escaped);
    expect(containsPattern(text)).toBe(pattern);
  });

  it.each([
    ['HT20261127', 'HT20261127%'],
    ['50%', '50\\%%'],
    ['a_b', 'a\\_b%'],
    ['  spaced  ', 'spaced%'],
  ])('matches what starts with %p', (text, pattern) => {
    expect(prefixPattern(text)).toBe(pattern);
  });

  it.each([[''], ['   '], [null], [undefined]])('a blank keyword %p is no filter', (text) => {
    expect(containsPattern(text)).toBeNull();
    expect(prefixPattern(text)).toBeNull();
  });

  it('pages', () => {
    expect(offsetOf({ page: 3, limit: 20 })).toBe(40);
    expect(pageOf([1, 2], 12, { page: 2, limit: 2 })).toEqual({ list: [1, 2], total: 12, page: 2, limit: 2 });
    expect(totalOf([{ total: '7' }])).toBe(7);
    expect(totalOf([])).toBe(0);
  });

  it.each([
    [{ code: '23505', constraint: 'x_key' }, 'x_key'],
    [{ driverError: { code: '23505', constraint: 'y_key' } }, 'y_key'],
    [{ code: '23505' }, ''],
    [{ code: '23503', constraint: 'fk' }, null],
    [new Error('plain'), null],
    [null, null],
  ])('reads a unique violation from %p', (err, name) => {
    expect(uniqueViolationOf(err)).toBe(name);
    expect(isUniqueViolation(err)).toBe(name !== null);
  });

  it('matches the constraint when named', () => {
    expect(isUniqueViolation({ code: '23505', constraint: 'a' }, 'a')).toBe(true);
    expect(isUniqueViolation({ code: '23505', constraint: 'a' }, 'b')).toBe(false);
  });
});
