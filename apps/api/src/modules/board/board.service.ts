import { Injectable } from '@nestjs/common';
import { Role, type FlowBoard, type FlowBoardQuery } from '@wantuo/shared';
import type { Sendable } from '../../core/http/sendable';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { BoardRepository } from './board.repository';

/**
 * Today's board of a teacher or head teacher: every student they are responsible for, with the day's state from
 * the projection (no row yet: expected), the settings the state machine needs and the authorised pick-up people,
 * in a constant number of queries. Phones build their buttons from it with the shared rules (refusalOf).
 * contract_units_left: the fewest units left among the student's active day/session contracts covering the board's
 * day (today by default), null without one; a subquery of the same statement (contracts_student_idx).
 * pickup_verified / pickup_override: the current departure's verified person or manual reason (issue 27).
 * The pick-up people's mobiles are masked unless the caller may see them whole (privacy/mobile-access.ts).
 */
@Injectable()
export class BoardService {
  constructor(private readonly repo: BoardRepository) {}

  async board(user: SchoolCaller, q: FlowBoardQuery): Promise<Sendable<FlowBoard>> {
    const [{ day, position }] = await this.repo.day(user.schoolId, q.date ?? null);
    const admin = user.role === Role.Admin;
    const students = await this.repo.students(user, user.schoolId, day, q.class_id ?? null, admin);
    return { day, position: Number(position), students };
  }
}
