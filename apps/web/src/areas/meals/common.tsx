import { Tag } from 'antd';
import type { DinnerBooking } from '@wantuo/shared';
import { mealStrings } from './strings';

/** The status of a booking as a tag: booked (paid from …), unpaid, cancelled (by a leave or a person), served. */
export function BookingTag({ b }: { b: Pick<DinnerBooking, 'status' | 'cancel_cause' | 'served_at'> }) {
  const s = mealStrings.use();
  if (b.served_at) return <Tag color={b.status === 'booked' ? 'green' : 'orange'}>{b.status === 'booked' ? s('served.yes') : `${s('status.none')}·${s('served.yes')}`}</Tag>;
  if (b.status === 'cancelled') return <Tag>{b.cancel_cause === 'leave' ? s('cause.leave') : s('status.cancelled')}</Tag>;
  if (b.status === 'unpaid') return <Tag color="gold">{s('status.unpaid')}</Tag>;
  if (b.status === 'none') return <Tag>{s('status.none')}</Tag>;
  return <Tag color="blue">{s('status.booked')}</Tag>;
}

/** A time as HH:mm in the school's timezone (the browser's may differ). */
export const schoolTime = (iso: string, timeZone = 'Asia/Shanghai') =>
  new Intl.DateTimeFormat('zh-CN', { hour: '2-digit', minute: '2-digit', hour12: false, timeZone }).format(new Date(iso));

/** A moment as YYYY-MM-DD HH:mm in the school's timezone. */
export const schoolDateTime = (iso: string, timeZone = 'Asia/Shanghai') =>
  new Intl.DateTimeFormat('sv-SE', { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hour12: false, timeZone }).format(new Date(iso));
