import { formatFen, sanitizeMoneyInput, yuanToFen } from './money';

describe('money', () => {
  it.each([
    [0, '0.00'],
    [5, '0.05'],
    [123456, '1234.56'],
    [-5, '-0.05'],
    [100, '1.00'],
  ])('formats %i fen as %s yuan', (fen, yuan) => expect(formatFen(fen)).toBe(yuan));

  it('refuses fractional fen', () => expect(() => formatFen(1.5)).toThrow(RangeError));

  it.each([
    ['12.3', 1230],
    ['0.1', 10],
    ['19.99', 1999],
    ['0.07', 7],
    ['-3', -300],
    ['1.005', null],
    ['abc', null],
    ['', null],
  ])('parses %p yuan as %p fen, exactly', (yuan, fen) => expect(yuanToFen(yuan)).toBe(fen));

  it.each([
    ['12.345', '12.34'],
    ['.5', '0.5'],
    ['', '0'],
    ['a1b2.3c4d5', '12.34'],
    ['1.2.3', '1.23'],
    ['¥100', '100'],
    ['.', '0.'],
    ['007', '007'],
  ])('money input %p becomes %p', (raw, out) => expect(sanitizeMoneyInput(raw)).toBe(out));
});
