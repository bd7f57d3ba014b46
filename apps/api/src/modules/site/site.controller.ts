import { Controller, Get, Post, UploadedFile } from '@nestjs/common';
import {
  AboutUsInput,
  AddResourceInput,
  DataDownloadQuery,
  DelResourceInput,
  EmptyInput,
  PageConfigInput,
  ResourceAdminQuery,
  ResourceQuery,
} from '@wantuo/shared';
import type { z } from 'zod';
import { CurrentUser } from '../../core/auth/current-user.decorator';
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

  @Get('index')
  index(@Input(EmptyInput) _: unknown) {
    return this.site.pageConfig();
  }

  @Post('index')
  saveIndex(@Input(PageConfigInput) input: z.infer<typeof PageConfigInput>, @CurrentUser() user: SessionUser) {
    return this.site.savePageConfig(user, input);
  }

  @Get('aboutUs')
  aboutUs(@Input(EmptyInput) _: unknown) {
    return this.site.aboutUs();
  }

  @Post('aboutUs')
  saveAboutUs(@Input(AboutUsInput) input: z.infer<typeof AboutUsInput>, @CurrentUser() user: SessionUser) {
    return this.site.saveAboutUs(user, input);
  }

  @Get('resource')
  resource(@Input(ResourceQuery) q: ResourceQuery) {
    return this.resources.publicList(q);
  }

  @Get('dataDownload')
  dataDownload(@Input(DataDownloadQuery) q: DataDownloadQuery) {
    return this.resources.dataDownload(q);
  }

  @Get('resourceAdminList')
  resourceAdminList(@Input(ResourceAdminQuery) q: ResourceAdminQuery) {
    return this.resources.adminList(q);
  }

  @Post('addResource')
  addResource(@Input(AddResourceInput) input: AddResourceInput, @CurrentUser() user: SessionUser) {
    return this.resources.add(user, input);
  }

  @Post('delResource')
  delResource(@Input(DelResourceInput) input: DelResourceInput, @CurrentUser() user: SessionUser) {
    return this.resources.remove(user, input);
  }

  @Post('upload')
  @Multipart('file')
  upload(@Input(EmptyInput) _: unknown, @UploadedFile() file: IncomingFile | undefined, @CurrentUser() user: SessionUser) {
    return this.files.store(file, user, 'general');
  }
}
