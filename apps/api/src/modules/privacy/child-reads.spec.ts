import { DECLARED, LOGGED_ACTION_LABELS } from '@wantuo/shared';
import type { z } from 'zod';
import { CHILD_READS, NOT_LOGGED } from './child-reads';

/** Fields that make an answer a read of a child's personal data beyond a name and a class. */
const SENSITIVE = new Set(['guardians', 'pickup_people', 'allergies', 'photo_url', 'photos', 'guardian_mobile', 'birthday']);

type Def = { type: string; shape?: Record<string, z.ZodType>; element?: z.ZodType; innerType?: z.ZodType; options?: z.ZodType[]; out?: z.ZodType };
const defOf = (t: z.ZodType): Def => (t as unknown as { _zod: { def: Def } })._zod.def;

/** The sensitive field names anywhere in an answer schema. */
function sensitiveFields(t: z.ZodType, depth = 0): string[] {
  if (depth > 12) return [];
  const d = defOf(t);
  switch (d.type) {
    case 'object':
      return Object.entries(d.shape ?? {}).flatMap(([k, v]) => [...(SENSITIVE.has(k) ? [k] : []), ...sensitiveFields(v, depth + 1)]);
    case 'array':
      return sensitiveFields(d.element!, depth + 1);
    case 'nullable':
    case 'optional':
    case 'default':
    case 'readonly':
      return sensitiveFields(d.innerType!, depth + 1);
    case 'union':
      return d.options!.flatMap((o) => sensitiveFields(o, depth + 1));
    case 'pipe':
      return sensitiveFields(d.out!, depth + 1);
    default:
      return [];
  }
}

describe('every answer carrying children’s data is logged', () => {
  const carrying = DECLARED.filter((d) => sensitiveFields(d.answer as z.ZodType).length > 0).map((d) => d.action as string);

  it('finds the answers that carry such fields (the walker works)', () => {
    expect(carrying).toEqual(expect.arrayContaining(['studentInfo', 'teacherStudentList', 'flowBoard', 'dailyReport']));
  });

  it.each(carrying)('%s is logged or says why not', (action) => {
    expect(Boolean(CHILD_READS[action]) !== Boolean(NOT_LOGGED[action])).toBe(true);
  });

  it('names every logged read, call and download for the admin’s log and the download’s sheet', () => {
    for (const a of [...Object.keys(CHILD_READS), 'callGuardian', 'childDataExport', 'studentExport', 'examScoreExport', 'contractExport'])
      expect([a, LOGGED_ACTION_LABELS[a]?.zh]).toEqual([a, expect.any(String)]);
  });

  it('lists only declared actions', () => {
    const declared = new Set(DECLARED.map((d) => d.action as string));
    for (const a of [...Object.keys(CHILD_READS), ...Object.keys(NOT_LOGGED)]) expect(declared.has(a)).toBe(true);
  });
});
