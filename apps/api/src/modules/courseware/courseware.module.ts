import { Module } from '@nestjs/common';
import { PaymentsModule } from '../payments/payments.module';
import { CatalogueService } from './catalogue.service';
import { CoursewareController, CoursewareStreamController } from './courseware.controller';
import { CoursewareCatalogueRepository } from './courseware-catalogue.repository';
import { CoursewareDictsRepository } from './courseware-dicts.repository';
import { CoursewareFilesRepository } from './courseware-files.repository';
import { CoursewareFilesService } from './courseware-files.service';
import { CoursewarePublishingRepository } from './courseware-publishing.repository';
import { CoursewarePurchasesRepository } from './courseware-purchases.repository';
import { DictsService } from './dicts.service';
import { LessonPlansService } from './lesson-plans.service';
import { PublishingService } from './publishing.service';
import { PurchaseService } from './purchase.service';

/** Courseware (issue 15): catalogue dictionaries, courseware and sections, purchase (kind `courseware`), locked files, lesson plans. */
@Module({
  imports: [PaymentsModule],
  controllers: [CoursewareController, CoursewareStreamController],
  providers: [
    CoursewareDictsRepository,
    CoursewareCatalogueRepository,
    CoursewarePublishingRepository,
    CoursewarePurchasesRepository,
    CoursewareFilesRepository,
    DictsService,
    CatalogueService,
    PublishingService,
    PurchaseService,
    CoursewareFilesService,
    LessonPlansService,
  ],
})
export class CoursewareModule {}
