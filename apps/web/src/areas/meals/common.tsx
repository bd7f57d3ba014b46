import { Tag } from 'antd';
import type { DinnerBooking } from '@wantuo/shared';
import { mealStrings } from './strings';

/** The status of a booking as a tag: booked (paid from …), unpaid, cancelled (by a leave or a person), served. */
export function BookingTag({ b }: { b: Pick<DinnerBooking, 'status' | 'cancel_cause' | 'served_at'> }) {
  const s = mealStrings.use();
  if (b.served_at)
    return (
      <Tag color={b.status === 'booked' ? 'green' : 'orange'}>
        {b.status === 'booked' ? s('served.yes') : `${s('status.none')}·${s('served.yes')}`}
      </Tag>
    );
  if (b.status === 'cancelled') return <Tag>{b.cancel_cause === 'leave' ? s('cause.leave') : s('status.cancelled')}</Tag>;
  if (b.status === 'unpaid') return <Tag color="gold">{s('status.unpaid')}</Tag>;
  if (b.status === 'none') return <Tag>{s('status.none')}</Tag>;
  return <Tag color="blue">{s('status.booked')}</Tag>;
}
