import { Module } from '@nestjs/common';
import { FilesService } from './files.service';
import { SiteController } from './site.controller';
import { SiteService } from './site.service';

@Module({
  controllers: [SiteController],
  providers: [SiteService, FilesService],
  exports: [FilesService],
})
export class SiteModule {}
