import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  calendarDayProblem,
  type AddRoomInput,
  type DelSchoolCalendarDayInput,
  type Page,
  type Room,
  type RoomListQuery,
  type SchoolCalendarDayAnswer,
  type SchoolCalendarEntry,
  type SchoolCalendarQuery,
  type SetSchoolCalendarDayInput,
} from '@wantuo/shared';
import { DataSource } from 'typeorm';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { containsPattern, isUniqueViolation } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { Sendable } from '../../core/http/sendable';
import { deleteDay, insertRoom, roomPage, upsertDay } from './teaching-calendar.repository';
import { calendarOf } from './teaching-schedule.repository';

/** The school's rooms and its calendar of holidays and 调休 make-up days. */
@Injectable()
export class SchoolCalendarService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  rooms(user: SchoolCaller, q: RoomListQuery): Promise<Page<Sendable<Room>>> {
    return roomPage(this.db, user.schoolId, containsPattern(q.name), q);
  }

  async addRoom(user: SchoolCaller, input: AddRoomInput): Promise<Sendable<Room>> {
    try {
      return await insertRoom(this.db, user.schoolId, input.name, input.capacity ?? null);
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('teaching.room_name_taken');
      throw err;
    }
  }

  async calendar(user: SchoolCaller, q: SchoolCalendarQuery): Promise<{ list: SchoolCalendarEntry[] }> {
    const list = await calendarOf(this.db, user.schoolId, q.from, q.to);
    return { list: list.map((c) => ({ day: c.day, kind: c.kind, works_as: c.works_as ?? null, note: c.note ?? null })) };
  }

  /**
   * Sets a day (replacing what the day was): a holiday, or a make-up Saturday or Sunday running a weekday's
   * timetable. Sessions already on the day stay as they are: the answer counts them, to move or cancel.
   */
  async setDay(user: SchoolCaller, input: SetSchoolCalendarDayInput): Promise<SchoolCalendarDayAnswer> {
    const entry = {
      day: input.day,
      kind: input.kind,
      works_as: input.kind === 'makeup' ? (input.works_as ?? null) : (input.works_as ?? null),
      note: input.note || null,
    };
    const problem = calendarDayProblem(entry);
    if (problem) throw new AppError(`teaching.${problem}`);
    return upsertDay(this.db, user.schoolId, entry, user.id);
  }

  async delDay(user: SchoolCaller, input: DelSchoolCalendarDayInput): Promise<{ day: string }> {
    if (!(await deleteDay(this.db, user.schoolId, input.day))) throw new AppError('teaching.calendar_day_not_found');
    return { day: input.day };
  }
}
