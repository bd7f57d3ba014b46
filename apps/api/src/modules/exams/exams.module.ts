import { Module } from '@nestjs/common';
import { MessagesModule } from '../messages/messages.module';
import { ExamsController } from './exams.controller';
import { ExamsRepository } from './exams.repository';
import { ExamsService } from './exams.service';
import { ScoresIoService } from './scores-io.service';
import { ScoresService } from './scores.service';

/** Exams and scores (issue 14): exams of care classes, batches of scores, ranks and statistics, publication with guardians' messages. */
@Module({
  imports: [MessagesModule],
  controllers: [ExamsController],
  providers: [ExamsRepository, ExamsService, ScoresService, ScoresIoService],
})
export class ExamsModule {}
