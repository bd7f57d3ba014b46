import { cellText, excelSerialDay, normaliseMobile, readDateCell, readWholeCell } from './import-cells';

describe('normaliseMobile: what staff type in the guardian mobile column', () => {
  it.each([
    ['13912345602', '13912345602'],
    ['139 1234 5602', '13912345602'],
    ['139-1234-5602', '13912345602'],
    ['139 - 1234 - 5602', '13912345602'],
    ['139.1234.5602', '13912345602'],
    ['(139)12345602', '13912345602'],
    ['+86 13912345604', '13912345604'],
    ['+8613912345604', '13912345604'],
    ['+86-139-1234-5604', '13912345604'],
    ['(+86) 139 1234 5604', '13912345604'],
    ['0086 13912345604', '13912345604'],
    ['008613912345604', '13912345604'],
    ['86 139 1234 5604', '13912345604'],
    ['  13912345602  ', '13912345602'],
    ['13912345602\u00a0', '13912345602'],
    ['１３９１２３４５６０２', '13912345602'],
    ['139　1234　5602', '13912345602'],
    ['１３９－１２３４－５６０２', '13912345602'],
    ['139–1234–5602', '13912345602'],
    [13912345602, '13912345602'],
  ])('%j reads as %s', (typed, mobile) => {
    expect(normaliseMobile(typed)).toBe(mobile);
  });

  it.each([
    [''],
    ['123'],
    ['1391234560'], // 10 digits
    ['139123456021'], // 12 digits
    ['23912345602'], // not a mobile prefix
    ['12912345602'],
    ['+1 13912345602'],
    ['+86 1391234560'],
    ['86139123456'], // 86 and 9 digits: not a country code
    ['010-12345678'], // a landline
    ['139/1234/5602'],
    ['1.39123E+10'], // scientific notation from a CSV: digits are lost
    ['abc13912345602'],
    [13912345602.5],
    [null],
    [undefined],
    [{}],
  ])('%j is no mobile', (typed) => {
    expect(normaliseMobile(typed)).toBeNull();
  });
});

describe('readDateCell: birthdays and dates as typed or kept by the sheet', () => {
  it.each([
    ['2018-03-15', '2018-03-15'],
    ['2018-3-5', '2018-03-05'],
    ['2018/3/15', '2018-03-15'],
    ['2018/03/15', '2018-03-15'],
    ['2017.11.02', '2017-11-02'],
    ['2017.11.2', '2017-11-02'],
    ['2018年3月15日', '2018-03-15'],
    ['2018年3月15', '2018-03-15'],
    ['2018 年 3 月 15 日', '2018-03-15'],
    ['20180315', '2018-03-15'],
    ['2018-03-15 ', '2018-03-15'],
    [' 2018/3/15\t', '2018-03-15'],
    ['２０１８／３／１５', '2018-03-15'],
    ['２０１７．１１．０２', '2017-11-02'],
    ['2018-03-15 00:00:00', '2018-03-15'],
    ['2018-03-15 08:30', '2018-03-15'],
    ['2018-03-15T00:00:00.000Z', '2018-03-15'],
    ['2020-02-29', '2020-02-29'],
    // Excel serials: a date cell that lost its date format, as a number or as text
    [43000, '2017-09-22'],
    ['43000', '2017-09-22'],
    [' 43000 ', '2017-09-22'],
    ['43000.0', '2017-09-22'],
    [43000.75, '2017-09-22'],
    [43174, '2018-03-15'],
    [36526, '2000-01-01'],
    [1, '1900-01-01'],
    [59, '1900-02-28'],
    [61, '1900-03-01'],
    [2958465, '9999-12-31'],
    // date cells: exceljs gives the shown wall clock at UTC
    [new Date(Date.UTC(2018, 2, 15)), '2018-03-15'],
    [new Date(Date.UTC(2018, 2, 15, 23, 59, 59)), '2018-03-15'],
    [new Date(Date.UTC(2017, 10, 2, 0, 0, 0)), '2017-11-02'],
  ])('%j reads as %s', (typed, day) => {
    expect(readDateCell(typed)).toBe(day);
  });

  it.each([
    [''],
    ['   '],
    ['2018-13-01'],
    ['2018-02-30'],
    ['2019-02-29'],
    ['2018-3'],
    ['15/03/2018'], // day first: ambiguous, not read
    ['03/15/2018'],
    ['18/3/15'],
    ['2018/3/15/1'],
    ['三月十五'],
    ['明天'],
    ['99999999'], // not a year 19xx/20xx, and too long for a serial
    ['12345678'],
    ['-1'],
    ['0'],
    [0],
    [60], // 1900-02-29: Lotus's leap-year bug, no such day
    ['60'],
    [2958466],
    [Number.NaN],
    [new Date(Number.NaN)],
    [true],
    [null],
    [undefined],
  ])('%j is no date', (typed) => {
    expect(readDateCell(typed)).toBeNull();
  });

  it('reads serials in the 1904 date system of old Mac workbooks', () => {
    expect(excelSerialDay(0 + 1, true)).toBe('1904-01-02');
    expect(excelSerialDay(41538, true)).toBe('2017-09-22');
    expect(readDateCell('41538', true)).toBe('2017-09-22');
    // 1904 has no 29 February 1900 to skip
    expect(excelSerialDay(60, true)).toBe('1904-03-01');
  });
});

describe('cellText', () => {
  it.each([
    [null, ''],
    [undefined, ''],
    ['王小明 ', '王小明 '],
    [13912345602, '13912345602'],
    [95.5, '95.5'],
    [true, 'true'],
    [new Date(Date.UTC(2018, 2, 15)), '2018-03-15'],
    [new Date(Date.UTC(2018, 2, 15, 8, 30)), '2018-03-15 08:30'],
    [new Date(Date.UTC(2018, 2, 15, 8, 30, 5)), '2018-03-15 08:30:05'],
    [new Date(Number.NaN), ''],
    [{ richText: [{ text: '王' }, { text: '小明' }] }, '王小明'],
    [{ formula: 'A1+1', result: 96 }, '96'],
    [{ sharedFormula: 'A1', result: new Date(Date.UTC(2018, 2, 15)) }, '2018-03-15'],
    [{ formula: 'A1' }, ''],
    [{ text: '链接', hyperlink: 'https://example.com' }, '链接'],
    [{ text: { richText: [{ text: '富' }, { text: '文本' }] }, hyperlink: 'x' }, '富文本'],
    [{ error: '#N/A' }, ''],
  ])('%j reads as %j', (value, text) => {
    expect(cellText(value)).toBe(text);
  });

  it('a date cell reads as the date it shows whatever the process zone', () => {
    // what exceljs gives for a cell showing 2018-03-15: midnight UTC; read in a zone west of UTC it would be the 14th
    const cell = new Date(Date.UTC(2018, 2, 15));
    expect(cellText(cell)).toBe('2018-03-15');
    expect(readDateCell(cell)).toBe('2018-03-15');
  });
});

describe('readWholeCell', () => {
  it.each([
    ['12', '12'],
    [' 12 ', '12'],
    ['１２', '12'],
    ['12.0', '12'],
    ['007', '7'],
    [12, '12'],
    [0, '0'],
  ])('%j reads as %s', (typed, n) => {
    expect(readWholeCell(typed)).toBe(n);
  });
  it.each([[''], ['12.5'], ['-3'], ['1e3'], ['1234567890'], [12.5], [-1], [null], ['十二']])('%j is no whole number', (typed) => {
    expect(readWholeCell(typed)).toBeNull();
  });
});
