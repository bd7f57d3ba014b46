import { readdirSync } from 'fs';
import { join } from 'path';
import type { Bilingual } from './bilingual';
import { isMessageKey, t } from './index';

/** Every table of the folder (one file per module prefix), read from the disk so that a new file is checked too. */
const tables: [file: string, table: Record<string, Bilingual>][] = readdirSync(__dirname)
  .filter((file) => file.endsWith('.ts') && !file.endsWith('.spec.ts') && file !== 'index.ts' && file !== 'bilingual.ts')
  .sort()
  .map((file) => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const exported = Object.values(require(join(__dirname, file)) as Record<string, Record<string, Bilingual>>);
    expect(exported).toHaveLength(1);
    return [file, exported[0]];
  });

const rows = tables.flatMap(([file, table]) => Object.entries(table).map(([key, text]) => [file, key, text] as const));
const marks = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('messages', () => {
  it('reads every table of the folder', () => {
    expect(tables.length).toBeGreaterThan(10);
    expect(rows.length).toBeGreaterThan(600);
  });

  it('has each key in one file only', () => {
    const files = new Map<string, string[]>();
    for (const [file, key] of rows) files.set(key, [...(files.get(key) ?? []), file]);
    expect([...files].filter(([, where]) => where.length > 1)).toEqual([]);
  });

  it.each(rows)('%s: %s has zh and en texts with the same {marks}', (_file, key, text) => {
    expect(Object.keys(text).sort()).toEqual(['en', 'zh']);
    expect(text.zh.trim()).not.toBe('');
    expect(text.en.trim()).not.toBe('');
    expect(marks(text.en)).toEqual(marks(text.zh));
    expect(isMessageKey(key)).toBe(true);
    expect(t('zh-CN', key as Parameters<typeof t>[1])).toBe(text.zh);
    expect(t('en', key as Parameters<typeof t>[1])).toBe(text.en);
  });

  it('tells message keys from other strings', () => {
    expect(isMessageKey('contracts.not_found')).toBe(true);
    expect(isMessageKey('contracts.nope')).toBe(false);
    expect(isMessageKey('toString')).toBe(false);
  });

  it('fills {marks} from params and leaves unknown ones as they are', () => {
    expect(t('en', 'store.out_of_stock', { name: 'Pen', stock: 2 })).toBe('Not enough stock of "Pen" (2 left)');
    expect(t('zh-CN', 'error.rate_limited')).toBe('操作过于频繁，请 {seconds} 秒后再试');
  });
});
