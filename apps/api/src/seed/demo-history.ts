import { STEP_EVENT } from '@wantuo/shared';
import type { EntityManager } from 'typeorm';
import { SCHOOL_TODAY } from '../core/database/sql-kit';
import { rebuildProjectionIn } from '../modules/flow/rebuild';

/** How many past days of attendance the demo school gets (school days only). */
const HISTORY_DAYS = 28;

/**
 * The demo school's attendance history (part of the demo seed, run once with it): the last four weeks of school days
 * (Monday to Friday, not today) as flow events, then the projection replayed from them with the flow's own state
 * machine (rebuildProjectionIn), so the boards' history, the students' timelines and the data centre show real
 * numbers on a fresh `npm start`. Each class student is picked up (if on the shuttle), enters between 16:00 and 16:11,
 * has dinner (if booked for dinner), is tutored and leaves with their first pick-up person; about one day in twelve
 * a student does not come. Times are the school's local times; the teacher account is the actor.
 */
export async function seedDemoHistory(em: EntityManager, schoolId: number, actorId: number): Promise<{ events: number; days: number }> {
  await em.query(
    `with school as (select sc.timezone, d.today from schools sc cross join ${SCHOOL_TODAY} d where sc.id = $1),
          days as (select d::date as day from school, generate_series(today - ${HISTORY_DAYS}, today - 1, interval '1 day') d where extract(isodow from d) < 6),
          kids as (
            select s.id as student_id, ccs.class_id, s.needs_shuttle, s.needs_dinner,
                   (select p.id from pickup_people p where p.student_id = s.id order by p.id limit 1) as pickup
              from care_class_students ccs join students s on s.id = ccs.student_id and s.status = 1
             where ccs.school_id = $1),
          attended as (select k.*, d.day, (k.student_id * 7 + extract(doy from d.day)::int) % 12 as h from kids k cross join days d),
          steps as (
            select a.*, x.ord, x.type, x.state_after, x.at_min
              from attended a
             cross join lateral (values
               (1, '${STEP_EVENT.picked_up}', 'picked_up', 15 * 60 + 40),
               (2, '${STEP_EVENT.entered}', 'in_centre', 16 * 60 + a.h),
               (3, '${STEP_EVENT.dinner}', 'in_centre', 17 * 60 + 30),
               (4, '${STEP_EVENT.tutor_started}', 'in_centre', 18 * 60),
               (5, '${STEP_EVENT.tutor_ended}', 'in_centre', 18 * 60 + 50),
               (6, '${STEP_EVENT.left}', 'left', 19 * 60 + a.h * 3)) x(ord, type, state_after, at_min)
             where a.h <> 0 and (x.ord <> 1 or a.needs_shuttle) and (x.ord <> 3 or a.needs_dinner))
     insert into flow_events (event_id, school_id, student_id, day, version, type, payload, class_id, state_after, actor_id, occurred_at)
     select gen_random_uuid(), $1, st.student_id, st.day, row_number() over (partition by st.student_id, st.day order by st.ord), st.type,
            case when st.ord = 6 and st.pickup is not null then jsonb_build_object('picked_up_by', st.pickup) else '{}'::jsonb end,
            st.class_id, st.state_after, $2, (st.day + make_interval(mins => st.at_min)) at time zone school.timezone
       from steps st cross join school
      order by st.day, st.ord, st.student_id`,
    [schoolId, actorId],
  );
  return rebuildProjectionIn(em, { schoolId });
}
