/**
 * Which contract each attended day of a student uses (issue 11, item 3): a pure rule shared by the live projection
 * and `contracts:rebuild`, so both give the same answer whatever order the days were entered or voided in.
 *
 * The rule for overlapping contracts: the student's active day/session contracts in order of start day (then id);
 * the entered days in date order; each day goes to the first contract in that order whose period covers it and that
 * still has units left after the earlier days. A day no such contract covers (outside every period, or every covering
 * contract used up) uses nothing.
 */

export interface CountedContract {
  id: number;
  student_id: number;
  /** YYYY-MM-DD, inclusive */
  start_day: string;
  /** YYYY-MM-DD, inclusive */
  end_day: string;
  units_total: number;
}

export interface UsageRow {
  contract_id: number;
  day: string;
  student_id: number;
}

/** The usage of one student's days: `contracts` and `days` are that student's (any order; days distinct). */
export function allocateDays(contracts: readonly CountedContract[], days: readonly string[]): UsageRow[] {
  const order = [...contracts].sort((a, b) => (a.start_day < b.start_day ? -1 : a.start_day > b.start_day ? 1 : a.id - b.id));
  const left = order.map((c) => c.units_total);
  const rows: UsageRow[] = [];
  for (const day of [...days].sort()) {
    const i = order.findIndex((c, k) => left[k] > 0 && c.start_day <= day && day <= c.end_day);
    if (i < 0) continue;
    left[i]--;
    rows.push({ contract_id: order[i].id, day, student_id: order[i].student_id });
  }
  return rows;
}

/** The usage of many students: contracts and entered days of all of them, grouped here. */
export function allocateAll(contracts: readonly CountedContract[], days: ReadonlyArray<{ student_id: number; day: string }>): UsageRow[] {
  const byStudent = new Map<number, { contracts: CountedContract[]; days: string[] }>();
  const of = (id: number) => byStudent.get(id) ?? byStudent.set(id, { contracts: [], days: [] }).get(id)!;
  for (const c of contracts) of(c.student_id).contracts.push(c);
  for (const d of days) if (byStudent.has(d.student_id)) of(d.student_id).days.push(d.day);
  return [...byStudent.values()].flatMap((s) => allocateDays(s.contracts, s.days));
}
