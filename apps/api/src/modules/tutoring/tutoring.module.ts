import { Module } from '@nestjs/common';
import { TutoringClassesService } from './classes.service';
import { TutoringSettingsService } from './settings.service';
import { TutoringStudentsService } from './students.service';
import { TutoringController } from './tutoring.controller';

/**
 * Home tutoring (issue 13, item 4): the school's tutoring types and settings, tutoring classes whose sessions are
 * generated into class_sessions (kind 'tutoring') with the teaching module's calendar and clash rules, their students,
 * moves of one session.
 */
@Module({
  controllers: [TutoringController],
  providers: [TutoringSettingsService, TutoringClassesService, TutoringStudentsService],
})
export class TutoringModule {}
