import { pickupKeyPair, signPickupCode, type FlowBoard } from '@wantuo/shared';
import { describe, expect, it } from 'vitest';
import { leavingWith } from './pickup-scan';

const row = (id: number, name: string, state: string) => ({ id, name, state }) as unknown as FlowBoard['students'][number];
const board = {
  day: '2026-09-01',
  position: 0,
  students: [row(1, '甲', 'in_centre'), row(2, '乙', 'in_centre'), row(3, '丙', 'expected'), row(4, '丁', 'left')],
};
const { privateKey } = pickupKeyPair();
const code = (students: number[]) => signPickupCode(privateKey, { school: 1, person: { kind: 'g', id: 9 }, students, nowMs: Date.now() });

describe('扫码放学: the children a code collects here', () => {
  it('those of its children on the list who are in the centre', () => {
    expect(leavingWith(code([1, 2, 3, 4]), board)).toEqual([
      { id: 1, name: '甲' },
      { id: 2, name: '乙' },
    ]);
  });
  it('none for a code of children not on the list, not in the centre, a malformed code or no list yet', () => {
    expect(leavingWith(code([7, 8]), board)).toEqual([]);
    expect(leavingWith(code([3, 4]), board)).toEqual([]);
    expect(leavingWith('PK1.nonsense', board)).toEqual([]);
    expect(leavingWith(code([1]), undefined)).toEqual([]);
  });
});
