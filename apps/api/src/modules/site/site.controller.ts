import { Controller, Get, Post, UploadedFile } from '@nestjs/common';
import { AboutUsInput, EmptyInput, PageConfigInput } from '@wantuo/shared';
import type { z } from 'zod';
import { CurrentUser } from '../../core/auth/current-user.decorator';
import { Input } from '../../core/http/input.decorator';
import { Multipart } from '../../core/http/multipart';
import type { SessionUser } from '../../core/http/request-context';
import { FilesService, type IncomingFile } from './files.service';
import { SiteService } from './site.service';

@Controller('api/index')
export class SiteController {
  constructor(
    private readonly site: SiteService,
    private readonly files: FilesService,
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

  @Post('upload')
  @Multipart('file')
  upload(@Input(EmptyInput) _: unknown, @UploadedFile() file: IncomingFile | undefined, @CurrentUser() user: SessionUser) {
    return this.files.store(file, user, 'general');
  }
}
