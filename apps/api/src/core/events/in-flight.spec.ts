import { InFlight } from './in-flight';

describe('InFlight', () => {
  it('settles after everything tracked, also work started meanwhile, and reports failures without throwing', async () => {
    const errors: unknown[] = [];
    const f = new InFlight((err) => errors.push(err));
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    f.track(
      gate.then(() => {
        order.push('a');
        f.track(Promise.resolve().then(() => order.push('b')));
      }),
    );
    f.track(Promise.reject(new Error('boom')));
    expect(f.size).toBe(2);
    const settled = f.settled().then(() => order.push('settled'));
    release();
    await settled;
    expect(order).toEqual(['a', 'b', 'settled']);
    expect(errors).toHaveLength(1);
    expect(f.size).toBe(0);
  });

  it('takes an error handler per piece of work', async () => {
    const own: unknown[] = [];
    const f = new InFlight(() => own.push('default'));
    f.track(Promise.reject(new Error('x')), () => own.push('mine'));
    await f.settled();
    expect(own).toEqual(['mine']);
  });
});
