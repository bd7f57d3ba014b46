import { Global, Module } from '@nestjs/common';
import { ChildAccessLog } from './access-log.service';
import { CallGuardianService } from './call.service';
import { ConsentsService } from './consents.service';
import { PoliciesService } from './policies.service';
import { PrivacyController } from './privacy.controller';
import { PrivacyRepository } from './privacy.repository';
import { RightsController } from './rights.controller';
import { RightsServices } from './rights.services';
import { ErasureService } from './erasure.service';
import { ChildReadsInterceptor } from './child-reads.interceptor';

/**
 * Children's personal information (issue 37, docs/modules/privacy.md): the documents and the guardians' consents, the
 * access log (global: every module that reads or exports children's data records it), staff calls, the guardians'
 * export, correction and deletion requests, erasure and retention.
 */
@Global()
@Module({
  controllers: [PrivacyController, RightsController],
  providers: [PrivacyRepository, ChildAccessLog, PoliciesService, ConsentsService, CallGuardianService, ChildReadsInterceptor, ...RightsServices],
  exports: [ChildAccessLog, ChildReadsInterceptor, ErasureService],
})
export class PrivacyModule {}
