import { Controller, Res } from '@nestjs/common';
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
import { Caller, SchoolUser, type CallerInfo, type SchoolCaller } from '../../core/auth/current-user.decorator';
import { Action } from '../../core/http/action.decorator';
import { Input } from '../../core/http/input.decorator';
import { sendFile } from '../../core/http/send-file';
import { FlowDepartures } from './flow-departures';
import { FlowReadService } from './flow-read.service';
import { FlowService } from './flow.service';

type StepType = Exclude<FlowCommand['type'], 'leave' | 'void' | 'markLeave' | 'cancelLeave'>;

@Controller('api/index')
export class FlowController {
  constructor(
    private readonly flow: FlowService,
    private readonly read: FlowReadService,
    private readonly departures: FlowDepartures,
  ) {}

  /** per-student refusals are answered in the caller's language (the lang header wins over the setting) */
  private step(user: SchoolCaller, caller: CallerInfo, input: FlowStepInput, type: StepType) {
    const cmd: FlowCommand = { type, note: input.note, override: input.override };
    return this.flow.command({ ...user, lang: caller.lang }, input.student_ids, cmd, { eventId: input.event_id });
  }

  @Action('POST', 'shuttleStudent')
  shuttle(@Input() input: FlowStepInput, @SchoolUser() user: SchoolCaller, @Caller() caller: CallerInfo) {
    return this.step(user, caller, input, 'shuttle');
  }

  @Action('POST', 'studentEnter')
  enter(@Input() input: FlowStepInput, @SchoolUser() user: SchoolCaller, @Caller() caller: CallerInfo) {
    return this.step(user, caller, input, 'enter');
  }

  @Action('POST', 'teacherStudentDinner')
  dinner(@Input() input: FlowStepInput, @SchoolUser() user: SchoolCaller, @Caller() caller: CallerInfo) {
    return this.step(user, caller, input, 'dinner');
  }

  @Action('POST', 'teacherStudentStartTutor')
  startTutor(@Input() input: FlowStepInput, @SchoolUser() user: SchoolCaller, @Caller() caller: CallerInfo) {
    return this.step(user, caller, input, 'startTutor');
  }

  @Action('POST', 'teacherStudentEndTutor')
  endTutor(@Input() input: FlowStepInput, @SchoolUser() user: SchoolCaller, @Caller() caller: CallerInfo) {
    return this.step(user, caller, input, 'endTutor');
  }

  @Action('POST', 'studentLiyuan')
  leave(@Input() input: StudentLiyuanInput, @SchoolUser() user: SchoolCaller, @Caller() caller: CallerInfo) {
    // issue 27: with a pick-up code the verified person authorises the departure (module pickup, through FlowDepartures)
    if (input.pickup_code !== undefined)
      return this.departures.departWithCode({ ...user, lang: caller.lang }, { ...input, pickup_code: input.pickup_code });
    const cmd: FlowCommand = { type: 'leave', picked_up_by: input.picked_up_by, note: input.note, override: input.override };
    return this.flow.command({ ...user, lang: caller.lang }, input.student_ids, cmd, { eventId: input.event_id });
  }

  @Action('POST', 'voidFlowEvent')
  voidEvent(@Input() input: VoidFlowEventInput, @SchoolUser() user: SchoolCaller) {
    return this.flow.voidEvent(user, input);
  }

  @Action('GET', 'clockingInInfo')
  info(@Input() q: ClockingInInfoQuery, @SchoolUser() user: SchoolCaller) {
    return this.read.info(user, q);
  }

  @Action('GET', 'clockingInList')
  list(@Input() q: ClockingInListQuery, @SchoolUser() user: SchoolCaller) {
    return this.read.list(user, q);
  }

  @Action('GET', 'studentClockingInCount')
  counts(@Input() q: StudentClockingInCountQuery, @SchoolUser() user: SchoolCaller) {
    return this.read.counts(user, q);
  }

  @Action('GET', 'studentClockingInExport')
  async countsExport(@Input() q: StudentClockingInCountQuery, @SchoolUser() user: SchoolCaller, @Res() res: Response) {
    sendFile(res, await this.read.countsExport(user, q));
  }
}
