import { DataSource } from 'typeorm';
import { startTestApp, statementsOf, type TestApp } from '../../../test/harness';
import { anyOfSlot, compiledOnce, type Slots } from './compiled';
import { kdb } from './kysely';

/** Hot statements compiled once with named slots: the same text every call, the values bound, in or out of a transaction. */
describe('compiledOnce', () => {
  let t: TestApp;
  let ds: DataSource;
  let school: number;

  const named = compiledOnce('test.students.named', (db, p: Slots<{ schoolId: number; ids: number[]; prefix: string }>) =>
    db
      .selectFrom('students as s')
      .select(['s.id', 's.name'])
      .where('s.school_id', '=', p.schoolId)
      .where('s.id', '=', anyOfSlot(p.ids))
      .where('s.name', 'like', p.prefix)
      .where('s.status', '=', 1)
      .orderBy('s.id'),
  );

  beforeAll(async () => {
    t = await startTestApp();
    ds = t.app.get(DataSource);
    school = t.demo.schoolId;
  });
  afterAll(() => t.close());

  it('compiles once to numbered placeholders in slot order and binds each call', async () => {
    const rows = await kdb(ds)
      .insertInto('students')
      .values([
        { school_id: school, name: '编译甲' },
        { school_id: school, name: '编译乙' },
        { school_id: school, name: '别的' },
      ])
      .returning(['id', 'name'])
      .execute();
    // the slots and the constant (status = 1, bound as $4 each call) in the order they appear
    expect(named.sql).toMatch(/school_id" = \$1 .* any\(\$2::int\[\]\) .* like \$3 .*"status" = \$4/);
    const ids = rows.map((r) => r.id);
    const a = await named.run(ds, { schoolId: school, ids, prefix: '编译%' });
    expect(a.map((r) => r.name)).toEqual(['编译甲', '编译乙']);
    const b = await named.run(ds, { schoolId: school, ids: [ids[1]!], prefix: '%' });
    expect(b).toEqual([{ id: ids[1], name: '编译乙' }]);
    const other = await named.run(ds, { schoolId: school + 100000, ids, prefix: '%' });
    expect(other).toEqual([]);
    const inTx = await ds.transaction((m) => named.runIn(m, { schoolId: school, ids, prefix: '别%' }));
    expect(inTx.map((r) => r.name)).toEqual(['别的']);
  });

  it('is counted as one statement a call', async () => {
    const seen = await statementsOf(t, () => named.run(ds, { schoolId: school, ids: [1], prefix: '%' }));
    expect(seen).toEqual([named.sql]);
  });

  it('refuses a call without a value for a slot', async () => {
    await expect(named.run(ds, { schoolId: school, ids: [1] } as never)).rejects.toThrow(/no value for prefix/);
  });
});
