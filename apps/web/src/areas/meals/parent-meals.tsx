import { Button, Card, Flex, Popconfirm, Select, Tag, Typography } from 'antd';
import { formatFen, type DinnerBooking, type MealGoods } from '@wantuo/shared';
import { useState } from 'react';
import { feedback } from '../../api/feedback';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { usePreferences } from '../../stores/preferences';
import { PaymentDialog } from '../money/payment-dialog';
import { useParentChildren } from '../parent/children';
import { ChildSwitcher } from '../parent/children-gate';
import { BookingTag } from './common';
import { dayEditable, isActive, payDinner, useChildMeals, useDayBooking, usePaidByText, weekdayOf, type MealDay } from './parent-meals-model';
import { mealStrings } from './strings';

/** The parent's meals page: each child's dinner for the next days, booked before the cutoff, paid when no contract covers it, and what was served. */
export default function ParentMeals() {
  const s = mealStrings.use();
  const children = useParentChildren();
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
  const meals = useChildMeals(studentId);
  const [paying, setPaying] = useState<DinnerBooking | null>(null);
  const refresh = () => void meals.refresh();
  if (meals.pending) return <Loading />;
  if (meals.error || !meals.q.data) return <LoadError onRetry={() => void (meals.error ?? meals.q).refetch()} />;
  const data = meals.q.data;
  const st = data.settings;
  const covered = data.covered_days.length > 0;
  return (
    <Flex vertical gap={8}>
      <Typography.Text type="secondary">
        {st.days_before ? s('parent.cutoff_before', { time: st.cutoff_time }) : s('parent.cutoff', { time: st.cutoff_time })}
        {covered && s('parent.covered_hint')}
      </Typography.Text>
      {data.goods.length === 0 && <EmptyState description={s('parent.no_goods')} />}
      {meals.days.map((d) => (
        <DayCard key={d.day} d={d} goods={data.goods} studentId={studentId} onChanged={refresh} onPay={setPaying} />
      ))}
      <PaymentDialog
        open={paying !== null}
        title={paying ? s('parent.pay_title', { day: paying.day }) : ''}
        amountFen={paying?.price_fen ?? 0}
        wechat={paying ? payDinner(paying) : undefined}
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

function DayCard({
  d,
  goods,
  studentId,
  onChanged,
  onPay,
}: {
  d: MealDay;
  goods: MealGoods[];
  studentId: number;
  onChanged: () => void;
  onPay: (b: DinnerBooking) => void;
}) {
  const s = mealStrings.use();
  const lang = usePreferences((p) => p.lang);
  const paidByText = usePaidByText();
  const b = d.booking;
  const active = isActive(b);
  // an active booking shows its item with 更换 / 取消; choosing an item is for a day without one, or while changing it
  const [changing, setChanging] = useState(false);
  const [choice, setChoice] = useState<number | undefined>(active ? (b.goods_id ?? undefined) : undefined);
  const { book, cancel } = useDayBooking(studentId, d.day, b, { onChanged, onPay });
  // a closed day keeps what was booked before (it can be cancelled) but takes no new booking
  const editable = dayEditable(d, goods);
  const paidBy = paidByText(b);
  return (
    <Card size="small" data-testid={`meal-day-${d.day}`}>
      <Flex justify="space-between" align="center" gap={8}>
        <div style={{ minWidth: 0 }}>
          <Typography.Text strong>
            {d.day.slice(5)} {weekdayOf(d.day, lang)}
          </Typography.Text>
          {d.isToday && (
            <Tag color="blue" style={{ marginLeft: 6 }}>
              {s('parent.today')}
            </Tag>
          )}
          {d.covered && (
            <Tag color="green" style={{ marginLeft: 6 }}>
              {s('parent.covered')}
            </Tag>
          )}
        </div>
        {b ? (
          <BookingTag b={b} />
        ) : d.closed ? (
          <Tag data-testid="meal-day-closed">{s(d.closed === 'holiday' ? 'parent.holiday' : 'parent.no_class')}</Tag>
        ) : (
          !d.open && <Tag>{s('parent.closed')}</Tag>
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
            <Button type="primary" onClick={() => onPay(b)}>
              {s('parent.pay')}
            </Button>
          )}
          {goods.length > 1 && <Button onClick={() => setChanging(true)}>{s('parent.change')}</Button>}
          <Popconfirm
            title={b.status === 'booked' && b.pay_from === 'wechat' ? s('parent.cancel_refund') : s('parent.cancel_confirm')}
            onConfirm={() => void cancel.run().then((r) => r && setChoice(undefined))}
          >
            <Button danger loading={cancel.busy}>
              {s('parent.cancel')}
            </Button>
          </Popconfirm>
        </Flex>
      )}
      {editable && (!active || changing) && !d.closed && (
        <Flex gap={8} style={{ marginTop: 8 }}>
          <Select
            style={{ flex: 1, minWidth: 0 }}
            placeholder={s('parent.choose')}
            value={choice}
            onChange={setChoice}
            options={goods.map((g) => ({ value: g.id, label: `${g.name} ¥${formatFen(g.price_fen)}` }))}
            aria-label={s('parent.choose')}
          />
          <Button
            type="primary"
            disabled={!choice || (active && choice === b.goods_id)}
            loading={book.busy}
            onClick={() => choice && void book.run(choice).then((r) => r && setChanging(false))}
          >
            {active ? s('parent.confirm_change') : s('parent.book')}
          </Button>
          {changing && <Button onClick={() => setChanging(false)}>{s('parent.back')}</Button>}
        </Flex>
      )}
    </Card>
  );
}
