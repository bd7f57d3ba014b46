import { Controller, Get, Post } from '@nestjs/common';
import {
  AddClassTimeInput,
  AddStudentClassTimeInput,
  ClassTimeListQuery,
  DelClassTimeInput,
  EditClassTimeInput,
  SelectClassTimeQuery,
} from '@wantuo/shared';
import { CurrentUser } from '../../core/auth/current-user.decorator';
import { Input } from '../../core/http/input.decorator';
import type { SessionUser } from '../../core/http/request-context';
import { TimetableService } from './timetable.service';

/** Time slots of the school (class_times) and students' individual slots. */
@Controller('api/index')
export class TimetableController {
  constructor(private readonly timetable: TimetableService) {}

  @Get('classTimeList')
  list(@Input(ClassTimeListQuery) q: ClassTimeListQuery, @CurrentUser() user: SessionUser) {
    return this.timetable.list(user, q);
  }

  @Get('selectClassTime')
  select(@Input(SelectClassTimeQuery) q: SelectClassTimeQuery, @CurrentUser() user: SessionUser) {
    return this.timetable.select(user, q);
  }

  @Post('addClassTime')
  add(@Input(AddClassTimeInput) input: AddClassTimeInput, @CurrentUser() user: SessionUser) {
    return this.timetable.add(user, input);
  }

  @Post('editClassTime')
  edit(@Input(EditClassTimeInput) input: EditClassTimeInput, @CurrentUser() user: SessionUser) {
    return this.timetable.edit(user, input);
  }

  @Post('delClassTime')
  del(@Input(DelClassTimeInput) input: DelClassTimeInput, @CurrentUser() user: SessionUser) {
    return this.timetable.del(user, input);
  }

  @Post('addStudentClassTime')
  setStudentSlots(@Input(AddStudentClassTimeInput) input: AddStudentClassTimeInput, @CurrentUser() user: SessionUser) {
    return this.timetable.setStudentSlots(user, input);
  }
}
