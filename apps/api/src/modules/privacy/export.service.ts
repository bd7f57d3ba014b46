import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  localDay,
  loggedActionLabel,
  maskMobile,
  MEAL_BOOKING_STATUS_LABELS,
  Role,
  CONTRACT_STATE_LABELS,
  type ContractState,
  type MealBookingStatus,
} from '@wantuo/shared';
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../core/config/config';
import { AppError } from '../../core/http/app-error';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import type { FileAnswer } from '../../core/http/send-file';
import { sheet, xlsxFile, type Column } from '../../core/http/xlsx-file';
import { ChildAccessLog } from './access-log.service';
import { ChildExportRepository, EXPORT_SHEETS, type ExportRow, type ExportSheet } from './export.repository';

const yesNo = (v: unknown) => (v === true ? '是' : v === false ? '否' : '');
const agreed = (v: unknown) => (v === true ? '已同意' : v === false ? '未同意' : '未询问');

/** Each sheet's name in the workbook and its columns (header, the row's field, how it reads), in the order shown. */
const SHEETS: Record<ExportSheet, { name: string; columns: Array<[string, string, ((v: unknown) => string | number | null)?]> }> = {
  profile: {
    name: '基本信息',
    columns: [
      ['姓名', 'name'],
      ['性别', 'gender'],
      ['出生日期', 'birthday'],
      ['就读学校', 'day_school'],
      ['年级', 'grade'],
      ['班级', 'class_name'],
      ['过敏与健康', 'allergies'],
      ['备注', 'notes'],
      ['需要接送', 'needs_shuttle', yesNo],
      ['需要晚餐', 'needs_dinner', yesNo],
      ['辅导类型', 'tutoring_type'],
      ['状态', 'status'],
      ['照片授权', 'photo_consent', agreed],
      ['健康信息授权', 'health_consent', agreed],
      ['入学登记时间', 'created_at'],
      ['离校时间', 'archived_at'],
    ],
  },
  guardians: {
    name: '监护人',
    columns: [
      ['姓名', 'name'],
      ['关系', 'relation'],
      ['手机号', 'mobile'],
      ['主要监护人', 'is_primary', yesNo],
      ['同意隐私政策时间', 'consented_at'],
    ],
  },
  pickup: {
    name: '接送人',
    columns: [
      ['姓名', 'name'],
      ['关系', 'relation'],
      ['手机号', 'mobile'],
      ['有照片', 'photo_url', (v) => yesNo(v !== null)],
      ['登记时间', 'created_at'],
    ],
  },
  days: {
    name: '每日考勤',
    columns: [
      ['日期', 'day'],
      ['请假', 'on_leave', yesNo],
      ['接到', 'picked_up_at'],
      ['入园', 'entered_at'],
      ['晚餐', 'dinner_at'],
      ['辅导开始', 'tutor_started_at'],
      ['辅导结束', 'tutor_ended_at'],
      ['离园', 'left_at'],
      ['接走人', 'left_with'],
    ],
  },
  leave: {
    name: '请假',
    columns: [
      ['开始', 'start_day'],
      ['结束', 'end_day'],
      ['事由', 'reason'],
      ['状态', 'status'],
      ['审核意见', 'review_note'],
      ['提交时间', 'created_at'],
    ],
  },
  comments: {
    name: '每日点评',
    columns: [
      ['日期', 'day'],
      ['快捷评语', 'presets'],
      ['点评', 'text'],
      ['照片数', 'photos'],
      ['老师', 'author'],
    ],
  },
  growth: {
    name: '成长评语',
    columns: [
      ['类型', 'kind', (v) => (v === 'growth' ? '成长记录' : '综合评语')],
      ['学期', 'period'],
      ['内容', 'content'],
      ['老师', 'author'],
      ['时间', 'created_at'],
    ],
  },
  homework: {
    name: '作业',
    columns: [
      ['作业', 'title'],
      ['布置日', 'set_day'],
      ['截止日', 'due_day'],
      ['状态', 'state'],
      ['老师批注', 'note'],
      ['家长留言', 'home_note'],
    ],
  },
  exams: {
    name: '考试成绩',
    columns: [
      ['考试', 'name'],
      ['科目', 'subject'],
      ['日期', 'exam_day'],
      ['缺考', 'absent', yesNo],
      ['成绩', 'score', (v) => (v === null ? null : Number(v))],
      ['满分', 'full_mark'],
    ],
  },
  points: {
    name: '积分',
    columns: [
      ['时间', 'at'],
      ['类型', 'kind'],
      ['变动', 'delta'],
      ['余额', 'balance_after'],
      ['原因', 'reason'],
    ],
  },
  meals: {
    name: '晚餐',
    columns: [
      ['日期', 'day'],
      ['餐品', 'goods'],
      ['价格（元）', 'price_fen'],
      ['状态', 'status', (v) => MEAL_BOOKING_STATUS_LABELS[v as MealBookingStatus]?.zh ?? String(v)],
      ['支付方式', 'pay_from'],
    ],
  },
  contracts: {
    name: '合同与缴费',
    columns: [
      ['合同号', 'no'],
      ['类型', 'kind'],
      ['开始', 'start_day'],
      ['结束', 'end_day'],
      ['总次数', 'units_total'],
      ['已用次数', 'units_used'],
      ['合同金额（元）', 'price_fen'],
      ['已付（元）', 'paid_fen'],
      ['已退（元）', 'refunded_fen'],
      ['状态', 'status', (v) => CONTRACT_STATE_LABELS[v as ContractState]?.zh ?? String(v)],
      ['付款时间', 'paid_at'],
    ],
  },
  receipts: {
    name: '收据',
    columns: [
      ['收据号', 'receipt_no'],
      ['类型', 'kind', (v) => ({ contract: '合同缴费', meal: '晚餐缴费', refund: '退款' })[v as string] ?? String(v)],
      ['项目', 'item'],
      ['开始', 'period_start'],
      ['结束', 'period_end'],
      ['金额（元）', 'amount_fen'],
      ['支付方式', 'method', (v) => ({ wechat: '微信支付', cash: '现金', bank: '银行转账', external: '其他渠道' })[v as string] ?? String(v)],
      ['交易号', 'txn_no'],
      ['付款时间', 'paid_at'],
      ['开具时间', 'issued_at'],
    ],
  },
  messages: {
    name: '家校消息',
    columns: [
      ['时间', 'at'],
      ['一方', 'side', (v) => (v === 'family' ? '家长' : '学校')],
      ['发送人', 'sender_name'],
      ['内容', 'body'],
      ['照片', 'photo', yesNo],
      ['紧急', 'urgent', yesNo],
      ['撤回时间', 'retracted_at'],
    ],
  },
  consents: {
    name: '授权记录',
    columns: [
      ['时间', 'at'],
      ['监护人', 'guardian'],
      ['事项', 'kind', (v) => ({ policies: '隐私政策与儿童个人信息保护规则', photos: '照片', health: '健康信息' })[v as string] ?? String(v)],
      ['同意', 'granted', yesNo],
      ['隐私政策版本', 'privacy_version'],
      ['儿童规则版本', 'children_version'],
    ],
  },
  access: {
    name: '访问记录',
    columns: [
      ['时间', 'at'],
      ['访问人', 'actor'],
      ['内容', 'what'],
      ['操作', 'action', (v) => loggedActionLabel(String(v))],
    ],
  },
};
const MONEY = new Set(['price_fen', 'paid_fen', 'refunded_fen', 'amount_fen']);

const README = (child: string, school: string, day: string) =>
  [
    `${child} 的个人信息副本`,
    `导出机构：${school}`,
    `导出日期：${day}`,
    '',
    '孩子数据.xlsx：每类信息一张表（基本信息、监护人、接送人、每日考勤、请假、每日点评、成长评语、作业、考试成绩、积分、晚餐、合同与缴费、收据、家校消息、授权记录、访问记录）。',
    '照片/：孩子的照片、接送人照片、点评与作业照片。',
    '其他监护人的手机号已部分隐藏。如发现信息有误，可在“我的 → 隐私与数据”中申请更正；也可申请删除。',
    '本文件包含儿童个人信息，请妥善保管，不要转发。',
    '',
  ].join('\r\n');

/**
 * The download of everything held about one child (issue 37, docs/modules/privacy.md "Rights"): a zip with one
 * workbook (a sheet per kind of data) and the child's photos; a guardian their own child, the admin any child of the
 * school. Every download is logged as an export. Other guardians' numbers are masked for a guardian.
 */
@Injectable()
export class ChildExportService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly accessLog: ChildAccessLog,
  ) {}

  async export(user: SchoolCaller, studentId: number): Promise<FileAnswer> {
    const repo = new ChildExportRepository(this.db.manager);
    const child = await repo.child(user.schoolId, studentId);
    if (!child) throw new AppError('privacy.not_found');
    if (user.role === Role.Parent && !(await repo.isGuardian(child.school_id, child.id, user.id))) throw new AppError('privacy.not_found');
    const [data, photos] = await Promise.all([repo.sheets(child.school_id, child.id), repo.photoPaths(child.school_id, child.id)]);
    if (user.role === Role.Parent)
      data.guardians = data.guardians.map((g) =>
        g.user_id === user.id || typeof g.mobile !== 'string' ? g : { ...g, mobile: maskMobile(g.mobile) },
      );

    const day = localDay(new Date(), child.timezone);
    const workbook = await xlsxFile(
      '孩子数据.xlsx',
      EXPORT_SHEETS.map((k) => sheetOf(k, data[k])),
    );
    const { default: JSZip } = await import('jszip');
    const zip = new JSZip();
    zip.file('说明.txt', README(child.name, child.school_name, day));
    zip.file('孩子数据.xlsx', workbook.body);
    for (const p of photos) {
      const bytes = await readFile(join(this.config.uploadDir, p.storage_path)).catch(() => null);
      if (bytes) zip.file(`照片/${PHOTO_FOLDERS[p.kind] ?? p.kind}/${basename(p.storage_path)}`, bytes);
    }
    const body = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
    await this.accessLog.record(user, [child.id], ['export', 'profile', 'guardians', 'pickup', 'health', 'photos']);
    return { body, contentType: 'application/zip', filename: `${child.name}-个人信息-${day.replace(/-/g, '')}.zip` };
  }
}

const PHOTO_FOLDERS: Record<string, string> = { profile: '孩子', pickup: '接送人', comments: '点评', homework: '作业', messages: '家校消息' };

function sheetOf(kind: ExportSheet, rows: ExportRow[]) {
  const def = SHEETS[kind];
  const columns: Column<ExportRow>[] = def.columns.map(([header, field, read]) => ({
    header,
    value: (r) => (read ? read(r[field]) : (r[field] as string | number | null)),
    width: Math.max(10, header.length * 2 + 4),
    money: MONEY.has(field),
  }));
  return sheet<ExportRow>({ name: def.name, rows, columns });
}
