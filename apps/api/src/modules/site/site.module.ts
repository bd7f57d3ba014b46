import { Module } from '@nestjs/common';
import { FilesService } from './files.service';
import { ResourcesService } from './resources.service';
import { SiteController } from './site.controller';
import { SiteRepository } from './site.repository';
import { SiteService } from './site.service';

@Module({
  controllers: [SiteController],
  providers: [SiteService, FilesService, ResourcesService, SiteRepository],
  exports: [FilesService],
})
export class SiteModule {}
