import Avatar from 'antd-mobile/es/components/avatar';
import Button from 'antd-mobile/es/components/button';
import CapsuleTabs from 'antd-mobile/es/components/capsule-tabs';
import Card from 'antd-mobile/es/components/card';
import List from 'antd-mobile/es/components/list';
import NoticeBar from 'antd-mobile/es/components/notice-bar';
import Popup from 'antd-mobile/es/components/popup';
import Selector from 'antd-mobile/es/components/selector';
import Tag from 'antd-mobile/es/components/tag';
import GiftOutline from 'antd-mobile-icons/es/GiftOutline';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { exchangeDecision, type OrderState, type ParentChild, type ScoreGoods } from '@wantuo/shared';
import { useState } from 'react';
import { get } from '../../api/http';
import { nextPageOf, queryKey } from '../../api/query';
import { pointsStrings } from '../../areas/points/strings';
import { useBalances, useExchange } from '../../areas/points/use-parent-points';
import { useSchoolClock } from '../../lib/school-time';
import { PhonePage } from '../ui/page';
import { PhoneEmpty, PhoneError, PhoneLoading } from '../ui/states';
import { ChildGate, MorePages } from './more-parts';
import { moreStrings } from './more-strings';

const SHOP_PAGE = 20;
const HISTORY_PAGE = 10;
const ORDER_PAGE = 10;
const ORDER_COLOR: Record<OrderState, string> = { pending: 'warning', handed_over: 'success', cancelled: 'default' };

type Tab = 'shop' | 'history' | 'orders';

/** /m/parent_points: the chosen child's balance, the goods on sale (exchanged after a confirming sheet), the history and the exchanges. */
export default function ParentPointsPhone() {
  const s = pointsStrings.use();
  const qc = useQueryClient();
  const refresh = () =>
    Promise.all(
      (['parentChildren', 'studentPoints', 'pointsShop', 'scoreOrderList'] as const).map((a) =>
        qc.refetchQueries({ queryKey: queryKey(a), type: 'active' }),
      ),
    );
  return (
    <PhonePage onRefresh={refresh}>
      <ChildGate empty={s('parent.no_children')}>{(kid, kids) => <ChildPoints kid={kid} kids={kids} />}</ChildGate>
    </PhonePage>
  );
}

function ChildPoints({ kid, kids }: { kid: ParentChild; kids: ParentChild[] }) {
  const s = pointsStrings.use();
  const t = moreStrings.use();
  const [tab, setTab] = useState<Tab>('shop');
  const [exchanging, setExchanging] = useState<ScoreGoods | null>(null);
  const { balanceOf, queryOf } = useBalances(kids);
  const b = queryOf(kid.id);
  return (
    <>
      <Card className="m-card" data-testid="points-balance">
        <div className="m-row" style={{ flexWrap: 'nowrap' }}>
          <Avatar
            src={kid.photo_url ?? ''}
            style={{ '--size': '48px', '--border-radius': '24px', flex: 'none' }}
            fallback={<span className="m-avatar">{kid.name.slice(-1)}</span>}
          />
          <div style={{ flex: 1, minWidth: 0 }}>
            <div className="m-notice-title">{kid.name}</div>
            <div className="m-muted">{kid.care_class?.name ?? ''}</div>
          </div>
          <div style={{ textAlign: 'right' }}>
            <div className="m-muted">{s('parent.balance')}</div>
            <div className="m-balance" data-testid="points-balance-value">
              {b?.isPending ? '…' : b?.isError ? '-' : (b?.data?.balance ?? 0)}
            </div>
          </div>
        </div>
      </Card>
      <div className="m-section m-tabs">
        <CapsuleTabs activeKey={tab} onChange={(k) => setTab(k as Tab)}>
          <CapsuleTabs.Tab key="shop" title={t('pm.shop')} />
          <CapsuleTabs.Tab key="history" title={t('pm.history')} />
          <CapsuleTabs.Tab key="orders" title={t('pm.orders')} />
        </CapsuleTabs>
      </div>
      {/* only the tab shown is rendered: its list's end is what scrolls into view */}
      {tab === 'shop' && <Shop balance={balanceOf(kid.id)} onExchange={setExchanging} />}
      {tab === 'history' && <History key={kid.id} studentId={kid.id} />}
      {tab === 'orders' && <Orders key={kid.id} studentId={kid.id} />}
      <Popup
        visible={exchanging !== null}
        onMaskClick={() => setExchanging(null)}
        onClose={() => setExchanging(null)}
        bodyStyle={{ borderTopLeftRadius: 12, borderTopRightRadius: 12 }}
        destroyOnClose
      >
        {exchanging && <ExchangeSheet good={exchanging} kids={kids} initial={kid.id} balanceOf={balanceOf} onClose={() => setExchanging(null)} />}
      </Popup>
    </>
  );
}

function Picture({ url, className }: { url: string | null; className: string }) {
  return url ? (
    <img src={url} alt="" className={className} />
  ) : (
    <div aria-hidden className={className} style={{ display: 'grid', placeItems: 'center', color: '#bbb', fontSize: 32 }}>
      <GiftOutline />
    </div>
  );
}

function Shop({ balance, onExchange }: { balance: number | undefined; onExchange: (g: ScoreGoods) => void }) {
  const s = pointsStrings.use();
  const q = useInfiniteQuery({
    queryKey: queryKey('pointsShop', { limit: SHOP_PAGE }),
    queryFn: ({ pageParam }) => get('pointsShop', { page: pageParam, limit: SHOP_PAGE }),
    initialPageParam: 1,
    getNextPageParam: nextPageOf,
  });
  if (q.isPending) return <PhoneLoading />;
  if (!q.data) return <PhoneError error={q.error} onRetry={() => void q.refetch()} />;
  const goods = q.data.pages.flatMap((p) => p.list);
  if (!goods.length) return <PhoneEmpty description={s('parent.shop_empty')} />;
  return (
    <>
      <div className="m-goods">
        {goods.map((g) => {
          const soldOut = g.stock <= 0;
          const affordable = balance !== undefined && balance >= g.price;
          return (
            <div key={g.id} className={soldOut ? 'm-good m-sold-out' : 'm-good'} data-testid={`goods-${g.id}`}>
              <Picture url={g.picture_url} className="m-good-pic" />
              <div className="m-good-name">{g.name}</div>
              <div className="m-row" style={{ justifyContent: 'space-between' }}>
                <span className="m-points">{s('points_of', { n: g.price })}</span>
                {soldOut ? <Tag color="danger">{s('sold_out')}</Tag> : <span className="m-muted">{s('parent.stock_left', { n: g.stock })}</span>}
              </div>
              <Button
                block
                color="primary"
                fill={affordable ? 'solid' : 'outline'}
                disabled={soldOut}
                onClick={() => onExchange(g)}
                data-testid="goods-exchange"
              >
                {s('parent.exchange')}
              </Button>
            </div>
          );
        })}
      </div>
      <MorePages query={q} />
    </>
  );
}

function ExchangeSheet({
  good,
  kids,
  initial,
  balanceOf,
  onClose,
}: {
  good: ScoreGoods;
  kids: ParentChild[];
  initial: number;
  balanceOf: (id: number) => number | undefined;
  onClose: () => void;
}) {
  const s = pointsStrings.use();
  const t = moreStrings.use();
  const [child, setChild] = useState(initial);
  const { exchange, busy } = useExchange();
  const name = kids.find((k) => k.id === child)!.name;
  const balance = balanceOf(child) ?? 0;
  const d = exchangeDecision(balance, good);
  return (
    <div className="m-sheet" data-testid="exchange-sheet">
      <div className="m-sheet-title">{s('parent.exchange_title', { child: name, good: good.name })}</div>
      <div className="m-row" style={{ flexWrap: 'nowrap', marginBottom: 12 }}>
        <Picture url={good.picture_url} className="m-good-pic" />
        <div style={{ minWidth: 0, flex: 2 }}>
          <div className="m-notice-title">{good.name}</div>
          {good.description && <div className="m-muted">{good.description}</div>}
          <div className="m-points">{s('points_of', { n: good.price })}</div>
        </div>
      </div>
      {kids.length > 1 && (
        <>
          <div className="m-muted" style={{ marginBottom: 6 }}>
            {s('parent.exchange_for')}
          </div>
          <Selector
            className="m-choice"
            columns={kids.length > 2 ? 2 : kids.length}
            value={[child]}
            onChange={(v) => v[0] !== undefined && setChild(v[0])}
            options={kids.map((k) => ({ value: k.id, label: `${k.name}（${s('points_of', { n: balanceOf(k.id) ?? 0 })}）` }))}
          />
        </>
      )}
      <NoticeBar
        style={{ margin: '12px 0' }}
        wrap
        color={d.ok ? 'info' : 'alert'}
        content={
          d.ok
            ? s('parent.exchange_cost', { price: good.price, after: d.value })
            : d.error === 'points.insufficient'
              ? s('parent.exchange_short', { child: name, balance, price: good.price })
              : s('sold_out')
        }
      />
      <Button
        block
        color="primary"
        size="large"
        disabled={!d.ok}
        loading={busy}
        onClick={async () => {
          if (await exchange(child, good)) onClose();
        }}
        data-testid="exchange-confirm"
      >
        {t('pm.confirm_exchange')}
      </Button>
      <Button block size="large" onClick={onClose}>
        {s('cancel')}
      </Button>
    </div>
  );
}

function History({ studentId }: { studentId: number }) {
  const s = pointsStrings.use();
  const when = useSchoolClock().dateTime;
  const q = useInfiniteQuery({
    queryKey: queryKey('studentPoints', { student_id: studentId, limit: HISTORY_PAGE }),
    queryFn: ({ pageParam }) => get('studentPoints', { student_id: studentId, page: pageParam, limit: HISTORY_PAGE }),
    initialPageParam: 1,
    getNextPageParam: nextPageOf,
  });
  if (q.isPending) return <PhoneLoading />;
  if (!q.data) return <PhoneError error={q.error} onRetry={() => void q.refetch()} />;
  const rows = q.data.pages.flatMap((p) => p.list);
  if (!rows.length) return <PhoneEmpty description={s('history.empty')} />;
  return (
    <>
      <List className="m-section" aria-label={s('award.history')}>
        {rows.map((e) => (
          <List.Item
            key={e.id}
            description={`${when(e.created_at)}${e.actor_name ? ` · ${e.actor_name}` : ''}`}
            extra={
              <div style={{ textAlign: 'right' }}>
                <div className={e.delta > 0 ? 'm-delta-up' : 'm-delta-down'}>{e.delta > 0 ? `+${e.delta}` : e.delta}</div>
                <div className="m-muted">{s('history.after', { n: e.balance_after })}</div>
              </div>
            }
          >
            {s(`kind.${e.kind}`)}
            {e.reason && <span className="m-muted"> · {e.reason}</span>}
          </List.Item>
        ))}
      </List>
      <MorePages query={q} />
    </>
  );
}

function Orders({ studentId }: { studentId: number }) {
  const s = pointsStrings.use();
  const when = useSchoolClock().dateTime;
  const q = useInfiniteQuery({
    queryKey: queryKey('scoreOrderList', { student_id: studentId, limit: ORDER_PAGE }),
    queryFn: ({ pageParam }) => get('scoreOrderList', { student_id: studentId, page: pageParam, limit: ORDER_PAGE }),
    initialPageParam: 1,
    getNextPageParam: nextPageOf,
  });
  if (q.isPending) return <PhoneLoading />;
  if (!q.data) return <PhoneError error={q.error} onRetry={() => void q.refetch()} />;
  const rows = q.data.pages.flatMap((p) => p.list);
  if (!rows.length) return <PhoneEmpty description={s('parent.orders_empty')} />;
  return (
    <>
      <List className="m-section" aria-label={s('parent.orders')}>
        {rows.map((o) => (
          <List.Item
            key={o.id}
            data-testid="points-order"
            prefix={<Picture url={o.picture_url} className="m-order-pic" />}
            description={`${when(o.created_at)} · ${s('points_of', { n: o.price })}`}
            extra={
              <Tag color={ORDER_COLOR[o.state]} fill="outline">
                {s(`order.${o.state}`)}
              </Tag>
            }
          >
            {o.goods_name}
          </List.Item>
        ))}
      </List>
      <MorePages query={q} />
    </>
  );
}
