import { Tag, Timeline, Typography } from 'antd';
import type { StudentDayInfo, TutorTaskInfo } from '@wantuo/shared';
import { localTime } from '../../lib/school-time';
import { EVENT_LABEL } from './event-labels';
import { flowStrings } from './strings';
import { pickupStrings } from '../pickup/strings';

export { EVENT_LABEL } from './event-labels';

/** An event of a student-day (clockingInInfo, voidFlowEvent: voids marked) or of a tutoring record (tutorTaskInfo). */
type TimelineEvent = StudentDayInfo['events'][number] | TutorTaskInfo['events'][number];

/** A student-day's events, oldest first, with who did what and when; voided steps are struck through. */
export function DayTimeline({ events, tz }: { events: TimelineEvent[]; tz?: string }) {
  const tf = flowStrings.use();
  const pt = pickupStrings.use();
  if (events.length === 0) return <Typography.Text type="secondary">{tf('parent.no_events')}</Typography.Text>;
  return (
    <Timeline
      items={events.map((e, i) => {
        const reason = typeof e.payload.reason === 'string' ? e.payload.reason : undefined;
        const voided = 'voided' in e && e.voided;
        // issue 27: a departure with a verified pick-up code, or a head teacher's manual release (its override)
        const verified =
          e.type === 'student.left' ? (e.payload as { pickup_verified?: { name: string; relation: string } }).pickup_verified : undefined;
        return {
          key: i,
          color: e.type === 'event.voided' ? 'red' : voided ? 'gray' : 'blue',
          content: (
            <div>
              <span style={voided ? { textDecoration: 'line-through' } : undefined}>
                <strong>{localTime(e.at, tz)}</strong> {tf(EVENT_LABEL[e.type] ?? 'parent.ev_other')}
              </span>
              {voided && <Tag style={{ marginLeft: 6 }}>{tf('ops.voided')}</Tag>}
              {e.actor_name && <Typography.Text type="secondary"> · {e.actor_name}</Typography.Text>}
              {verified && (
                <div data-testid="timeline-pickup-verified">
                  <Tag color="green">{pt('pickup.verified', { name: verified.name, relation: verified.relation })}</Tag>
                </div>
              )}
              {e.type === 'student.left' && typeof e.payload.override === 'string' && (
                <div data-testid="timeline-pickup-manual">
                  <Tag color="orange">{pt('pickup.manual', { reason: e.payload.override })}</Tag>
                </div>
              )}
              {reason && (
                <div>
                  <Typography.Text type="secondary">
                    {tf('ops.void_reason')}：{reason}
                  </Typography.Text>
                </div>
              )}
            </div>
          ),
        };
      })}
    />
  );
}
