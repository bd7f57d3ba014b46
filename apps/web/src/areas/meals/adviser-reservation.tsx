import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, DatePicker, Flex, List, Modal, Popconfirm, Segmented, Select, Tabs, Tag, Typography } from 'antd';
import { formatFen, type DinnerBookingInfoRow, type MealCountMessage } from '@wantuo/shared';
import dayjs, { type Dayjs } from 'dayjs';
import { useCallback, useState } from 'react';
import { useAction } from '../../api/action';
import { get } from '../../api/http';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { newRequestId } from '../../lib/request-id';
import { BookingTag } from './common';
import { useMealCountLive } from './live';
import { OrderHistory } from './order-history';
import { mealStrings } from './strings';
import { queryKey } from '../../api/query';

const PAGE = 50;

/**
 * /AOrderReservation: the head teacher's class(es) for a day: per item how many, and who booked what; today's is live.
 * The head teacher books or cancels a student's dinner from the list (the school is not bound by the cutoff).
 */
export default function AdviserReservation() {
  const s = mealStrings.use();
  return (
    <Tabs
      items={[
        { key: 'day', label: s('res.tab_day'), children: <DayReservation /> },
        {
          key: 'history',
          label: s('tab.history'),
          children: (
            <Card styles={{ body: { padding: 12 } }}>
              <OrderHistory />
            </Card>
          ),
        },
      ]}
    />
  );
}

function DayReservation() {
  const s = mealStrings.use();
  const qc = useQueryClient();
  // the school's day (the browser's may differ) until another is picked
  const settings = useQuery({ queryKey: queryKey('mealSettings'), queryFn: () => get('mealSettings') });
  const [picked, setDay] = useState<Dayjs | null>(null);
  const [goodsId, setGoodsId] = useState<string>('all');
  const [page, setPage] = useState(1);
  const d = picked ? picked.format('YYYY-MM-DD') : (settings.data?.today ?? '');
  const counts = useQuery({
    queryKey: queryKey('dinnerBookingCount', { day: d }),
    queryFn: () => get('dinnerBookingCount', { day: d }),
    placeholderData: keepPreviousData,
    enabled: d !== '',
  });
  const infoInput = { day: d, page, limit: PAGE, ...(goodsId !== 'all' ? { goods_id: Number(goodsId) } : {}) };
  const info = useQuery({
    queryKey: queryKey('dinnerBookingCountInfo', infoInput),
    queryFn: () => get('dinnerBookingCountInfo', infoInput),
    placeholderData: keepPreviousData,
    enabled: d !== '',
  });
  // a booking, a leave or a dinner of today changed the counts: read the class's again
  useMealCountLive(
    useCallback(
      (m: MealCountMessage) => {
        if (m.day !== d) return;
        void qc.invalidateQueries({ queryKey: queryKey('dinnerBookingCount', { day: d }) });
        // every page of the day's list (a key's input matches in part)
        void qc.invalidateQueries({ queryKey: [...queryKey('dinnerBookingCountInfo'), { day: d }] });
      },
      [d, qc],
    ),
  );
  const [booking, setBooking] = useState<DinnerBookingInfoRow | null>(null);
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: queryKey('dinnerBookingCount', { day: d }) });
    void qc.invalidateQueries({ queryKey: [...queryKey('dinnerBookingCountInfo'), { day: d }] });
  };
  const cancel = useAction('cancelDinner', { success: s('parent.cancelled_ok'), onDone: refresh });
  const c = counts.data;
  return (
    <Card
      title={s('res.title')}
      styles={{ body: { padding: 12 } }}
      extra={
        <DatePicker
          value={d ? dayjs(d) : null}
          allowClear={false}
          aria-label={s('orders.day')}
          onChange={(v) => {
            if (v) setDay(v);
            setPage(1);
          }}
          style={{ width: 130 }}
        />
      }
    >
      {settings.isLoading || counts.isLoading ? (
        <Loading />
      ) : settings.isError && !picked ? (
        <LoadError onRetry={() => void settings.refetch()} />
      ) : counts.isError ? (
        <LoadError onRetry={() => void counts.refetch()} />
      ) : !c || c.classes.length === 0 ? (
        <EmptyState description={s('res.no_class')} />
      ) : (
        <Flex vertical gap={12}>
          <Flex wrap gap={6}>
            <Tag>{c.classes.map((k) => k.name).join('、')}</Tag>
            <Tag>{s('res.students', { n: c.students })}</Tag>
            <Tag color="blue">{s('res.booked', { n: c.booked })}</Tag>
            <Tag>{s('res.not_booked', { n: c.not_booked })}</Tag>
            <Tag color="green">{s('res.served', { n: c.served })}</Tag>
            {c.unbooked_served > 0 && <Tag color="orange">{s('res.unbooked_served', { n: c.unbooked_served })}</Tag>}
          </Flex>
          <Flex wrap gap={8} data-testid="reservation-items">
            {c.items.map((i) => (
              <Card key={i.goods_id} size="small" style={{ minWidth: 140, flex: '1 1 140px' }}>
                <Typography.Text strong>{i.goods_name}</Typography.Text>
                <div style={{ fontSize: 24, fontWeight: 600 }}>{i.booked}</div>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {s('kitchen.served')} {i.served}
                </Typography.Text>
              </Card>
            ))}
          </Flex>
          <Segmented
            block
            value={goodsId}
            onChange={(v) => {
              setGoodsId(v);
              setPage(1);
            }}
            options={[{ value: 'all', label: s('res.all') }, ...c.items.map((i) => ({ value: String(i.goods_id), label: i.goods_name }))]}
          />
          {info.isError ? (
            <LoadError onRetry={() => void info.refetch()} />
          ) : (
            <List<DinnerBookingInfoRow>
              data-testid="reservation-list"
              loading={info.isLoading}
              dataSource={info.data?.list}
              locale={{ emptyText: <EmptyState description={s('orders.empty')} /> }}
              pagination={
                (info.data?.total ?? 0) > PAGE ? { current: page, pageSize: PAGE, total: info.data?.total, onChange: setPage, size: 'small' } : false
              }
              renderItem={(r) => {
                const active = r.booking && (r.booking.status === 'booked' || r.booking.status === 'unpaid') && !r.booking.served_at;
                return (
                  <List.Item key={r.student_id}>
                    <Flex justify="space-between" align="center" gap={8} style={{ width: '100%' }}>
                      <div style={{ minWidth: 0 }}>
                        <Typography.Text strong>{r.student_name}</Typography.Text>
                        <div>
                          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                            {r.booking?.goods_name && (r.booking.status === 'booked' || r.booking.status === 'unpaid')
                              ? `${r.booking.goods_name}${r.booking.booked_by_name ? ` · ${s('res.booked_by', { name: r.booking.booked_by_name })}` : ''}`
                              : r.class_name}
                          </Typography.Text>
                        </div>
                      </div>
                      <Flex align="center" gap={4} style={{ flex: 'none' }}>
                        {r.booking ? (
                          <BookingTag b={r.booking} />
                        ) : r.served_at ? (
                          <Tag color="orange">{s('kitchen.unbooked')}</Tag>
                        ) : (
                          <Tag>{s('res.none')}</Tag>
                        )}
                        {active ? (
                          <Popconfirm
                            title={s('res.cancel_confirm', { name: r.student_name })}
                            onConfirm={() => void cancel.run({ id: r.booking!.id, version: r.booking!.version })}
                          >
                            <Button size="small" danger loading={cancel.busy && cancel.input?.id === r.booking!.id}>
                              {s('res.cancel')}
                            </Button>
                          </Popconfirm>
                        ) : (
                          !r.served_at &&
                          !r.booking?.served_at && (
                            <Button size="small" type="primary" ghost onClick={() => setBooking(r)}>
                              {s('res.book')}
                            </Button>
                          )
                        )}
                      </Flex>
                    </Flex>
                  </List.Item>
                );
              }}
            />
          )}
        </Flex>
      )}
      <BookDialog row={booking} day={d} onClose={() => setBooking(null)} onBooked={refresh} />
    </Card>
  );
}

/** The head teacher books one student's dinner of the day with an enabled item (paid from a contract with dinner, else recorded by the school). */
function BookDialog({ row, day, onClose, onBooked }: { row: DinnerBookingInfoRow | null; day: string; onClose: () => void; onBooked: () => void }) {
  const s = mealStrings.use();
  const [choice, setChoice] = useState<number | undefined>();
  const [requestId, setRequestId] = useState(newRequestId);
  const goods = useQuery({
    queryKey: queryKey('mealGoodsList', { page: 1, limit: 100, enabled: 1 }),
    queryFn: () => get('mealGoodsList', { page: 1, limit: 100, enabled: 1 }),
    enabled: row !== null,
  });
  const close = () => {
    setChoice(undefined);
    setRequestId(newRequestId());
    onClose();
  };
  const book = useAction('bookDinner', {
    success: s('parent.booked_ok'),
    onDone: () => {
      onBooked();
      close();
    },
  });
  const list = goods.data?.list ?? [];
  return (
    <Modal
      open={row !== null}
      title={row ? s('res.book_title', { name: row.student_name, day }) : ''}
      okText={s('parent.book')}
      okButtonProps={{ disabled: !choice }}
      confirmLoading={book.busy}
      onOk={() => choice && void book.run({ student_id: row!.student_id, day, goods_id: choice, request_id: `${requestId}-${choice}` })}
      onCancel={close}
      destroyOnHidden
    >
      {goods.isLoading ? (
        <Loading />
      ) : goods.isError ? (
        <LoadError onRetry={() => void goods.refetch()} />
      ) : list.length === 0 ? (
        <EmptyState description={s('parent.no_goods')} />
      ) : (
        <Flex vertical gap={8}>
          <Select
            style={{ width: '100%' }}
            placeholder={s('parent.choose')}
            aria-label={s('parent.choose')}
            value={choice}
            onChange={setChoice}
            options={list.map((g) => ({ value: g.id, label: `${g.name} ¥${formatFen(g.price_fen)}` }))}
          />
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {s('res.book_note')}
          </Typography.Text>
        </Flex>
      )}
    </Modal>
  );
}
