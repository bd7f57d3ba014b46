import { DataSource } from 'typeorm';
import { ADMIN_URL } from '../../../test/db';
import { dataSourceOptions } from './data-source';
import { parseInt8 } from './type-parsers';

describe('pg type parsers (the pools of dataSourceOptions)', () => {
  let ds: DataSource;
  beforeAll(async () => {
    ds = new DataSource(dataSourceOptions(ADMIN_URL, 1));
    await ds.initialize();
  });
  afterAll(() => ds.destroy());

  it('answers a date as its YYYY-MM-DD text and an int8 as a number, whatever the process zone', async () => {
    const [r] = await ds.query(
      `select '2026-11-26'::date as d, 42::int8 as n, count(*) as c, array['2026-01-02'::date, null] as da,
              array[1::int8, null, 9007199254740991] as ia, 1.50::numeric as num, 7::int as i, '2026-11-26T17:30:00Z'::timestamptz as t
         from (values (1), (2)) v(x)`,
    );
    expect(r).toEqual({
      d: '2026-11-26',
      n: 42,
      c: 2,
      da: ['2026-01-02', null],
      ia: [1, null, Number.MAX_SAFE_INTEGER],
      num: '1.50',
      i: 7,
      t: new Date('2026-11-26T17:30:00Z'),
    });
  });

  it('refuses an int8 beyond the safe integers (the query fails instead of rounding)', async () => {
    await expect(ds.query(`select 9007199254740993::int8 as x`)).rejects.toThrow(/MAX_SAFE_INTEGER/);
    // the connection stays usable
    expect(await ds.query(`select (-9007199254740991)::int8 as x, 9007199254740993::int8::text as big`)).toEqual([
      { x: -Number.MAX_SAFE_INTEGER, big: '9007199254740993' },
    ]);
  });

  it.each([
    ['0', 0],
    ['-12', -12],
    ['9007199254740991', Number.MAX_SAFE_INTEGER],
  ])('parseInt8(%s) = %d', (text, n) => expect(parseInt8(text)).toBe(n));
  it.each(['9007199254740992', '-9007199254740992', '99999999999999999999'])('parseInt8(%s) throws', (text) =>
    expect(() => parseInt8(text)).toThrow(RangeError),
  );
});
