import { Controller, Get, Param, Query, Res, UploadedFile } from '@nestjs/common';
import type { Response } from 'express';
import {
  BalancePayCoursewareInput,
  CoursewareCenterQuery,
  CoursewareDictQuery,
  CoursewareFileQuery,
  CoursewareIdQuery,
  CoursewarePdfQuery,
  CoursewareSectionQuery,
  DelPrepareLessonsInput,
  EditCoursewareInput,
  OperatorCoursewareQuery,
  PrepareLessonsClassesQuery,
  PrepareLessonsInfoQuery,
  PrepareLessonsInput,
  PrepareLessonsListQuery,
  PreviewQuery,
  PublishCoursewareInput,
  SaveCoursewareDictInput,
  SaveCoursewareSectionInput,
  SchoolCoursewareListQuery,
  WechatPayCoursewareInput,
} from '@wantuo/shared';
import { z } from 'zod';
import { Access } from '../../core/auth/access.decorator';
import { CurrentUser, SchoolUser, type SchoolCaller } from '../../core/auth/current-user.decorator';
import { Action } from '../../core/http/action.decorator';
import { Input } from '../../core/http/input.decorator';
import { Multipart } from '../../core/http/multipart';
import type { SessionUser } from '../../core/http/request-context';
import type { IncomingFile } from '../site/files.service';
import { CatalogueService } from './catalogue.service';
import { CoursewareFilesService } from './courseware-files.service';
import { DictsService } from './dicts.service';
import { LessonPlansService } from './lesson-plans.service';
import { PublishingService } from './publishing.service';
import { PurchaseService } from './purchase.service';

/** Courseware (issue 15): the catalogue's dictionaries, the catalogue, purchase, the locked files, lesson plans, `preview`. */
@Controller('api/index')
export class CoursewareController {
  constructor(
    private readonly dicts: DictsService,
    private readonly catalogue: CatalogueService,
    private readonly publishing: PublishingService,
    private readonly purchases: PurchaseService,
    private readonly files: CoursewareFilesService,
    private readonly plans: LessonPlansService,
  ) {}

  @Action('GET', 'subjectList')
  subjects(@Input() q: CoursewareDictQuery, @CurrentUser() user: SessionUser) {
    return this.dicts.list(user, 'subject', q.all);
  }

  @Action('GET', 'disciplineList')
  disciplines(@Input() q: CoursewareDictQuery, @CurrentUser() user: SessionUser) {
    return this.dicts.list(user, 'discipline', q.all);
  }

  @Action('GET', 'grade')
  grades(@Input() q: CoursewareDictQuery, @CurrentUser() user: SessionUser) {
    return this.dicts.list(user, 'grade', q.all);
  }

  @Action('GET', 'term')
  terms(@Input() q: CoursewareDictQuery, @CurrentUser() user: SessionUser) {
    return this.dicts.list(user, 'term', q.all);
  }

  @Action('GET', 'tixi')
  tixi(@Input() q: CoursewareDictQuery, @CurrentUser() user: SessionUser) {
    return this.dicts.list(user, 'tixi', q.all);
  }

  @Action('GET', 'edition')
  editions(@Input() q: CoursewareDictQuery, @CurrentUser() user: SessionUser) {
    return this.dicts.list(user, 'edition', q.all);
  }

  @Action('POST', 'saveCoursewareDict')
  saveDict(@Input() input: SaveCoursewareDictInput, @CurrentUser() user: SessionUser) {
    return this.dicts.save(user, input);
  }

  @Action('GET', 'coursewareCenter')
  center(@Input() q: CoursewareCenterQuery, @SchoolUser() user: SchoolCaller) {
    return this.catalogue.center(user, q);
  }

  @Action('GET', 'coursewareData')
  data(@Input() q: CoursewareIdQuery, @SchoolUser() user: SchoolCaller) {
    return this.catalogue.detail(user, q.id);
  }

  @Action('GET', 'coursewareSection')
  sections(@Input() q: CoursewareSectionQuery, @SchoolUser() user: SchoolCaller) {
    return this.catalogue.sections(user, q.courseware_id);
  }

  @Action('POST', 'coursewareSection')
  saveSection(@Input() input: SaveCoursewareSectionInput, @SchoolUser() user: SchoolCaller) {
    return this.publishing.saveSection(user, input);
  }

  @Action('GET', 'coursewareFile')
  sectionFiles(@Input() q: CoursewareFileQuery, @CurrentUser() user: SessionUser) {
    return q.section_id !== undefined ? this.files.sectionFiles(user, q.section_id) : this.files.coursewareFiles(user, q.courseware_id!, q.kind);
  }

  @Action('GET', 'coursewarePdf')
  sectionPdf(@Input() q: CoursewarePdfQuery, @CurrentUser() user: SessionUser) {
    return this.files.sectionPdf(user, q.section_id, q.file_id);
  }

  @Action('GET', 'schoolCoursewareList')
  owned(@Input() q: SchoolCoursewareListQuery, @SchoolUser() user: SchoolCaller) {
    return this.catalogue.owned(user, q);
  }

  @Action('POST', 'balancePayCourseware')
  balancePay(@Input() input: BalancePayCoursewareInput, @SchoolUser() user: SchoolCaller) {
    return this.purchases.balancePay(user, input);
  }

  @Action('POST', 'wechatPayCourseware')
  wechatPay(@Input() input: WechatPayCoursewareInput, @SchoolUser() user: SchoolCaller) {
    return this.purchases.wechatPay(user, input);
  }

  @Action('POST', 'coursewareUpload')
  @Multipart('file')
  upload(@Input() _: unknown, @UploadedFile() file: IncomingFile | undefined, @CurrentUser() user: SessionUser) {
    return this.files.upload(file, user);
  }

  @Action('POST', 'publishCourseware')
  publish(@Input() input: PublishCoursewareInput, @CurrentUser() user: SessionUser) {
    return this.publishing.publish(user, input);
  }

  @Action('POST', 'editCourseware')
  edit(@Input() input: EditCoursewareInput, @CurrentUser() user: SessionUser) {
    return this.publishing.edit(user, input);
  }

  @Action('GET', 'operatorCoursewareList')
  operatorList(@Input() q: OperatorCoursewareQuery) {
    return this.publishing.operatorList(q);
  }

  @Action('POST', 'prepareLessons')
  savePlan(@Input() input: PrepareLessonsInput, @SchoolUser() user: SchoolCaller) {
    return this.plans.save(user, input);
  }

  @Action('GET', 'prepareLessonsInfo')
  plan(@Input() q: PrepareLessonsInfoQuery, @SchoolUser() user: SchoolCaller) {
    return this.plans.info(user, q.id);
  }

  @Action('GET', 'prepareLessonsList')
  planList(@Input() q: PrepareLessonsListQuery, @SchoolUser() user: SchoolCaller) {
    return this.plans.list(user, q);
  }

  @Action('GET', 'prepareLessonsClasses')
  planClasses(@Input() q: PrepareLessonsClassesQuery, @SchoolUser() user: SchoolCaller) {
    return this.plans.classes(user, q);
  }

  @Action('POST', 'delPrepareLessons')
  removePlan(@Input() input: DelPrepareLessonsInput, @SchoolUser() user: SchoolCaller) {
    return this.plans.remove(user, input);
  }

  @Action('GET', 'preview')
  preview(@Input() q: PreviewQuery, @CurrentUser() user: SessionUser) {
    return this.files.preview(user, q.id);
  }
}

const StreamQuery = z.object({
  s: z.coerce.number().int().min(0).max(2_147_483_647),
  e: z.coerce.number().int().min(0).max(99_999_999_999),
  sig: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
});
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The bytes of a courseware file behind a signed, short-lived URL (CoursewareFilesService.sign): not an action (an
 * <img>, a download or the PDF viewer opens it without the token header), so it declares its own access: the signature
 * is the credential, checked with the expiry and the school's access on every request. Anything else answers a bare
 * 403/404 (no envelope: a browser opened it).
 */
@Controller('api/courseware')
export class CoursewareStreamController {
  constructor(private readonly files: CoursewareFilesService) {}

  @Get('file/:id')
  @Access('pub')
  async file(@Param('id') id: string, @Query() query: Record<string, unknown>, @Res() res: Response) {
    const q = StreamQuery.safeParse(query);
    if (!UUID_RE.test(id) || !q.success) {
      res
        .status(q.success ? 404 : 403)
        .type('text/plain')
        .setHeader('Cache-Control', 'no-store');
      res.send(q.success ? 'not found' : 'invalid link');
      return;
    }
    await this.files.stream(res, id.toLowerCase(), q.data);
  }
}
