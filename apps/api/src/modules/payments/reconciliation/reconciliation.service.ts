import { Injectable } from '@nestjs/common';
import type {
  BillCheckRow,
  BillChecksQuery,
  BillDifferenceRow,
  BillDifferencesQuery,
  CheckBillInput,
  Page,
  ResolveBillDifferenceInput,
} from '@wantuo/shared';
import type { SessionUser } from '../../../core/http/request-context';

/**
 * The daily reconciliation of each merchant's WeChat trade bill against the payments and refunds recorded (issue 36
 * item 4). (Being written.)
 */
@Injectable()
export class ReconciliationService {
  async checks(_q: BillChecksQuery): Promise<Page<BillCheckRow>> {
    throw new Error('not yet');
  }

  async differences(_q: BillDifferencesQuery): Promise<Page<BillDifferenceRow>> {
    throw new Error('not yet');
  }

  async resolve(_user: SessionUser, _input: ResolveBillDifferenceInput): Promise<BillDifferenceRow> {
    throw new Error('not yet');
  }

  async checkNow(_input: CheckBillInput): Promise<BillCheckRow> {
    throw new Error('not yet');
  }
}
