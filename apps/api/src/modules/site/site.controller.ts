import { Controller, UploadedFile } from '@nestjs/common';
import {
  AboutUsInput,
  AddResourceInput,
  DataDownloadQuery,
  DelResourceInput,
  PageConfigInput,
  ResourceAdminQuery,
  ResourceQuery,
} from '@wantuo/shared';
import type { z } from 'zod';
import { CurrentUser } from '../../core/auth/current-user.decorator';
import { Action } from '../../core/http/action.decorator';
import { Input } from '../../core/http/input.decorator';
import { Multipart } from '../../core/http/multipart';
import type { SessionUser } from '../../core/http/request-context';
import { FilesService, type IncomingFile } from './files.service';
import { ResourcesService } from './resources.service';
import { SiteService } from './site.service';

@Controller('api/index')
export class SiteController {
  constructor(
    private readonly site: SiteService,
    private readonly files: FilesService,
    private readonly resources: ResourcesService,
  ) {}

  @Action('GET', 'index')
  index(@Input() _: unknown) {
    return this.site.pageConfig();
  }

  @Action('POST', 'index')
  saveIndex(@Input() input: z.infer<typeof PageConfigInput>, @CurrentUser() user: SessionUser) {
    return this.site.savePageConfig(user, input);
  }

  @Action('GET', 'aboutUs')
  aboutUs(@Input() _: unknown) {
    return this.site.aboutUs();
  }

  @Action('POST', 'aboutUs')
  saveAboutUs(@Input() input: z.infer<typeof AboutUsInput>, @CurrentUser() user: SessionUser) {
    return this.site.saveAboutUs(user, input);
  }

  @Action('GET', 'resource')
  resource(@Input() q: ResourceQuery) {
    return this.resources.publicList(q);
  }

  @Action('GET', 'dataDownload')
  dataDownload(@Input() q: DataDownloadQuery) {
    return this.resources.dataDownload(q);
  }

  @Action('GET', 'resourceAdminList')
  resourceAdminList(@Input() q: ResourceAdminQuery) {
    return this.resources.adminList(q);
  }

  @Action('POST', 'addResource')
  addResource(@Input() input: AddResourceInput, @CurrentUser() user: SessionUser) {
    return this.resources.add(user, input);
  }

  @Action('POST', 'delResource')
  delResource(@Input() input: DelResourceInput, @CurrentUser() user: SessionUser) {
    return this.resources.remove(user, input);
  }

  @Action('POST', 'upload')
  @Multipart('file')
  upload(@Input() _: unknown, @UploadedFile() file: IncomingFile | undefined, @CurrentUser() user: SessionUser) {
    return this.files.store(file, user, 'general');
  }
}
