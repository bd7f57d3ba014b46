import { Controller } from '@nestjs/common';
import { FlowBoardQuery } from '@wantuo/shared';
import { SchoolUser, type SchoolCaller } from '../../core/auth/current-user.decorator';
import { Action } from '../../core/http/action.decorator';
import { Input } from '../../core/http/input.decorator';
import { BoardService } from './board.service';

@Controller('api/index')
export class BoardController {
  constructor(private readonly board: BoardService) {}

  @Action('GET', 'flowBoard')
  flowBoard(@Input() q: FlowBoardQuery, @SchoolUser() user: SchoolCaller) {
    return this.board.board(user, q);
  }
}
