import { BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  localDateTime,
  monthSpan,
  RECEIPT_KIND_LABELS,
  RECEIPT_METHOD_LABELS,
  receiptNo,
  Role,
  type AdminReceiptListQuery,
  type ParentReceiptListQuery,
  type ReceiptRow,
  type ReceiptsPage,
  type ReceiptStampInfo,
} from '@wantuo/shared';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { DataSource, type EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../core/config/config';
import { schoolTimeZone } from '../../core/database/school-zone';
import { pageOf } from '../../core/database/sql-kit';
import { DomainEvents } from '../../core/events/domain-events';
import { InFlight } from '../../core/events/in-flight';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { AppError } from '../../core/http/app-error';
import type { FileAnswer } from '../../core/http/send-file';
import { sheet, xlsxFile } from '../../core/http/xlsx-file';
import { LOGGER } from '../../core/logging/logger';
import { FilesService, UPLOAD_LIMITS, type IncomingFile } from '../site/files.service';
import { sniffFileKind } from '../site/file-types';
import { canEmbedImage, renderReceiptPdf } from './receipt-pdf';
import { RECEIPTED_KINDS, ReceiptsRepository, type ReceiptSource, type SourceScope } from './receipts.repository';

/** The `receipts.sweep` job: at most this many sources a run (the next run takes the rest). */
export const RECEIPT_SWEEP_BATCH = 500;

/** A concurrent issue of the same source won: this transaction's counter increment is rolled back with it. */
class AlreadyIssued extends Error {}

/**
 * Issues every receipt of the sources in the scope that have none (payments and desk payments first, then the
 * refunds, whose originals are then there), each in a transaction of its own: the school's counter taken, the snapshot
 * written. Answers how many it issued. Used by the service (a DataSource) and by the demo's seed (inside its
 * transaction: `em`), which `backdate`s each receipt to when its money moved and so issues them one at a time in that
 * order (the earliest payment or refund without a receipt next), so that the numbers follow the issue times.
 */
export async function issueReceipts(
  db: DataSource | EntityManager,
  scope: SourceScope,
  opts: { backdate?: boolean; log?: Logger } = {},
): Promise<number> {
  const repo = new ReceiptsRepository(db);
  let issued = 0;
  if (opts.backdate) {
    for (;;) {
      const [p] = await repo.paymentSources({ ...scope, limit: 1 });
      const [r] = await repo.refundSources({ ...scope, limit: 1 });
      const next = p && r ? (r.paid_at < p.paid_at ? r : p) : (p ?? r);
      if (!next) return issued;
      if (!(await issueOne(db, next, next.paid_at))) throw new Error(`receipt of ${next.source} was not issued`);
      issued++;
    }
  }
  for (const pass of ['payments', 'refunds'] as const) {
    const sources = pass === 'payments' ? await repo.paymentSources(scope) : await repo.refundSources(scope);
    for (const s of sources) {
      try {
        if (await issueOne(db, s, null)) issued++;
      } catch (err) {
        if (!opts.log) throw err;
        opts.log.error({ err, source: s.source }, 'a receipt could not be issued: the next sweep tries again');
      }
    }
  }
  return issued;
}

/** One receipt, in one transaction: the counter row (locked until commit) and the snapshot; false when it existed. */
async function issueOne(db: DataSource | EntityManager, s: ReceiptSource, issuedAt: Date | null): Promise<boolean> {
  try {
    return await db.transaction(async (em) => {
      const repo = new ReceiptsRepository(em);
      if (await repo.issuedFor(s.source)) return false;
      const n = await repo.nextNumber(s.school_id, issuedAt);
      const id = await repo.insert(s, receiptNo(n.year, n.seq), issuedAt);
      if (id === null) throw new AlreadyIssued();
      return true;
    });
  } catch (err) {
    if (err instanceof AlreadyIssued) return false;
    throw err;
  }
}

/**
 * Receipts (收据, issue 40, docs/modules/receipts.md): issued after the commits of what they are for (`payment.paid`
 * of contracts and dinners, `payment.refunded`, `contract.changed` for the desk's payments and refunds) and by the
 * `receipts.sweep` job for whatever those missed; the guardians' and the admin's lists, the PDF, the month's export and
 * the school's stamp.
 */
@Injectable()
export class ReceiptsService implements BeforeApplicationShutdown {
  private readonly inFlight = new InFlight((err) => this.log.error({ err }, 'issuing receipts after a commit failed: the sweep does it'));

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly files: FilesService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly log: Logger,
    events: DomainEvents,
  ) {
    const kinds = new Set<string>(RECEIPTED_KINDS);
    events.on('payment.paid', (e) => {
      if (kinds.has(e.kind)) this.issueAfterCommit({ schoolId: e.school_id, outTradeNo: e.out_trade_no });
    });
    events.on('payment.refunded', (e) => {
      if (kinds.has(e.kind)) this.issueAfterCommit({ schoolId: e.school_id, outRefundNo: e.out_refund_no });
    });
    events.on('contract.changed', (e) => this.issueAfterCommit({ schoolId: e.school_id, contractId: e.contract_id }));
  }

  private issueAfterCommit(scope: SourceScope): void {
    this.inFlight.track(issueReceipts(this.db, scope).then(() => undefined));
  }

  /** The `receipts.sweep` job: every source of every school without its receipt (a crash after a commit loses none). */
  async sweep(): Promise<number> {
    const issued = await issueReceipts(this.db, { limit: RECEIPT_SWEEP_BATCH }, { log: this.log });
    if (issued) this.log.info({ issued }, 'receipts sweep: receipts issued');
    return issued;
  }

  /** Resolves once the receipts of every event received so far are issued (tests, shutdown). */
  async settled(): Promise<void> {
    await this.inFlight.settled();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.settled();
  }

  async parentList(user: SchoolCaller, q: ParentReceiptListQuery): Promise<ReceiptsPage> {
    const { list, total } = await new ReceiptsRepository(this.db).parentPage(user.schoolId, user.id, q, q);
    return pageOf(list, total, q);
  }

  async adminList(user: SchoolCaller, q: AdminReceiptListQuery): Promise<ReceiptsPage> {
    const span = q.month ? monthSpan(q.month) : null;
    const { list, total } = await new ReceiptsRepository(this.db).schoolPage(
      user.schoolId,
      { from: span?.from, to: span?.to, kind: q.kind, keyword: q.keyword },
      q,
    );
    return pageOf(list, total, q);
  }

  /** A receipt's PDF, rendered from its snapshot (the same bytes every time): a guardian's own child's, the admin's school's. */
  async download(user: SchoolCaller, id: number): Promise<FileAnswer> {
    const r = await new ReceiptsRepository(this.db).forPdf(user.schoolId, id, user.role === Role.Parent ? user.id : null);
    if (!r) throw new AppError('receipts.not_found');
    let stamp: Buffer | null = null;
    if (r.stamp_path) {
      stamp = await readFile(join(this.config.uploadDir, r.stamp_path)).catch((err: unknown) => {
        this.log.warn({ err, receipt: r.id }, "a receipt's stamp file is missing: rendered without it");
        return null;
      });
    }
    const body = await renderReceiptPdf(r, stamp);
    return { body, contentType: 'application/pdf', filename: `${r.kind === 'refund' ? '退款收据' : '收据'}-${r.receipt_no}.pdf` };
  }

  /** A month's receipts as .xlsx: times in the school's zone, money in yuan, receipts and refunds in their own columns, totals. */
  async export(user: SchoolCaller, month: string): Promise<FileAnswer> {
    const span = monthSpan(month);
    const zone = await schoolTimeZone(this.db, user.schoolId);
    const { list } = await new ReceiptsRepository(this.db).schoolPage(user.schoolId, { from: span.from, to: span.to }, null);
    const rows = [...list].reverse();
    const period = (r: ReceiptRow) =>
      r.period_start ? (r.period_end && r.period_end !== r.period_start ? `${r.period_start} 至 ${r.period_end}` : r.period_start) : '';
    return xlsxFile(`收据-${month}.xlsx`, [
      sheet<ReceiptRow>({
        name: `收据 ${month}`,
        rows,
        total: true,
        columns: [
          { header: '收据号', value: (r) => r.receipt_no, width: 14, format: '@' },
          { header: '类型', value: (r) => RECEIPT_KIND_LABELS[r.kind].zh, width: 10 },
          { header: '开具时间', value: (r) => localDateTime(r.issued_at, zone), width: 18 },
          { header: '学生', value: (r) => r.student_name, width: 12 },
          { header: '项目', value: (r) => r.item, width: 34 },
          { header: '期间', value: period, width: 24 },
          { header: '支付方式', value: (r) => RECEIPT_METHOD_LABELS[r.method].zh, width: 10 },
          { header: '交易单号', value: (r) => r.txn_no, width: 32, format: '@' },
          { header: '原收据号', value: (r) => r.original_receipt_no ?? '', width: 14, format: '@' },
          { header: '收款（元）', value: (r) => (r.kind === 'refund' ? 0 : r.amount_fen), money: true, sum: true, width: 12 },
          { header: '退款（元）', value: (r) => (r.kind === 'refund' ? r.amount_fen : 0), money: true, sum: true, width: 12 },
        ],
      }),
    ]);
  }

  async stampInfo(user: SchoolCaller): Promise<ReceiptStampInfo> {
    const s = await new ReceiptsRepository(this.db).stamp(user.schoolId);
    return {
      school_name: s.school_name,
      stamp:
        s.file_id && s.storage_path
          ? {
              file_id: s.file_id,
              url: `/uploads/${s.storage_path}`,
              name: s.name ?? '',
              mime: s.mime ?? '',
              size: s.size ?? 0,
              uploaded_at: (s.uploaded_at ?? new Date(0)).toISOString(),
            }
          : null,
    };
  }

  /**
   * The school's stamp for receipts issued from now on: a PNG or JPEG (by its first bytes) within the image upload limit
   * that pdfkit can embed, refused before anything is stored; stored as any upload, then set on the school.
   */
  async uploadStamp(user: SchoolCaller, file: IncomingFile | undefined): Promise<ReceiptStampInfo> {
    if (!file || file.size === 0) throw new AppError('upload.missing_file');
    if (file.size > UPLOAD_LIMITS.avatar) throw new AppError('upload.too_large', { max: `${UPLOAD_LIMITS.avatar / 1024 / 1024} MB` });
    const kind = sniffFileKind(file.buffer, file.originalname);
    if (kind?.mime !== 'image/png' && kind?.mime !== 'image/jpeg') throw new AppError('receipts.stamp_not_image');
    if (!(await canEmbedImage(file.buffer))) throw new AppError('receipts.stamp_unreadable');
    const stored = await this.files.store(file, user, 'avatar');
    try {
      await new ReceiptsRepository(this.db).setStamp(user.schoolId, stored.id);
    } catch (err) {
      await this.files.discard(stored.id);
      throw err;
    }
    return this.stampInfo(user);
  }
}
