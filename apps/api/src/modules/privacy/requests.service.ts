import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type {
  HandlePrivacyRequestInput,
  MyPrivacyRequestsQuery,
  Page,
  PrivacyRequestInput,
  PrivacyRequestRow,
  PrivacyRequestsQuery,
} from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../core/config/config';
import { AppError } from '../../core/http/app-error';
import type { Sendable } from '../../core/http/sendable';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { ErasureService } from './erasure.service';
import type { ErasedSet } from './erasure.repository';
import { PrivacyRequestsRepository } from './requests.repository';

/** A guardian's correction and deletion requests (privacy_requests), handled by the school's admin before due_at. */
@Injectable()
export class PrivacyRequestsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly erasure: ErasureService,
  ) {}

  async create(user: SchoolCaller, input: PrivacyRequestInput): Promise<Sendable<PrivacyRequestRow>> {
    return this.db.transaction(async (em) => {
      const repo = new PrivacyRequestsRepository(em);
      if (!(await repo.isGuardian(user.schoolId, input.student_id, user.id))) throw new AppError('privacy.not_found');
      const id = await repo.insert(
        { schoolId: user.schoolId, studentId: input.student_id, userId: user.id, kind: input.kind, body: input.body },
        this.config.privacy.requestDueDays,
      );
      if (id === null) throw new AppError('privacy.request_open');
      return repo.one(user.schoolId, id);
    });
  }

  async mine(user: SchoolCaller, q: MyPrivacyRequestsQuery): Promise<Sendable<Page<PrivacyRequestRow>>> {
    return new PrivacyRequestsRepository(this.db).page({ schoolId: user.schoolId, userId: user.id }, 'newest', q);
  }

  async school(user: SchoolCaller, q: PrivacyRequestsQuery): Promise<Sendable<Page<PrivacyRequestRow>>> {
    return new PrivacyRequestsRepository(this.db).page({ schoolId: user.schoolId, status: q.status, kind: q.kind }, 'open_first', q);
  }

  /**
   * The admin completes or refuses a request, on the version they read, once. Completing a deletion erases the child's
   * personal data in the same transaction (ErasureService): the request is done exactly when the data is gone, with the
   * child's other open request; the photos' files are removed after the commit.
   */
  async handle(user: SchoolCaller, input: HandlePrivacyRequestInput): Promise<Sendable<PrivacyRequestRow>> {
    let erased: ErasedSet | null = null;
    const row = await this.db.transaction(async (em) => {
      const repo = new PrivacyRequestsRepository(em);
      const cur = await repo.lock(user.schoolId, input.id);
      if (!cur) throw new AppError('privacy.request_not_found');
      if (cur.status !== 'open') throw new AppError('privacy.request_handled');
      if (cur.version !== input.version) throw new AppError('privacy.request_conflict');
      if (cur.kind === 'deletion' && input.outcome === 'done') erased = await this.erasure.eraseIn(em, user.schoolId, [cur.student_id]);
      await repo.close(user.schoolId, input.id, input.outcome, input.note, user.id);
      if (erased) await repo.closeOpenOf(user.schoolId, cur.student_id, input.note, user.id);
      return repo.one(user.schoolId, input.id);
    });
    if (erased) await this.erasure.removeFiles(erased);
    return row;
  }
}
