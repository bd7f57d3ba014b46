import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Role, type FlowBoard, type FlowBoardQuery, type FlowBoardStudent } from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { SCHOOL_TODAY } from '../../core/database/sql-kit';
import type { SessionUser } from '../../core/http/request-context';
import { DEPARTURE_COLUMNS, DEPARTURE_JOIN } from '../flow/flow-store';
import { callerView, mobileSql, paramList } from '../privacy/mobile-access';
import { RESPONSIBLE } from '../students/students.service';

/**
 * Today's board of a teacher or head teacher: every student they are responsible for, with the day's state from
 * the projection (no row yet: expected), the settings the state machine needs and the authorised pick-up people,
 * in a constant number of queries. Phones build their buttons from it with the shared rules (refusalOf).
 * contract_units_left: the fewest units left among the student's active day/session contracts covering the board's
 * day (today by default), null without one; a subquery of the same statement (contracts_student_idx).
 * pickup_verified / pickup_override: the current departure's verified person or manual reason (DEPARTURE_JOIN, issue 27).
 * The pick-up people's mobiles are masked unless the caller may see them whole (privacy/mobile-access.ts).
 */
@Injectable()
export class BoardService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async board(user: SessionUser, q: FlowBoardQuery): Promise<FlowBoard> {
    const [{ day, position }]: Array<{ day: string; position: string }> = await this.db.query(
      `select to_char(coalesce($2::date, d.today), 'YYYY-MM-DD') as day,
              coalesce((select max(global_position) from flow_events where school_id = $1), 0) as position
         from ${SCHOOL_TODAY} d`,
      [user.schoolId, q.date ?? null],
    );
    const admin = user.role === Role.Admin;
    const { params, p } = paramList([user.schoolId, day, q.class_id ?? null, ...(admin ? [] : [user.id])]);
    const mobile = mobileSql(callerView(user), 'p.mobile', 's.id', p);
    const students: FlowBoardStudent[] = await this.db.query(
      `select s.id, s.name, s.gender::int as gender, s.grade, s.class_name, s.day_school, s.photo_url, s.allergies,
              s.needs_shuttle, s.needs_dinner, s.tutoring_type,
              c.id as class_id, c.name as care_class_name,
              coalesce(d.state, 'expected') as state, coalesce(d.on_leave, false) as on_leave, coalesce(d.version, 0) as version,
              d.picked_up_at, d.entered_at, d.dinner_at, d.tutor_started_at, d.tutor_ended_at, d.left_at, d.left_with,
              ${DEPARTURE_COLUMNS('dep')},
              coalesce((select json_agg(json_build_object('id', p.id, 'name', p.name, 'relation', p.relation, 'mobile', ${mobile}) order by p.id)
                          from pickup_people p where p.student_id = s.id and p.deleted_at is null), '[]') as pickup_people,
              (select min(greatest(0, k.units_total - k.units_used))
                 from contracts k
                where k.student_id = s.id and k.status = 'active' and k.kind in ('days', 'sessions') and k.units_total is not null
                  and $2::date between k.start_day and k.end_day) as contract_units_left
         from students s
         join care_class_students cs on cs.student_id = s.id
         join care_classes c on c.id = cs.class_id and c.deleted_at is null
         left join student_days d on d.student_id = s.id and d.day = $2::date
         ${DEPARTURE_JOIN('dep', 'd')}
        where s.school_id = $1 and s.status = 1
          and ($3::int is null or c.id = $3)
          and ${admin ? 'true' : RESPONSIBLE('$4')}
        order by c.name, s.name`,
      params,
    );
    return { day, position: Number(position), students };
  }
}
