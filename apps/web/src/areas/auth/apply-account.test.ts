import { describe, expect, it } from 'vitest';
import { applyInput } from './apply-account';

describe('applyInput', () => {
  it('drops empty optional fields and a cleared student estimate (null), keeps the rest', () => {
    expect(
      applyInput({ institution_name: '晚托', contact_name: '张三', mobile: '13800000000', city: '', students_estimate: null, message: undefined }),
    ).toEqual({
      institution_name: '晚托',
      contact_name: '张三',
      mobile: '13800000000',
    });
    expect(
      applyInput({ institution_name: '晚托', contact_name: '张三', mobile: '13800000000', city: '杭州', students_estimate: 30, message: '你好' }),
    ).toEqual({
      institution_name: '晚托',
      contact_name: '张三',
      mobile: '13800000000',
      city: '杭州',
      students_estimate: 30,
      message: '你好',
    });
  });
});
