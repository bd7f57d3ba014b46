import { Controller } from '@nestjs/common';
import { SchoolUser, type SchoolCaller } from '../../core/auth/current-user.decorator';
import { Action } from '../../core/http/action.decorator';
import { Input } from '../../core/http/input.decorator';
import { HomeService } from './home.service';

/** Landing pages (extra actions): the admin's today at a glance. */
@Controller('api/index')
export class HomeController {
  constructor(private readonly home: HomeService) {}

  @Action('GET', 'principalHome')
  principal(@Input() _: unknown, @SchoolUser() user: SchoolCaller) {
    return this.home.principal(user);
  }
}
