import ActionSheet from 'antd-mobile/es/components/action-sheet';
import Button from 'antd-mobile/es/components/button';
import Card from 'antd-mobile/es/components/card';
import Dialog from 'antd-mobile/es/components/dialog';
import Tag from 'antd-mobile/es/components/tag';
import Toast from 'antd-mobile/es/components/toast';
import { formatFen, type DinnerBooking, type MealGoods, type ParentChild } from '@wantuo/shared';
import { useState } from 'react';
import { useChosenChild } from '../../areas/parent/chosen-child';
import { useParentChildren } from '../../areas/parent/children';
import {
  dayEditable,
  isActive,
  payDinner,
  useBookingTag,
  useChildMeals,
  useDayBooking,
  usePaidByText,
  weekdayOf,
  type MealDay,
} from '../../areas/meals/parent-meals-model';
import { mealStrings } from '../../areas/meals/strings';
import { usePreferences } from '../../stores/preferences';
import { PaySheet } from '../money/pay-sheet';
import { phoneStrings } from '../strings';
import { PhonePage, QueryView } from '../ui/page';
import { PhoneEmpty, PhoneError, PhoneLoading } from '../ui/states';
import { PhoneChildSwitcher } from './child-switcher';
import { ReceiptButtons, ReceiptList, useChildReceipts, type ChildReceipts } from './receipts';
import { todayStrings } from './today-strings';
import './today.css';

/** A booking tag's tone in antd-mobile's colours. */
const TONE = { green: 'success', orange: '#fa8c16', gold: 'warning', blue: 'primary', default: 'default' } as const;

/** /m/parent_meals (晚餐): the chosen child's dinners for the next days, booked before the cutoff, paid when no contract covers them. */
export default function ParentMealsPhone() {
  const s = mealStrings.use();
  const q = useParentChildren();
  return (
    <PhonePage onRefresh={() => q.refetch()}>
      <QueryView query={q} isEmpty={(d) => d.list.length === 0} empty={s('parent.no_children')}>
        {(d) => <Meals kids={d.list} />}
      </QueryView>
    </PhonePage>
  );
}

function Meals({ kids }: { kids: ParentChild[] }) {
  const [child, choose] = useChosenChild(kids);
  const current = child ?? kids[0];
  return (
    <>
      <PhoneChildSwitcher kids={kids} value={current.id} onChange={choose} />
      <ChildMeals key={current.id} studentId={current.id} />
    </>
  );
}

function ChildMeals({ studentId }: { studentId: number }) {
  const s = mealStrings.use();
  const meals = useChildMeals(studentId);
  const receipts = useChildReceipts(studentId);
  const [paying, setPaying] = useState<DinnerBooking | null>(null);
  const refresh = () => {
    void meals.refresh();
    void receipts.q.refetch();
  };
  if (meals.pending) return <PhoneLoading />;
  if (meals.error || !meals.q.data)
    return <PhoneError error={(meals.error ?? meals.q).error} onRetry={() => void (meals.error ?? meals.q).refetch()} />;
  const data = meals.q.data;
  const st = data.settings;
  return (
    <>
      <div className="m-pad m-muted">
        {st.days_before ? s('parent.cutoff_before', { time: st.cutoff_time }) : s('parent.cutoff', { time: st.cutoff_time })}
        {data.covered_days.length > 0 && s('parent.covered_hint')}
      </div>
      {data.goods.length === 0 && <PhoneEmpty description={s('parent.no_goods')} />}
      {meals.days.map((d) => (
        <DayCard key={d.day} d={d} goods={data.goods} studentId={studentId} onChanged={refresh} onPay={setPaying} receipts={receipts} />
      ))}
      <ReceiptList receipts={receipts} only="meal" />
      <PaySheet
        open={paying !== null}
        title={paying ? s('parent.pay_title', { day: paying.day }) : ''}
        amountFen={paying?.price_fen ?? 0}
        start={paying ? payDinner(paying) : null}
        onPaid={() => {
          Toast.show({ content: s('parent.paid'), icon: 'success' });
          refresh();
        }}
        onClose={() => setPaying(null)}
      />
    </>
  );
}

function DayCard({
  d,
  goods,
  studentId,
  onChanged,
  onPay,
  receipts,
}: {
  d: MealDay;
  goods: MealGoods[];
  studentId: number;
  onChanged: () => void;
  onPay: (b: DinnerBooking) => void;
  receipts: ChildReceipts;
}) {
  const s = mealStrings.use();
  const t = phoneStrings.use();
  const tt = todayStrings.use();
  const lang = usePreferences((p) => p.lang);
  const tagOf = useBookingTag();
  const paidByText = usePaidByText();
  const [choosing, setChoosing] = useState(false);
  const b = d.booking;
  const active = isActive(b);
  const { book, cancel } = useDayBooking(studentId, d.day, b, { onChanged, onPay });
  const editable = dayEditable(d, goods);
  const paidBy = paidByText(b);
  const tag = b ? tagOf(b) : null;
  const askCancel = async () => {
    const content = b?.status === 'booked' && b.pay_from === 'wechat' ? s('parent.cancel_refund') : s('parent.cancel_confirm');
    if (await Dialog.confirm({ content, confirmText: s('parent.cancel'), cancelText: t('m.cancel') })) void cancel.run();
  };
  // an active booking changes to another item; a day without one books the item chosen
  const options = goods
    .filter((g) => !active || g.id !== b.goods_id)
    .map((g) => ({ key: String(g.id), text: `${g.name}  ¥${formatFen(g.price_fen)}` }));
  return (
    <Card className="m-section" data-testid={`meal-day-${d.day}`}>
      <div className="m-card-title" style={{ marginBottom: 4 }}>
        <div style={{ display: 'flex', gap: 6, alignItems: 'center', flexWrap: 'wrap' }}>
          <span className="m-strong">
            {d.day.slice(5)} {weekdayOf(d.day, lang)}
          </span>
          {d.isToday && <Tag color="primary">{s('parent.today')}</Tag>}
          {d.covered && <Tag color="success">{s('parent.covered')}</Tag>}
        </div>
        {tag ? (
          <Tag color={TONE[tag.tone]}>{tag.text}</Tag>
        ) : d.closed ? (
          <Tag data-testid="meal-day-closed">{s(d.closed === 'holiday' ? 'parent.holiday' : 'parent.no_class')}</Tag>
        ) : (
          !d.open && <Tag>{s('parent.closed')}</Tag>
        )}
      </div>
      {b?.goods_name && b.status !== 'none' && (
        <div style={b.status === 'cancelled' ? { textDecoration: 'line-through', color: '#aaa' } : undefined}>
          {b.goods_name}
          {paidBy && <span className="m-muted"> · {paidBy}</span>}
        </div>
      )}
      {editable && (
        <div className="m-row-buttons">
          {active && b.status === 'unpaid' && (
            <Button color="primary" onClick={() => onPay(b)}>
              {s('parent.pay')}
            </Button>
          )}
          {(!active ? !d.closed : goods.length > 1) && (
            <Button
              color={active ? 'default' : 'primary'}
              fill={active ? 'outline' : 'solid'}
              loading={book.busy}
              onClick={() => setChoosing(true)}
              data-testid="meal-choose"
            >
              {active ? s('parent.change') : s('parent.book')}
            </Button>
          )}
          {active && (
            <Button color="danger" fill="outline" loading={cancel.busy} onClick={() => void askCancel()}>
              {s('parent.cancel')}
            </Button>
          )}
        </div>
      )}
      {b && <ReceiptButtons receipts={receipts.byBooking.get(b.id)} />}
      <ActionSheet
        visible={choosing}
        extra={tt('pt.choose_meal')}
        cancelText={t('m.cancel')}
        actions={options}
        onAction={(a) => {
          setChoosing(false);
          void book.run(Number(a.key));
        }}
        onClose={() => setChoosing(false)}
      />
    </Card>
  );
}
