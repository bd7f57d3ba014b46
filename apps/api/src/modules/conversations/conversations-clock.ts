import { Injectable } from '@nestjs/common';

/** The time the conversations module works with (a provider: tests move it to 22:00 to see the office hours). */
@Injectable()
export class ConversationsClock {
  now(): Date {
    return new Date();
  }
}
