import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Flex, Popconfirm, Select, Tag, Typography } from 'antd';
import { addDays, formatFen, mealBookingOpen, type DinnerBooking, type MealGoods } from '@wantuo/shared';
import { useState } from 'react';
import { feedback } from '../../api/feedback';
import { get, post } from '../../api/http';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { newRequestId } from '../../lib/request-id';
import { PaymentDialog } from '../money/payment-dialog';
import { ChildSwitcher } from '../parent/children-gate';
import { BookingTag } from './common';
import { mealStrings } from './strings';

const DAYS = 7;

/** The parent's meals page: each child's dinner for the next days, booked before the cutoff, paid when no contract covers it, and what was served. */
export default function ParentMeals() {
  const s = mealStrings.use();
  const children = useQuery({ queryKey: ['parentChildren'], queryFn: () => get('parentChildren') });
  const kids = children.data?.list ?? [];
  const [kid, setKid] = useState<number | null>(null);
  const current = kid ?? kids[0]?.id ?? null;
  return (
    <Card title={s('parent.title')} styles={{ body: { padding: 12 } }}>
      {children.isLoading ? (
        <Loading />
      ) : children.isError ? (
        <LoadError onRetry={() => void children.refetch()} />
      ) : kids.length === 0 ? (
        <EmptyState description={s('parent.no_children')} />
      ) : (
        <Flex vertical gap={12}>
          <ChildSwitcher kids={kids} value={current ?? undefined} onChange={(id) => setKid(id)} />
          {current && <ChildMeals studentId={current} />}
        </Flex>
      )}
    </Card>
  );
}

function ChildMeals({ studentId }: { studentId: number }) {
  const s = mealStrings.use();
  const qc = useQueryClient();
  const today = useQuery({ queryKey: ['mealSettings'], queryFn: () => get('mealSettings') });
  const from = today.data?.today;
  const q = useQuery({
    queryKey: ['parentMeals', studentId, from],
    queryFn: () => get('parentMeals', { student_id: studentId, from: addDays(from!, -2), to: addDays(from!, DAYS - 1) }),
    enabled: Boolean(from),
  });
  const [paying, setPaying] = useState<DinnerBooking | null>(null);
  const refresh = () => void qc.invalidateQueries({ queryKey: ['parentMeals', studentId] });
  if (today.isLoading || q.isLoading) return <Loading />;
  if (today.isError || q.isError) return <LoadError onRetry={() => void (today.isError ? today.refetch() : q.refetch())} />;
  const data = q.data!;
  const st = data.settings;
  const days = Array.from({ length: DAYS + 2 }, (_, i) => addDays(st.today, i - 2));
  const byDay = new Map(data.bookings.map((b) => [b.day, b]));
  const covered = new Set(data.covered_days);
  const closedOn = new Map(data.closed_days.map((c) => [c.day, c.reason]));
  return (
    <Flex vertical gap={8}>
      <Typography.Text type="secondary">
        {st.days_before ? s('parent.cutoff_before', { time: st.cutoff_time }) : s('parent.cutoff', { time: st.cutoff_time })}
        {covered.size > 0 && s('parent.covered_hint')}
      </Typography.Text>
      {data.goods.length === 0 && <EmptyState description={s('parent.no_goods')} />}
      {days.map((day) => (
        <DayCard
          key={day}
          day={day}
          isToday={day === st.today}
          open={mealBookingOpen(day, { day: st.today, minutes: st.now_minutes }, { time: st.cutoff_time, days_before: st.days_before })}
          covered={covered.has(day)}
          closed={closedOn.get(day) ?? null}
          booking={byDay.get(day) ?? null}
          goods={data.goods}
          studentId={studentId}
          onChanged={refresh}
          onPay={setPaying}
        />
      ))}
      <PaymentDialog
        open={paying !== null}
        title={paying ? s('parent.pay_title', { day: paying.day }) : ''}
        amountFen={paying?.price_fen ?? 0}
        wechat={paying ? (channel) => post('wechatPayDinner', { id: paying.id, channel }) : undefined}
        phoneChannels
        onPaid={() => {
          feedback().message.success(s('parent.paid'));
          refresh();
        }}
        onClose={() => setPaying(null)}
      />
    </Flex>
  );
}

function DayCard(p: {
  day: string;
  isToday: boolean;
  open: boolean;
  covered: boolean;
  /** the day cannot be booked: a holiday, or the class does not meet */
  closed: 'holiday' | 'no_class' | null;
  booking: DinnerBooking | null;
  goods: MealGoods[];
  studentId: number;
  onChanged: () => void;
  onPay: (b: DinnerBooking) => void;
}) {
  const s = mealStrings.use();
  const b = p.booking;
  const active = b !== null && (b.status === 'booked' || b.status === 'unpaid');
  // an active booking shows its item with 更换 / 取消; choosing an item is for a day without one, or while changing it
  const [changing, setChanging] = useState(false);
  const [choice, setChoice] = useState<number | undefined>(active ? (b.goods_id ?? undefined) : undefined);
  const [requestId] = useState(newRequestId);
  const book = useMutation({
    mutationFn: (goods_id: number) => post('bookDinner', { student_id: p.studentId, day: p.day, goods_id, request_id: `${requestId}-${goods_id}` }),
    onSuccess: (nb) => {
      setChanging(false);
      p.onChanged();
      if (nb.status === 'unpaid') p.onPay(nb);
      else feedback().message.success(s('parent.booked_ok'));
    },
  });
  const cancel = useMutation({
    mutationFn: () => post('cancelDinner', { id: b!.id, version: b!.version }),
    onSuccess: () => {
      setChoice(undefined);
      feedback().message.success(s('parent.cancelled_ok'));
      p.onChanged();
    },
  });
  const weekday = new Date(`${p.day}T00:00:00Z`).toLocaleDateString('zh-CN', { weekday: 'short', timeZone: 'UTC' });
  // a closed day keeps what was booked before (it can be cancelled) but takes no new booking
  const editable = p.open && p.goods.length > 0 && !b?.served_at && (!p.closed || active);
  const paidBy =
    b && b.status !== 'none' && b.status !== 'cancelled'
      ? b.pay_from === 'contract'
        ? s('parent.paid_contract')
        : b.status === 'unpaid'
          ? s('parent.to_pay', { price: formatFen(b.price_fen) })
          : `¥${formatFen(b.price_fen)}`
      : null;
  return (
    <Card size="small" data-testid={`meal-day-${p.day}`}>
      <Flex justify="space-between" align="center" gap={8}>
        <div style={{ minWidth: 0 }}>
          <Typography.Text strong>
            {p.day.slice(5)} {weekday}
          </Typography.Text>
          {p.isToday && (
            <Tag color="blue" style={{ marginLeft: 6 }}>
              {s('parent.today')}
            </Tag>
          )}
          {p.covered && (
            <Tag color="green" style={{ marginLeft: 6 }}>
              {s('parent.covered')}
            </Tag>
          )}
        </div>
        {b ? (
          <BookingTag b={b} />
        ) : p.closed ? (
          <Tag data-testid="meal-day-closed">{s(p.closed === 'holiday' ? 'parent.holiday' : 'parent.no_class')}</Tag>
        ) : (
          !p.open && <Tag>{s('parent.closed')}</Tag>
        )}
      </Flex>
      {b?.goods_name && b.status !== 'none' && (
        <Typography.Paragraph
          style={{ margin: '6px 0 0' }}
          type={b.status === 'cancelled' ? 'secondary' : undefined}
          delete={b.status === 'cancelled'}
        >
          {b.goods_name}
          {paidBy && <Typography.Text type="secondary"> · {paidBy}</Typography.Text>}
        </Typography.Paragraph>
      )}
      {editable && active && !changing && (
        <Flex gap={8} style={{ marginTop: 8 }} wrap>
          {b.status === 'unpaid' && (
            <Button type="primary" onClick={() => p.onPay(b)}>
              {s('parent.pay')}
            </Button>
          )}
          {p.goods.length > 1 && <Button onClick={() => setChanging(true)}>{s('parent.change')}</Button>}
          <Popconfirm
            title={b.status === 'booked' && b.pay_from === 'wechat' ? s('parent.cancel_refund') : s('parent.cancel_confirm')}
            onConfirm={() => cancel.mutate()}
          >
            <Button danger loading={cancel.isPending}>
              {s('parent.cancel')}
            </Button>
          </Popconfirm>
        </Flex>
      )}
      {editable && (!active || changing) && !p.closed && (
        <Flex gap={8} style={{ marginTop: 8 }}>
          <Select
            style={{ flex: 1, minWidth: 0 }}
            placeholder={s('parent.choose')}
            value={choice}
            onChange={setChoice}
            options={p.goods.map((g) => ({ value: g.id, label: `${g.name} ¥${formatFen(g.price_fen)}` }))}
            aria-label={s('parent.choose')}
          />
          <Button
            type="primary"
            disabled={!choice || (active && choice === b.goods_id)}
            loading={book.isPending}
            onClick={() => choice && book.mutate(choice)}
          >
            {active ? s('parent.confirm_change') : s('parent.book')}
          </Button>
          {changing && <Button onClick={() => setChanging(false)}>{s('parent.back')}</Button>}
        </Flex>
      )}
    </Card>
  );
}
