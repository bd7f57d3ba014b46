import { Controller, Get, Post, Res } from '@nestjs/common';
import type { Response } from 'express';
import {
  ClockingInInfoQuery,
  ClockingInListQuery,
  FlowStepInput,
  StudentClockingInCountQuery,
  StudentLiyuanInput,
  VoidFlowEventInput,
  type FlowCommand,
} from '@wantuo/shared';
import { Caller, CurrentUser, type CallerInfo } from '../../core/auth/current-user.decorator';
import { Input } from '../../core/http/input.decorator';
import { sendFile } from '../../core/http/send-file';
import type { SessionUser } from '../../core/http/request-context';
import { FlowReadService } from './flow-read.service';
import { FlowService } from './flow.service';

type StepType = Exclude<FlowCommand['type'], 'leave' | 'void' | 'markLeave' | 'cancelLeave'>;

@Controller('api/index')
export class FlowController {
  constructor(
    private readonly flow: FlowService,
    private readonly read: FlowReadService,
  ) {}

  /** per-student refusals are answered in the caller's language (the lang header wins over the setting) */
  private step(user: SessionUser, caller: CallerInfo, input: FlowStepInput, type: StepType) {
    const cmd: FlowCommand = { type, note: input.note, override: input.override };
    return this.flow.command({ ...user, lang: caller.lang }, input.student_ids, cmd, { eventId: input.event_id });
  }

  @Post('shuttleStudent')
  shuttle(@Input(FlowStepInput) input: FlowStepInput, @CurrentUser() user: SessionUser, @Caller() caller: CallerInfo) {
    return this.step(user, caller, input, 'shuttle');
  }

  @Post('studentEnter')
  enter(@Input(FlowStepInput) input: FlowStepInput, @CurrentUser() user: SessionUser, @Caller() caller: CallerInfo) {
    return this.step(user, caller, input, 'enter');
  }

  @Post('teacherStudentDinner')
  dinner(@Input(FlowStepInput) input: FlowStepInput, @CurrentUser() user: SessionUser, @Caller() caller: CallerInfo) {
    return this.step(user, caller, input, 'dinner');
  }

  @Post('teacherStudentStartTutor')
  startTutor(@Input(FlowStepInput) input: FlowStepInput, @CurrentUser() user: SessionUser, @Caller() caller: CallerInfo) {
    return this.step(user, caller, input, 'startTutor');
  }

  @Post('teacherStudentEndTutor')
  endTutor(@Input(FlowStepInput) input: FlowStepInput, @CurrentUser() user: SessionUser, @Caller() caller: CallerInfo) {
    return this.step(user, caller, input, 'endTutor');
  }

  @Post('studentLiyuan')
  leave(@Input(StudentLiyuanInput) input: StudentLiyuanInput, @CurrentUser() user: SessionUser, @Caller() caller: CallerInfo) {
    const cmd: FlowCommand = { type: 'leave', picked_up_by: input.picked_up_by, note: input.note, override: input.override };
    return this.flow.command({ ...user, lang: caller.lang }, input.student_ids, cmd, { eventId: input.event_id });
  }

  @Post('voidFlowEvent')
  voidEvent(@Input(VoidFlowEventInput) input: VoidFlowEventInput, @CurrentUser() user: SessionUser) {
    return this.flow.voidEvent(user, input);
  }

  @Get('clockingInInfo')
  info(@Input(ClockingInInfoQuery) q: ClockingInInfoQuery, @CurrentUser() user: SessionUser) {
    return this.read.info(user, q);
  }

  @Get('clockingInList')
  list(@Input(ClockingInListQuery) q: ClockingInListQuery, @CurrentUser() user: SessionUser) {
    return this.read.list(user, q);
  }

  @Get('studentClockingInCount')
  counts(@Input(StudentClockingInCountQuery) q: StudentClockingInCountQuery, @CurrentUser() user: SessionUser) {
    return this.read.counts(user, q);
  }

  @Get('studentClockingInExport')
  async countsExport(@Input(StudentClockingInCountQuery) q: StudentClockingInCountQuery, @CurrentUser() user: SessionUser, @Res() res: Response) {
    sendFile(res, await this.read.countsExport(user, q));
  }
}
