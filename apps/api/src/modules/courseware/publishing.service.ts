import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type {
  CoursewareSectionFileInput,
  CoursewareSectionRow,
  EditCoursewareInput,
  OperatorCoursewareQuery,
  OperatorCoursewareRow,
  Page,
  PublishCoursewareInput,
  SaveCoursewareSectionInput,
} from '@wantuo/shared';
import { DataSource, type EntityManager } from 'typeorm';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { containsPattern, pageOf } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import type { Sendable } from '../../core/http/sendable';
import { CoursewareCatalogueRepository } from './courseware-catalogue.repository';
import { CoursewareFilesRepository } from './courseware-files.repository';
import { CoursewarePublishingRepository, type FlatFiles } from './courseware-publishing.repository';
import { DictsService } from './dicts.service';

const flatten = (sections: Array<{ files: CoursewareSectionFileInput[] }>): FlatFiles => {
  const out: FlatFiles = { section: [], fileId: [], videoUrl: [], name: [], sort: [] };
  sections.forEach((s, i) =>
    s.files.forEach((f, j) => {
      out.section.push(i);
      out.fileId.push(f.file_id ?? null);
      out.videoUrl.push(f.video_url ?? null);
      out.name.push(f.name);
      out.sort.push((j + 1) * 10);
    }),
  );
  return out;
};

/**
 * Writing the catalogue: the operator publishes and edits courseware; a school adds its own sections (with its own
 * files) to courseware it owns, and edits them. Every write is one transaction of a constant number of statements.
 */
@Injectable()
export class PublishingService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repo: CoursewarePublishingRepository,
    private readonly catalogue: CoursewareCatalogueRepository,
    private readonly files: CoursewareFilesRepository,
    private readonly dicts: DictsService,
  ) {}

  /**
   * Throws unless every stored file is a courseware file of the writer (the school's for a school, the platform's for
   * the operator), so nobody attaches another school's upload or a public one.
   */
  private async checkFiles(em: EntityManager, schoolId: number | null, fileIds: string[]): Promise<void> {
    const ids = [...new Set(fileIds)];
    if (!ids.length) return;
    if ((await this.files.usableFiles(em, schoolId, ids)) !== ids.length) throw new AppError('courseware.file_unusable');
  }

  // ---------------------------------------------------------------- the operator

  async publish(user: SessionUser, input: PublishCoursewareInput): Promise<{ id: number }> {
    await this.dicts.check(dictRefs(input));
    const files = flatten(input.sections);
    return this.db.transaction(async (em) => {
      await this.checkFiles(
        em,
        null,
        files.fileId.filter((f): f is string => f !== null),
      );
      const id = await this.repo.insertCourseware(em, {
        title: input.title,
        subject_id: input.subject_id,
        discipline_id: input.discipline_id ?? null,
        grade_id: input.grade_id ?? null,
        term_id: input.term_id ?? null,
        tixi_id: input.tixi_id ?? null,
        edition_id: input.edition_id ?? null,
        description: input.description ?? '',
        price_fen: input.price_fen,
        created_by: user.id,
      });
      const ids = await this.repo.insertSections(
        em,
        id,
        input.sections.map((s) => s.title),
        user.id,
      );
      if (files.section.length) await this.repo.insertFiles(em, ids, files);
      return { id };
    });
  }

  async edit(user: SessionUser, input: EditCoursewareInput): Promise<{ id: number; version: number }> {
    await this.dicts.check(dictRefs(input));
    const row = await this.repo.updateCourseware(
      this.db,
      input.id,
      input.version,
      {
        title: input.title,
        subject_id: input.subject_id,
        discipline_id: input.discipline_id ?? null,
        grade_id: input.grade_id ?? null,
        term_id: input.term_id ?? null,
        tixi_id: input.tixi_id ?? null,
        edition_id: input.edition_id ?? null,
        price_fen: input.price_fen,
        status: input.status,
      },
      input.description ?? null,
    );
    if (row) return row;
    const exists = await this.repo.platformCoursewareExists(this.db, input.id);
    throw new AppError(exists ? 'courseware.stale' : 'courseware.not_found');
  }

  async operatorList(q: OperatorCoursewareQuery): Promise<Page<Sendable<OperatorCoursewareRow>>> {
    const keyword = containsPattern(q.keyword);
    const status = q.status ?? null;
    const [list, total] = await Promise.all([this.catalogue.operatorList(keyword, status, q), this.catalogue.operatorTotal(keyword, status)]);
    return pageOf(list, total, q);
  }

  // ---------------------------------------------------------------- a school's own sections

  /**
   * A school adds a section to a courseware it owns (or its own), or edits a section it added (on the version read).
   * Editing keeps the files still listed (their ids: lesson plans point at them), removes the others, adds the new.
   */
  async saveSection(user: SchoolCaller, input: SaveCoursewareSectionInput): Promise<CoursewareSectionRow> {
    const schoolId = user.schoolId;
    const files = flatten([input]);
    return this.db.transaction(async (em) => {
      const c = await this.repo.sectionTarget(em, schoolId, input.courseware_id);
      if (!c) throw new AppError('courseware.not_found');
      if (!c.open) throw new AppError('courseware.not_owned');
      await this.checkFiles(
        em,
        schoolId,
        files.fileId.filter((f): f is string => f !== null),
      );
      let sectionId: number;
      if (input.id === undefined) {
        sectionId = await this.repo.insertSection(em, {
          coursewareId: input.courseware_id,
          schoolId,
          title: input.title,
          sort: input.sort ?? null,
          userId: user.id,
        });
        if (files.section.length) await this.repo.insertFiles(em, [sectionId], files);
      } else {
        if (input.version === undefined) throw new AppError('courseware.v.version_invalid');
        const s = await this.repo.lockSection(em, schoolId, input.id, input.courseware_id);
        if (!s) throw new AppError('courseware.section_not_found');
        if (s.school_id !== schoolId) throw new AppError('courseware.not_own_section');
        if (s.version !== input.version) throw new AppError('courseware.stale');
        sectionId = s.id;
        await this.repo.updateSection(em, sectionId, input.title, input.sort ?? null);
        await this.repo.replaceFiles(em, sectionId, files);
      }
      const row = await this.repo.schoolSection(em, sectionId);
      return row;
    });
  }
}

const dictRefs = (i: PublishCoursewareInput | EditCoursewareInput) => ({
  subject: i.subject_id,
  discipline: i.discipline_id,
  grade: i.grade_id,
  term: i.term_id,
  tixi: i.tixi_id,
  edition: i.edition_id,
});
