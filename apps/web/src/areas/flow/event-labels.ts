import type { FlowKey } from './strings';

/** What each flow event type is called on a timeline. */
export const EVENT_LABEL: Record<string, FlowKey> = {
  'student.picked_up': 'parent.ev_picked_up',
  'student.entered': 'parent.ev_entered',
  'student.dinner_confirmed': 'parent.ev_dinner',
  'student.tutoring_started': 'parent.ev_tutor_started',
  'student.tutoring_ended': 'parent.ev_tutor_ended',
  'student.left': 'parent.ev_left',
  'event.voided': 'parent.ev_voided',
  'day.leave_approved': 'parent.ev_leave',
  'day.leave_cancelled': 'parent.ev_leave_cancelled',
};
