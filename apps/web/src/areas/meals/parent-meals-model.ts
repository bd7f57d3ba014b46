import { useQuery, useQueryClient } from '@tanstack/react-query';
import { addDays, formatFen, mealBookingOpen, type DinnerBooking, type MealGoods, type PayChannel } from '@wantuo/shared';
import { useState } from 'react';
import { useAction } from '../../api/action';
import { feedback } from '../../api/feedback';
import { get, post } from '../../api/http';
import { newRequestId } from '../../lib/request-id';
import { mealStrings } from './strings';
import { queryKey } from '../../api/query';

/**
 * The parent's dinners without a UI library: the desktop's meals page and the phone's both run them (which days, what
 * each day allows, booking, changing, cancelling, and the payment of an unpaid booking).
 */

/** The days shown: two past days (what was served) and the next week. */
export const DAYS_AHEAD = 7;

/** One day of a child's dinners as the page shows it. */
export interface MealDay {
  day: string;
  isToday: boolean;
  /** before the cutoff */
  open: boolean;
  /** a contract of the child's includes dinner that day (nothing to pay) */
  covered: boolean;
  /** the day cannot be booked: a holiday, or the class does not meet */
  closed: 'holiday' | 'no_class' | null;
  booking: DinnerBooking | null;
}

/** A child's dinners: the school's settings (its day and cutoff), the items, and each day of the window. */
export function useChildMeals(studentId: number) {
  const qc = useQueryClient();
  const settings = useQuery({ queryKey: queryKey('mealSettings'), queryFn: () => get('mealSettings') });
  const from = settings.data?.today;
  const input = from ? { student_id: studentId, from: addDays(from, -2), to: addDays(from, DAYS_AHEAD - 1) } : undefined;
  const q = useQuery({
    queryKey: queryKey('parentMeals', input),
    queryFn: () => get('parentMeals', input!),
    enabled: Boolean(input),
  });
  const data = q.data;
  let days: MealDay[] = [];
  if (data) {
    const st = data.settings;
    const byDay = new Map(data.bookings.map((b) => [b.day, b]));
    const covered = new Set(data.covered_days);
    const closedOn = new Map(data.closed_days.map((c) => [c.day, c.reason]));
    days = Array.from({ length: DAYS_AHEAD + 2 }, (_, i) => addDays(st.today, i - 2)).map((day) => ({
      day,
      isToday: day === st.today,
      open: mealBookingOpen(day, { day: st.today, minutes: st.now_minutes }, { time: st.cutoff_time, days_before: st.days_before }),
      covered: covered.has(day),
      closed: closedOn.get(day) ?? null,
      booking: byDay.get(day) ?? null,
    }));
  }
  return {
    settings,
    q,
    days,
    /** loading (the settings, then the days) */
    pending: settings.isPending || (Boolean(from) && q.isPending),
    error: settings.isError ? settings : q.isError ? q : null,
    // every window of the child's (a key's input matches in part)
    refresh: () => qc.invalidateQueries({ queryKey: [...queryKey('parentMeals'), { student_id: studentId }] }),
  };
}

/** Whether a booking holds a dinner (booked, or waiting for its payment). */
export const isActive = (b: DinnerBooking | null): b is DinnerBooking => b !== null && (b.status === 'booked' || b.status === 'unpaid');

/** Whether the day may be changed: before the cutoff, with items, not served; a closed day only cancels what it has. */
export const dayEditable = (d: MealDay, goods: readonly MealGoods[]): boolean =>
  d.open && goods.length > 0 && !d.booking?.served_at && (!d.closed || isActive(d.booking));

/** How a booking is paid, for its line: by the contract, the amount to pay, or the amount paid; null when none. */
export function usePaidByText() {
  const s = mealStrings.use();
  return (b: DinnerBooking | null): string | null =>
    b && b.status !== 'none' && b.status !== 'cancelled'
      ? b.pay_from === 'contract'
        ? s('parent.paid_contract')
        : b.status === 'unpaid'
          ? s('parent.to_pay', { price: formatFen(b.price_fen) })
          : `¥${formatFen(b.price_fen)}`
      : null;
}

/** The status of a booking as a tag's text and tone: served, cancelled (by a leave or a person), unpaid, none, booked. */
export function useBookingTag() {
  const s = mealStrings.use();
  return (
    b: Pick<DinnerBooking, 'status' | 'cancel_cause' | 'served_at'>,
  ): { text: string; tone: 'green' | 'orange' | 'gold' | 'blue' | 'default' } => {
    if (b.served_at)
      return b.status === 'booked' ? { text: s('served.yes'), tone: 'green' } : { text: `${s('status.none')}·${s('served.yes')}`, tone: 'orange' };
    if (b.status === 'cancelled') return { text: b.cancel_cause === 'leave' ? s('cause.leave') : s('status.cancelled'), tone: 'default' };
    if (b.status === 'unpaid') return { text: s('status.unpaid'), tone: 'gold' };
    if (b.status === 'none') return { text: s('status.none'), tone: 'default' };
    return { text: s('status.booked'), tone: 'blue' };
  };
}

/** The weekday of a day, short ("周一" / "Mon"). */
export const weekdayOf = (day: string, lang: string): string =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString(lang === 'en' ? 'en-GB' : 'zh-CN', { weekday: 'short', timeZone: 'UTC' });

/**
 * Booking a day (one request key per day and item: a retry never books twice) and cancelling it. A booking that
 * needs paying goes to `onPay`; the rest is said by a message.
 */
export function useDayBooking(
  studentId: number,
  day: string,
  booking: DinnerBooking | null,
  hooks: { onChanged: () => void; onPay: (b: DinnerBooking) => void },
) {
  const s = mealStrings.use();
  const [requestId] = useState(newRequestId);
  const bookDinner = useAction('bookDinner', {
    onDone: (nb) => {
      hooks.onChanged();
      if (nb.status === 'unpaid') hooks.onPay(nb);
      else feedback().message.success(s('parent.booked_ok'));
    },
  });
  const cancelDinner = useAction('cancelDinner', { success: s('parent.cancelled_ok'), onDone: hooks.onChanged });
  return {
    book: {
      run: (goods_id: number) => bookDinner.run({ student_id: studentId, day, goods_id, request_id: `${requestId}-${goods_id}` }),
      busy: bookDinner.busy,
    },
    cancel: { run: () => cancelDinner.run({ id: booking!.id, version: booking!.version }), busy: cancelDinner.busy },
  };
}

/** Starts the WeChat Pay payment of an unpaid dinner on the channel the payment UI chose. */
export const payDinner = (b: Pick<DinnerBooking, 'id'>) => (channel: PayChannel) => post('wechatPayDinner', { id: b.id, channel });
