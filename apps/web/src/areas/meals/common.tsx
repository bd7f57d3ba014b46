import { Tag } from 'antd';
import type { DinnerBooking } from '@wantuo/shared';
import { useBookingTag } from './parent-meals-model';

/** The status of a booking as a tag: booked (paid from …), unpaid, cancelled (by a leave or a person), served. */
export function BookingTag({ b }: { b: Pick<DinnerBooking, 'status' | 'cancel_cause' | 'served_at'> }) {
  const { text, tone } = useBookingTag()(b);
  return <Tag color={tone === 'default' ? undefined : tone}>{text}</Tag>;
}
