import { maskSmsParams, SMS_CODE_MASK, smsRef, smsRefNames } from './sms';

describe('maskSmsParams', () => {
  it.each([
    ['code.login', { code: '123456', minutes: '5' }, { code: SMS_CODE_MASK, minutes: '5' }],
    ['code.resetpwd', { code: '000001', minutes: '5' }, { code: SMS_CODE_MASK, minutes: '5' }],
    ['code.dealpwd', { code: '999999', minutes: '5' }, { code: SMS_CODE_MASK, minutes: '5' }],
    ['notice.important', { school: '阳光', title: '123456' }, { school: '阳光', title: '123456' }],
    ['code.login', { minutes: '5' }, { minutes: '5' }],
  ] as const)('%s %j → %j', (kind, params, masked) => {
    expect(maskSmsParams(kind, params)).toEqual(masked);
  });
});

describe('smsRef / smsRefNames', () => {
  it.each([
    [[7], 500, '7'],
    [[3, 1, 2, 5, 7, 8], 500, '1-3,5,7-8'],
    [[10, 12, 14, 16], 8, '10+3'],
    [[], 500, ''],
  ])('smsRef(%j, %i) = %s', (ids, max, ref) => {
    expect(smsRef(ids, max)).toBe(ref);
  });
  it.each([
    ['1-3,5,7-8', 2, true],
    ['1-3,5,7-8', 6, false],
    ['7', 7, true],
    ['7', 70, false],
    ['10+3', 12, true],
    ['10+3', 9, false],
    ['', 1, null],
    [null, 1, null],
    ['order-abc', 1, null],
  ] as const)('smsRefNames(%j, %i) = %s', (ref, id, named) => {
    expect(smsRefNames(ref, id)).toBe(named);
  });
});
