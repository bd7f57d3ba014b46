import { Module } from '@nestjs/common';
import { MessagesModule } from '../messages/messages.module';
import { HomeworkController } from './homework.controller';
import { HomeworkRepository } from './homework.repository';
import { IssueService } from './issue.service';
import { ListsService } from './lists.service';
import { MarkingService } from './marking.service';

/** Homework (issue 14): set for a care or teaching class, each student's state todo -> done -> checked with its history. */
@Module({
  imports: [MessagesModule],
  controllers: [HomeworkController],
  providers: [IssueService, ListsService, MarkingService, HomeworkRepository],
})
export class HomeworkModule {}
