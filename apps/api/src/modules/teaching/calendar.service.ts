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
import { containsPattern, isUniqueViolation, offsetOf, pageOf, totalOf } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { calendarOf, schoolOf } from './teaching-sql';

const ROOM_COLUMNS = `r.id, r.name, r.capacity, (select count(*)::int from teaching_classes c where c.room_id = r.id and c.deleted_at is null) as classes, r.version`;

/** The school's rooms and its calendar of holidays and 调休 make-up days. */
@Injectable()
export class SchoolCalendarService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async rooms(user: SessionUser, q: RoomListQuery): Promise<Page<Room>> {
    const where = `r.school_id = $1 and ($2::text is null or r.name ilike $2)`;
    const rows: Array<Room & { total: number }> = await this.db.query(
      `select n.total, p.* from (select count(*)::int as total from rooms r where ${where}) n
       left join lateral (select ${ROOM_COLUMNS} from rooms r where ${where} order by r.name, r.id limit $3 offset $4) p on true`,
      [schoolOf(user), containsPattern(q.name), q.limit, offsetOf(q)],
    );
    const list = rows.filter((r) => r.id !== null).map(({ total: _, ...r }) => r as Room);
    return pageOf(list, totalOf(rows), q);
  }

  async addRoom(user: SessionUser, input: AddRoomInput): Promise<Room> {
    try {
      const [row]: Room[] = await this.db.query(
        `with i as (insert into rooms (school_id, name, capacity) values ($1, $2, $3) returning *) select ${ROOM_COLUMNS} from i r`,
        [schoolOf(user), input.name, input.capacity ?? null],
      );
      return row;
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('teaching.room_name_taken');
      throw err;
    }
  }

  async calendar(user: SessionUser, q: SchoolCalendarQuery): Promise<{ list: SchoolCalendarEntry[] }> {
    const list = await calendarOf(this.db, schoolOf(user), q.from, q.to);
    return { list: list.map((c) => ({ day: c.day, kind: c.kind, works_as: c.works_as ?? null, note: c.note ?? null })) };
  }

  /**
   * Sets a day (replacing what the day was): a holiday, or a make-up Saturday or Sunday running a weekday's
   * timetable. Sessions already on the day stay as they are: the answer counts them, to move or cancel.
   */
  async setDay(user: SessionUser, input: SetSchoolCalendarDayInput): Promise<SchoolCalendarDayAnswer> {
    const entry = {
      day: input.day,
      kind: input.kind,
      works_as: input.kind === 'makeup' ? (input.works_as ?? null) : (input.works_as ?? null),
      note: input.note || null,
    };
    const problem = calendarDayProblem(entry);
    if (problem) throw new AppError(`teaching.${problem}`);
    const school = schoolOf(user);
    const [row]: SchoolCalendarDayAnswer[] = await this.db.query(
      `with u as (
         insert into school_calendar_days (school_id, day, kind, works_as, note, created_by) values ($1, $2, $3, $4, $5, $6)
         on conflict (school_id, day) do update set kind = excluded.kind, works_as = excluded.works_as, note = excluded.note, created_by = excluded.created_by, created_at = now()
         returning day, kind, works_as, note)
       select to_char(u.day, 'YYYY-MM-DD') as day, u.kind, u.works_as::int as works_as, u.note,
              (select count(*)::int from class_sessions s where s.school_id = $1 and s.day = $2::date and s.state <> 'cancelled') as sessions_on_day
         from u`,
      [school, entry.day, entry.kind, entry.works_as, entry.note, user.id],
    );
    return row;
  }

  async delDay(user: SessionUser, input: DelSchoolCalendarDayInput): Promise<{ day: string }> {
    const rows: unknown[] = await this.db.query(
      `with d as (delete from school_calendar_days where school_id = $1 and day = $2::date returning day) select day from d`,
      [schoolOf(user), input.day],
    );
    if (!rows.length) throw new AppError('teaching.calendar_day_not_found');
    return { day: input.day };
  }
}
