import { Module } from '@nestjs/common';
import { StudentsIoService } from './students-io.service';
import { StudentsController } from './students.controller';
import { StudentsService } from './students.service';

@Module({
  controllers: [StudentsController],
  providers: [StudentsService, StudentsIoService],
  exports: [StudentsService],
})
export class StudentsModule {}
