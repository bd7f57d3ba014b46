import { Injectable } from '@nestjs/common';
import type {
  CoursewareCenterQuery,
  CoursewareDetail,
  CoursewareRow,
  CoursewareSectionRow,
  OwnedCoursewareRow,
  Page,
  SchoolCoursewareListQuery,
} from '@wantuo/shared';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { containsPattern, pageOf } from '../../core/database/sql-kit';
import type { Sendable } from '../../core/http/sendable';
import { AppError } from '../../core/http/app-error';
import { CoursewareCatalogueRepository } from './courseware-catalogue.repository';

/**
 * The catalogue as a school sees it: coursewareCenter (the platform's courseware on sale, by any dictionary, with
 * whether the school owns it), one courseware with its sections, the sections, and the courseware the school owns.
 * Two queries per list (the page and its count), one per detail.
 */
@Injectable()
export class CatalogueService {
  constructor(private readonly repo: CoursewareCatalogueRepository) {}

  async center(user: SchoolCaller, q: CoursewareCenterQuery): Promise<Page<Sendable<CoursewareRow>>> {
    const keyword = containsPattern(q.keyword);
    const [rows, total] = await Promise.all([this.repo.center(user.schoolId, q, keyword), this.repo.centerTotal(user.schoolId, q, keyword)]);
    return pageOf(rows, total, q);
  }

  /** One courseware the school may see: description, price, whether owned, its sections (the publisher's and the school's). */
  async detail(user: SchoolCaller, id: number): Promise<Sendable<CoursewareDetail>> {
    const c = await this.repo.detail(user.schoolId, id);
    if (!c) throw new AppError('courseware.not_found');
    return c;
  }

  async sections(user: SchoolCaller, coursewareId: number): Promise<Sendable<CoursewareSectionRow[]>> {
    const rows = await this.repo.sections(user.schoolId, coursewareId);
    if (!rows.length) throw new AppError('courseware.not_found');
    return rows.filter((r): r is { [K in keyof typeof r]: NonNullable<(typeof r)[K]> } => r.id !== null);
  }

  /** The courseware the school owns (bought and not refunded) and its own, most recent first. */
  async owned(user: SchoolCaller, q: SchoolCoursewareListQuery): Promise<Page<Sendable<OwnedCoursewareRow>>> {
    const keyword = containsPattern(q.keyword);
    const [list, total] = await Promise.all([this.repo.owned(user.schoolId, keyword, q), this.repo.ownedTotal(user.schoolId, keyword)]);
    return pageOf(list, total, q);
  }
}
