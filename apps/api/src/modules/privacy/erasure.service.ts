import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { retentionCutoff } from '@wantuo/shared';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { DataSource, type EntityManager } from 'typeorm';
import { SessionService } from '../../core/auth/session.service';
import { APP_CONFIG, type AppConfig } from '../../core/config/config';
import { LOGGER } from '../../core/logging/logger';
import { ErasureRepository, type ErasedSet } from './erasure.repository';

/** Students anonymised in one retention run at most (the next hourly run goes on). */
const RETENTION_BATCH = 500;

export interface RetentionResult {
  students: number;
  guardians: number;
  files: number;
  access_log_pruned: number;
}

/**
 * The erasure of children's personal data (issue 37, docs/modules/privacy.md "Erasure"): one function for a completed
 * deletion request and for the retention job. In the caller's transaction, set-based for every child of the set:
 * names in money and message records replaced by 已注销学生<id>, free text blanked, pick-up people and the guardians
 * who have no other child erased, the child's row anonymised and marked (`anonymised_at`: never twice). Photos are
 * deleted from disk after the commit (a rollback leaves them).
 */
@Injectable()
export class ErasureService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly sessions: SessionService,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  /** Erases the given students of the school inside `em`'s transaction; answers what went (files not yet removed). */
  async eraseIn(em: EntityManager, schoolId: number, studentIds: number[]): Promise<ErasedSet> {
    const repo = new ErasureRepository(em);
    const students = (await repo.lock(schoolId, studentIds)).map((s) => s.id);
    if (!students.length) return { students, guardians: [], files: [] };
    const guardians = await repo.soleGuardians(schoolId, students);
    const files = await repo.photoPaths(schoolId, students);
    await repo.renameInRecords(schoolId, students);
    await repo.blankTexts(schoolId, students);
    await repo.anonymiseGuardians(schoolId, guardians);
    await repo.anonymiseStudents(schoolId, students);
    if (guardians.length) await this.sessions.changed(em);
    return { students, guardians, files };
  }

  /** After the commit: the erased photos' files (a file already gone is fine). */
  async removeFiles(erased: ErasedSet): Promise<void> {
    await Promise.all(erased.files.map((p) => rm(join(this.config.uploadDir, p), { force: true })));
  }

  /**
   * The daily retention (run hourly; each student once): archived students who left more than retentionDays ago are
   * erased, school by school, each school in a transaction of its own; access-log rows older than accessLogDays go.
   */
  async retention(now: Date): Promise<RetentionResult> {
    const result: RetentionResult = { students: 0, guardians: 0, files: 0, access_log_pruned: 0 };
    const due = await new ErasureRepository(this.db.manager).dueForRetention(
      retentionCutoff(now, this.config.privacy.retentionDays),
      RETENTION_BATCH,
    );
    for (const { school_id, ids } of due) {
      const erased = await this.db.transaction((em) => this.eraseIn(em, school_id, ids));
      await this.removeFiles(erased);
      result.students += erased.students.length;
      result.guardians += erased.guardians.length;
      result.files += erased.files.length;
    }
    result.access_log_pruned = await this.db.transaction((em) =>
      new ErasureRepository(em).pruneAccessLog(retentionCutoff(now, this.config.privacy.accessLogDays)),
    );
    if (result.students || result.access_log_pruned) this.log.info(result, 'privacy retention'); // counts only: no child's name or id
    return result;
  }
}
