const Sequencer = require('@jest/test-sequencer').default;

/**
 * The API's spec files run on two workers. A fresh checkout (CI) has no timings from an earlier run, so jest would
 * order them by file size and might start the longest (the catalogue-wide fuzz run: about two minutes, a quarter of
 * the whole) last, leaving one worker idle at the end. These files, the longest measured, go first in this order; the
 * rest follow in jest's own order (earlier failures and timings when it has them, else size).
 */
const LONGEST_FIRST = [
  'test/fuzz.spec.ts',
  'test/embedded.spec.ts',
  'test/two-zone.spec.ts',
  'src/modules/staff/staff.spec.ts',
  'src/modules/teaching/teaching.spec.ts',
  'src/modules/notices/notices-embedded.spec.ts',
  'src/core/auth/catalogue.spec.ts',
  'src/modules/live/live.spec.ts',
];

class LongestFirst extends Sequencer {
  async sort(tests) {
    const ordered = await super.sort(tests);
    const rank = (t) => {
      const p = t.path.replace(/\\/g, '/');
      const i = LONGEST_FIRST.findIndex((f) => p.endsWith(`/${f}`));
      return i === -1 ? LONGEST_FIRST.length : i;
    };
    return [...ordered].sort((a, b) => rank(a) - rank(b));
  }
}

module.exports = LongestFirst;
