import { Module } from '@nestjs/common';
import { StudentGuardiansService } from './student-guardians.service';
import { StudentsGrowthRepository } from './students-growth.repository';
import { StudentsGuardiansRepository } from './students-guardians.repository';
import { StudentsRepository } from './students.repository';
import { StudentsIoService } from './students-io.service';
import { StudentsController } from './students.controller';
import { StudentGrowthService } from './student-growth.service';
import { StudentsService } from './students.service';

@Module({
  controllers: [StudentsController],
  providers: [
    StudentsService,
    StudentsIoService,
    StudentGuardiansService,
    StudentGrowthService,
    StudentsRepository,
    StudentsGuardiansRepository,
    StudentsGrowthRepository,
  ],
  exports: [StudentsService],
})
export class StudentsModule {}
