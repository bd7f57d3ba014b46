import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  Code,
  isBirthday,
  isPlainText,
  localDay,
  normaliseMobile,
  readDateCell,
  STUDENT_IMPORT_COLUMNS,
  STUDENT_IMPORT_LIMITS,
  STUDENT_NAME_RE,
  t,
  type Lang,
  type MessageKey,
  type StudentExportInput,
  type StudentImportResult,
} from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { schoolTimeZone } from '../../core/database/school-zone';
import { AppError } from '../../core/http/app-error';
import type { FileAnswer } from '../../core/http/send-file';
import { sheet, xlsxFile, type Column as SheetColumn } from '../../core/http/xlsx-file';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import type { Queryable } from '../../core/database/sql-kit';
import { ChildAccessLog } from '../privacy/access-log.service';
import { decodeCsvText, isZip, readFirstSheet } from './sheet-read';
import { StudentsRepository } from './students.repository';
import { StudentsService } from './students.service';

/** A file answer: bytes, content type and the (possibly Chinese) file name. */

export const CSV_TYPE = 'text/csv; charset=utf-8';

type Column = (typeof STUDENT_IMPORT_COLUMNS)[number];

/** One valid row of an import, ready to insert. */
interface ImportRow {
  row: number;
  name: string;
  gender: 1 | 2 | null;
  birthday: string | null;
  day_school: string | null;
  grade: string | null;
  class_name: string | null;
  allergies: string | null;
  notes: string | null;
  guardian_name: string;
  guardian_mobile: string;
  relation: string;
  needs_shuttle: boolean;
  needs_dinner: boolean;
}

const MAX_LEN: Record<Column, number> = {
  姓名: 32,
  性别: 4,
  出生日期: 20,
  就读学校: 100,
  年级: 20,
  班级: 20,
  过敏信息: 500,
  备注: 1000,
  监护人姓名: 32,
  监护人手机: 20,
  与学生关系: 20,
  需要接送: 5,
  需要晚餐: 5,
};
const REQUIRED: Column[] = ['姓名', '监护人姓名', '监护人手机', '与学生关系'];
/** The template's column widths; the mobile and the birthday are text columns (Excel keeps them as typed). */
const TEMPLATE_WIDTH: Record<Column, number> = {
  姓名: 14,
  性别: 6,
  出生日期: 12,
  就读学校: 20,
  年级: 10,
  班级: 10,
  过敏信息: 20,
  备注: 20,
  监护人姓名: 12,
  监护人手机: 14,
  与学生关系: 10,
  需要接送: 8,
  需要晚餐: 8,
};
const TEXT_COLUMNS: Column[] = ['出生日期', '监护人手机'];
const NOTES: Record<Column, string> = {
  姓名: '必填，最多 32 个字符',
  性别: '男 / 女，可不填',
  出生日期: '如 2018-09-01，可不填',
  就读学校: '孩子白天就读的学校，最多 100 个字符',
  年级: '如 三年级，最多 20 个字符',
  班级: '如 2班，最多 20 个字符',
  过敏信息: '最多 500 个字符',
  备注: '最多 1000 个字符',
  监护人姓名: '必填，家长账号的昵称',
  监护人手机: '必填，11 位手机号；家长用此手机号和短信验证码登录',
  与学生关系: '必填，如 妈妈、爸爸、奶奶',
  需要接送: '是 / 否，不填为否',
  需要晚餐: '是 / 否，不填为否',
};

/** RFC 4180 CSV (quotes, doubled quotes, CR LF), a BOM skipped; `separator` a tab for Excel's "Unicode 文本". */
export function parseCsv(text: string, separator: ',' | '\t' = ','): string[][] {
  const s = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quoted) {
      if (c === '"') {
        if (s[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === separator) {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && s[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

const csvField = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
/** CSV with a BOM, so that Excel opens the UTF-8 text as such. */
export const toCsv = (rows: string[][]) => Buffer.from(`\ufeff${rows.map((r) => r.map(csvField).join(',')).join('\r\n')}\r\n`, 'utf8');

/** A birthday as typed, as a date cell or as an Excel serial (import-cells), when it is one (1990 to today). */
function normalizeDate(v: string, date1904: boolean): string | null {
  const d = readDateCell(v, date1904);
  return d && isBirthday(d) ? d : null;
}
const GENDERS = new Map<string, 1 | 2 | null>([
  ['男', 1],
  ['女', 2],
  ['1', 1],
  ['2', 2],
  ['m', 1],
  ['f', 2],
  ['', null],
]);
const YES = new Set(['是', 'y', 'yes', '1', 'true', '需要']);
const NO = new Set(['否', 'n', 'no', '0', 'false', '不需要', '']);

@Injectable()
export class StudentsIoService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly students: StudentsService,
    private readonly repo: StudentsRepository,
    private readonly log: ChildAccessLog,
  ) {}

  async template(format: 'xlsx' | 'csv'): Promise<FileAnswer> {
    if (format === 'csv') return { body: toCsv([[...STUDENT_IMPORT_COLUMNS]]), contentType: CSV_TYPE, filename: '学生导入模板.csv' };
    return xlsxFile('学生导入模板.xlsx', [
      sheet({
        name: '学生',
        rows: [],
        columns: STUDENT_IMPORT_COLUMNS.map((c) => ({
          header: c,
          value: () => null,
          width: TEMPLATE_WIDTH[c],
          format: TEXT_COLUMNS.includes(c) ? '@' : undefined,
        })),
      }),
      {
        name: '填写说明',
        header: true,
        rows: [
          ['列', '说明'],
          ...STUDENT_IMPORT_COLUMNS.map((c) => [c, NOTES[c]]),
          [],
          ['', '每行一名学生和一位监护人；同名且监护人手机相同的学生视为重复。请在“学生”工作表中填写，导入前先检查。'],
        ],
        widths: [14, 60],
      },
    ]);
  }

  /**
   * The filtered list as .xlsx or .csv: guardians' mobiles masked unless `unmasked` is '1' (the admin's whole numbers);
   * recorded in the access log (one row with every exported child) before the file leaves.
   */
  async export(user: SchoolCaller, f: StudentExportInput): Promise<FileAnswer> {
    const { format: _, unmasked, ...filters } = f;
    const [list, tz] = await Promise.all([
      this.students.listAll(user, filters, unmasked === '1' ? 'full' : 'masked'),
      schoolTimeZone(this.db, user.schoolId),
    ]);
    await this.log.record(
      user,
      list.map((s) => s.id),
      ['export', 'profile', 'guardians', 'health'],
    );
    const columns: Array<SheetColumn<(typeof list)[number]>> = [
      { header: 'ID', value: (s) => s.id, width: 8 },
      { header: '姓名', value: (s) => s.name, width: 12 },
      { header: '性别', value: (s) => (s.gender === 1 ? '男' : s.gender === 2 ? '女' : ''), width: 6 },
      { header: '出生日期', value: (s) => s.birthday ?? '', width: 12 },
      { header: '就读学校', value: (s) => s.day_school ?? '', width: 20 },
      { header: '年级', value: (s) => s.grade ?? '', width: 10 },
      { header: '班级', value: (s) => s.class_name ?? '', width: 10 },
      { header: '托管班', value: (s) => s.care_class?.name ?? '', width: 16 },
      { header: '监护人', value: (s) => s.guardians.map((g) => `${g.name}（${g.relation}）${g.mobile}`).join('；'), width: 40 },
      { header: '过敏信息', value: (s) => s.allergies ?? '', width: 20 },
      { header: '需要接送', value: (s) => (s.needs_shuttle ? '是' : '否'), width: 8 },
      { header: '需要晚餐', value: (s) => (s.needs_dinner ? '是' : '否'), width: 8 },
      { header: '辅导类型', value: (s) => s.tutoring_type ?? '', width: 12 },
      { header: '状态', value: (s) => (s.status === 1 ? '在读' : '已归档'), width: 8 },
      // the day the student was registered and the file's day: the school's local days, not cut from UTC instants
      { header: '登记时间', value: (s) => localDay(s.created_at, tz), width: 12 },
    ];
    const stamp = localDay(new Date(), tz).replace(/-/g, '');
    if (f.format === 'csv') {
      const csv = [columns.map((c) => c.header), ...list.map((s) => columns.map((c) => String(c.value(s) ?? '')))];
      return { body: toCsv(csv), contentType: CSV_TYPE, filename: `学生名单-${stamp}.csv` };
    }
    return xlsxFile(`学生名单-${stamp}.xlsx`, [sheet({ name: '学生名单', rows: list, columns })]);
  }

  /**
   * Reads the file's rows (header first) as text, and the workbook's date system. An .xlsx is refused before it is
   * loaded when it unpacks to more than a sheet of the largest import could; a .csv is read in the encodings Excel
   * saves it in (sheet-read).
   */
  private async readRows(file: Buffer): Promise<{ rows: string[][]; date1904: boolean }> {
    if (isZip(file)) {
      return readFirstSheet(
        file,
        { maxRows: STUDENT_IMPORT_LIMITS.maxRows, columns: STUDENT_IMPORT_COLUMNS.length },
        { badFile: 'stu.import_bad_file', unzippedTooLarge: 'stu.import_unzipped_too_large', tooManyRows: 'stu.import_too_many_rows' },
      );
    }
    const csv = decodeCsvText(file);
    if (!csv) throw new AppError('stu.import_bad_file');
    return { rows: parseCsv(csv.text, csv.tabs ? '\t' : ','), date1904: false };
  }

  /** Checks every row (dry run), or imports all rows in one transaction when none has a problem. */
  async import(user: SchoolCaller, file: { buffer: Buffer; size: number } | undefined, dryRun: boolean, lang: Lang): Promise<StudentImportResult> {
    if (!file || file.size === 0) throw new AppError('stu.import_no_file');
    if (file.size > STUDENT_IMPORT_LIMITS.maxBytes) throw new AppError('stu.import_too_large', { max: '5 MB' });
    const schoolId = user.schoolId;
    const { rows: raw, date1904 } = await this.readRows(file.buffer);
    const header = (raw[0] ?? []).map((h) => h.trim());
    const missing = STUDENT_IMPORT_COLUMNS.filter((c) => !header.includes(c));
    if (missing.length) throw new AppError('stu.import_bad_header', { columns: missing.join('、') });
    const at = Object.fromEntries(STUDENT_IMPORT_COLUMNS.map((c) => [c, header.indexOf(c)])) as Record<Column, number>;
    const data = raw
      .map((cells, i) => ({ row: i + 1, cells }))
      .slice(1)
      .filter((r) => r.cells.some((c) => c.trim() !== ''));
    if (!data.length) throw new AppError('stu.import_empty');
    if (data.length > STUDENT_IMPORT_LIMITS.maxRows) throw new AppError('stu.import_too_many_rows', { max: STUDENT_IMPORT_LIMITS.maxRows });

    const problems: StudentImportResult['problems'] = [];
    const bad = new Set<number>();
    let rowCols = new Set<string>();
    const problem = (row: number, column: string, key: MessageKey, params: Record<string, string | number> = {}) => {
      bad.add(row);
      rowCols.add(column);
      problems.push({ row, column, message: t(lang, key, params) });
    };
    const rows: ImportRow[] = [];
    for (const { row, cells } of data) {
      rowCols = new Set<string>();
      const v = {} as Record<Column, string>;
      for (const c of STUDENT_IMPORT_COLUMNS) v[c] = (cells[at[c]] ?? '').trim();
      for (const c of STUDENT_IMPORT_COLUMNS) {
        if (REQUIRED.includes(c) && !v[c]) problem(row, c, 'stu.imp.required');
        else if (v[c].length > MAX_LEN[c]) problem(row, c, 'stu.imp.too_long', { max: MAX_LEN[c] });
        else if (v[c] && !isPlainText(v[c])) problem(row, c, 'stu.imp.plain');
      }
      const ok = (c: Column) => !rowCols.has(c);
      if (v.姓名 && ok('姓名') && !STUDENT_NAME_RE.test(v.姓名)) problem(row, '姓名', 'stu.imp.name_invalid');
      if (v.监护人姓名 && ok('监护人姓名') && !STUDENT_NAME_RE.test(v.监护人姓名)) problem(row, '监护人姓名', 'stu.imp.name_invalid');
      // a mobile as typed (spaces, dashes, +86 / 0086): its 11 digits are what the parent signs in with
      const mobile = v.监护人手机 ? normaliseMobile(v.监护人手机) : null;
      if (v.监护人手机 && ok('监护人手机') && !mobile) problem(row, '监护人手机', 'stu.imp.mobile_invalid');
      const gender = GENDERS.get(v.性别.toLowerCase());
      if (gender === undefined && ok('性别')) problem(row, '性别', 'stu.imp.gender_invalid');
      const birthday = v.出生日期 ? normalizeDate(v.出生日期, date1904) : null;
      if (v.出生日期 && !birthday && ok('出生日期')) problem(row, '出生日期', 'stu.imp.date_invalid');
      const yesNo = (c: '需要接送' | '需要晚餐') => {
        const x = v[c].toLowerCase();
        if (YES.has(x)) return true;
        if (!NO.has(x) && ok(c)) problem(row, c, 'stu.imp.yesno_invalid');
        return false;
      };
      const needs_shuttle = yesNo('需要接送');
      const needs_dinner = yesNo('需要晚餐');
      if (bad.has(row)) continue;
      rows.push({
        row,
        name: v.姓名,
        gender: gender ?? null,
        birthday,
        day_school: v.就读学校 || null,
        grade: v.年级 || null,
        class_name: v.班级 || null,
        allergies: v.过敏信息 || null,
        notes: v.备注 || null,
        guardian_name: v.监护人姓名,
        guardian_mobile: mobile!,
        relation: v.与学生关系,
        needs_shuttle,
        needs_dinner,
      });
    }
    // duplicates within the file
    const seen = new Map<string, number>();
    for (const r of rows) {
      const key = `${r.name}\u0000${r.guardian_mobile}`;
      const first = seen.get(key);
      if (first) problem(r.row, '姓名', 'stu.imp.dup_file', { row: first });
      else seen.set(key, r.row);
    }
    const check = async (em: Queryable) => {
      const candidates = rows.filter((r) => !bad.has(r.row));
      if (!candidates.length) return;
      const dups = await this.repo.duplicates(
        em,
        schoolId,
        candidates.map((r) => r.name),
        candidates.map((r) => r.guardian_mobile),
      );
      const dupKeys = new Set(dups.map((d) => `${d.name}\u0000${d.mobile}`));
      const staff = await this.repo.staffMobiles(em, schoolId, [...new Set(candidates.map((r) => r.guardian_mobile))]);
      const staffMobiles = new Set(staff.map((s) => s.mobile));
      // a health note needs the guardian's consent, which a new student has only when the column's default gives it
      // (null in production: allergies are entered after a guardian consents)
      const health = candidates.some((r) => r.allergies) ? (await this.students.newStudentConsents(em)).health : true;
      for (const r of candidates) {
        if (dupKeys.has(`${r.name}\u0000${r.guardian_mobile}`)) problem(r.row, '姓名', 'stu.imp.dup_db');
        if (staffMobiles.has(r.guardian_mobile)) problem(r.row, '监护人手机', 'stu.imp.mobile_not_parent');
        if (r.allergies && !health) problem(r.row, '过敏信息', 'privacy.health_consent_required', { name: r.name });
      }
    };
    const result = (imported: number): StudentImportResult => {
      problems.sort((a, b) => a.row - b.row);
      return {
        dry_run: dryRun,
        total: data.length,
        valid: data.length - bad.size,
        problems: problems.slice(0, STUDENT_IMPORT_LIMITS.maxProblems),
        imported,
      };
    };
    if (dryRun || bad.size) {
      await check(this.db);
      if (!dryRun && bad.size) throw new AppError('stu.import_has_problems', { count: problems.length }, Code.Error, result(0));
      return result(0);
    }
    return this.db.transaction(async (em) => {
      await this.students.lockSchool(em, schoolId);
      await check(em);
      if (bad.size) throw new AppError('stu.import_has_problems', { count: problems.length }, Code.Error, result(0));
      const parents = await this.students.ensureParents(
        em,
        schoolId,
        rows.map((r) => ({ mobile: r.guardian_mobile, name: r.guardian_name })),
      );
      const ids = await this.repo.nextIds(em, rows.length);
      const students = rows.map((r, i) => ({ ...r, id: ids[i], user_id: parents.get(r.guardian_mobile)! }));
      await this.repo.insertMany(em, schoolId, students);
      await this.repo.insertGuardians(
        em,
        schoolId,
        students.map((s) => ({ student_id: s.id, user_id: s.user_id, relation: s.relation, is_primary: true })),
      );
      return result(students.length);
    });
  }
}
