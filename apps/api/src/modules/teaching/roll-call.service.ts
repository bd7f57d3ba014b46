import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  DATA_PERIOD_SQL,
  Role,
  type RollCallAnswer,
  type RollCallCount,
  type RollCallCountQuery,
  type RollCallQuery,
  type SaveRollCallInput,
} from '@wantuo/shared';
import { DataSource, type EntityManager } from 'typeorm';
import { schoolToday } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import type { FileAnswer } from '../../core/http/send-file';
import { sheet, xlsxFile } from '../../core/http/xlsx-file';
import { CLASS_TABLES } from './session-core';
import { TeachingSessionsService } from './sessions.service';
import { schoolOf } from './teaching-sql';

const STATUSES = ['present', 'late', 'absent', 'leave'] as const;
const PERIOD_HEADER = { day: '日期', week: '周（周一）', month: '月份' } as const;
const KIND_NAME = { teaching: '兴趣班', tutoring: '课业辅导' } as const;

/**
 * Roll call of a session (teaching or tutoring), by its teacher (or the admin) from the phone: the class's students with their status; an
 * approved leave (leave_requests status 1 covering the day) pre-fills 'leave' until the roll call is saved.
 */
@Injectable()
export class RollCallService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly sessions: TeachingSessionsService,
  ) {}

  /** The session's class name, day and teacher: the session's teacher or the school's admin only. */
  private async access(db: Pick<EntityManager, 'query'>, user: SessionUser, sessionId: number, lock: boolean) {
    const [s]: Array<{ id: number; kind: 'teaching' | 'tutoring'; class_id: number; class_name: string; day: string; state: string }> =
      await db.query(
        `select s.id, s.kind, s.class_id, coalesce(c.name, u.name) as class_name, to_char(s.day, 'YYYY-MM-DD') as day, s.state
         from class_sessions s
         left join teaching_classes c on s.kind = 'teaching' and c.id = s.class_id
         left join tutoring_classes u on s.kind = 'tutoring' and u.id = s.class_id
        where s.school_id = $1 and s.id = $2 and ($3::int is null or s.teacher_id = $3)${lock ? ' for update of s' : ''}`,
        [schoolOf(user), sessionId, user.role === Role.Admin ? null : user.id],
      );
    if (!s) throw new AppError('teaching.session_not_found');
    return s;
  }

  async get(user: SessionUser, q: RollCallQuery): Promise<RollCallAnswer> {
    const s = await this.access(this.db, user, q.session_id, false);
    // the class's students now, and those who left it after a roll call of this session
    const students: RollCallAnswer['students'] = await this.db.query(
      `with who as (
         select student_id from ${CLASS_TABLES[s.kind].members} where class_id = $2
         union select student_id from session_roll_calls where session_id = $1)
       select st.id as student_id, st.name, rc.status is not null as saved,
              exists (select 1 from leave_requests l where l.student_id = st.id and l.status = 1 and $3::date between l.start_day and l.end_day) as on_leave,
              rc.status, u.name as by_name, rc.at
         from who join students st on st.id = who.student_id
         left join session_roll_calls rc on rc.session_id = $1 and rc.student_id = st.id
         left join users u on u.id = rc.by_user
        order by st.name, st.id`,
      [s.id, s.class_id, s.day],
    );
    for (const st of students) if (!st.saved && st.on_leave) st.status = 'leave';
    return { session: await this.sessions.one(this.db, user, s.id), class_name: s.class_name, students };
  }

  /** Saves the statuses of several students at once (from the session's day on); the session becomes held. */
  async save(user: SessionUser, input: SaveRollCallInput): Promise<RollCallAnswer> {
    const school = schoolOf(user);
    await this.db.transaction(async (em) => {
      const s = await this.access(em, user, input.session_id, true);
      if (s.state === 'cancelled') throw new AppError('teaching.roll_call_cancelled');
      if (s.day > (await schoolToday(em, school))) throw new AppError('teaching.roll_call_future');
      const ids = input.entries.map((e) => e.student_id);
      const outsiders: Array<{ id: number; name: string | null }> = await em.query(
        `select x.id, st.name from unnest($1::int[]) as x(id) left join students st on st.id = x.id and st.school_id = $3
          where not exists (select 1 from ${CLASS_TABLES[s.kind].members} m where m.class_id = $2 and m.student_id = x.id) order by x.id`,
        [ids, s.class_id, school],
      );
      if (outsiders.length) throw new AppError('teaching.roll_call_not_member', { names: outsiders.map((o) => o.name ?? `#${o.id}`).join('、') });
      await em.query(
        `insert into session_roll_calls (session_id, student_id, school_id, status, by_user)
         select $1, unnest($2::int[]), $3, unnest($4::varchar[]), $5
         on conflict (session_id, student_id) do update set status = excluded.status, by_user = excluded.by_user, at = now()`,
        [s.id, ids, school, input.entries.map((e) => e.status), user.id],
      );
      if (s.state === 'planned')
        await em.query(`update class_sessions set state = 'held', version = version + 1, updated_at = now() where id = $1`, [s.id]);
    });
    return this.get(user, { session_id: input.session_id });
  }

  /**
   * The data centre's roll-call counts: per period (the data centre's day, week or month of the session's day) and
   * kind, the sessions with a roll call and each status saved; the admin every session of the school, a teacher or
   * head teacher the sessions they teach. One statement over (school, day).
   */
  async counts(user: SessionUser, q: RollCallCountQuery): Promise<{ list: RollCallCount[] }> {
    const period = DATA_PERIOD_SQL[q.group ?? 'day']('s.day');
    const list: RollCallCount[] = await this.db.query(
      `select ${period}::text || ':' || s.kind as id, ${period}::text as period, s.kind, count(distinct s.id)::int as sessions, count(*)::int as total,
              ${STATUSES.map((st) => `count(*) filter (where rc.status = '${st}')::int as ${st}`).join(', ')}
         from class_sessions s join session_roll_calls rc on rc.session_id = s.id
        where s.school_id = $1 and s.day between $2::date and $3::date and s.state <> 'cancelled'
          and ($4::text is null or s.kind = $4) and ($5::int is null or s.teacher_id = $5)
        group by 2, 3
        order by 2 desc, 3`,
      [schoolOf(user), q.date_from, q.date_to, q.kind ?? null, user.role === Role.Admin ? null : user.id],
    );
    return { list };
  }

  /** The counts of rollCallCount as an .xlsx: one row per period and kind, Chinese headers, a total row. */
  async countsExport(user: SessionUser, q: RollCallCountQuery): Promise<FileAnswer> {
    const { list } = await this.counts(user, q);
    return xlsxFile(`课堂考勤-${q.date_from}-${q.date_to}.xlsx`, [
      sheet({
        name: '课堂考勤',
        rows: [...list].reverse(),
        total: true,
        columns: [
          { header: PERIOD_HEADER[q.group ?? 'day'], value: (r) => r.period, width: 14 },
          { header: '类型', value: (r) => KIND_NAME[r.kind], width: 12 },
          { header: '点名课次', value: (r) => r.sessions, width: 10, sum: true },
          { header: '点名人次', value: (r) => r.total, width: 10, sum: true },
          { header: '出勤', value: (r) => r.present, width: 8, sum: true },
          { header: '迟到', value: (r) => r.late, width: 8, sum: true },
          { header: '缺勤', value: (r) => r.absent, width: 8, sum: true },
          { header: '请假', value: (r) => r.leave, width: 8, sum: true },
        ],
      }),
    ]);
  }
}
