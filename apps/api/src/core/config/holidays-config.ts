import { readFileSync } from 'node:fs';
import { HolidayFileSchema, holidayYears, mergeHolidayYears, NATIONAL_HOLIDAYS, type HolidayYear } from '@wantuo/shared';

/** The national holiday table the API applies (导入法定节假日): the built-in years and NATIONAL_HOLIDAYS_FILE's. */
export interface NationalHolidaysConfig {
  /** packages/shared NATIONAL_HOLIDAYS merged with the file's years (a year of the file replaces the built-in one) */
  table: Readonly<Record<number, HolidayYear>>;
  /** the years that came from the file, in order */
  fileYears: number[];
  /** the file as given; null: the built-in table only */
  file: string | null;
}

/**
 * Reads NATIONAL_HOLIDAYS_FILE (a JSON array of years shaped as NATIONAL_HOLIDAYS' entries, checked by
 * HolidayFileSchema): the State Council's next year can be added without a release. A file that cannot be read, is not
 * JSON or breaks a rule adds a problem naming the variable, the file and where (the start stops).
 */
export function nationalHolidaysConfig(file: string | undefined, problems: string[]): NationalHolidaysConfig {
  const builtIn: NationalHolidaysConfig = { table: NATIONAL_HOLIDAYS, fileYears: [], file: null };
  if (!file) return builtIn;
  const named = `  NATIONAL_HOLIDAYS_FILE=${JSON.stringify(file)}`;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    problems.push(`${named}: ${(e as NodeJS.ErrnoException).code ? 'cannot be read' : `not JSON (${(e as Error).message})`}`);
    return builtIn;
  }
  const parsed = HolidayFileSchema.safeParse(raw);
  if (!parsed.success) {
    for (const i of parsed.error.issues) problems.push(`${named}: ${i.path.length ? `[${i.path.join('.')}] ` : ''}${i.message}`);
    return builtIn;
  }
  const table = mergeHolidayYears(NATIONAL_HOLIDAYS, parsed.data);
  return { table, fileYears: holidayYears(Object.fromEntries(parsed.data.map((y) => [y.year, y]))), file };
}
