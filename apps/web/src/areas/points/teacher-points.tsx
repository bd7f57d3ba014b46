import { keepPreviousData, useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Avatar, Button, Card, Checkbox, Drawer, Empty, Flex, Input, InputNumber, Segmented, Tag, Typography } from 'antd';
import { applyPoints, POINTS_MAX_PER_ENTRY, type PointsStudent } from '@wantuo/shared';
import { useDeferredValue, useMemo, useState } from 'react';
import { useAction } from '../../api/action';
import { get } from '../../api/http';
import { LoadError, Loading } from '../../components/states';
import { newRequestId } from '../../lib/request-id';
import { LedgerList } from './common';
import { pointsStrings } from './strings';
import './teacher-points.css';
import { nextPageOf, queryKey } from '../../api/query';

const AMOUNTS = [1, 2, 3, 5, 10];
const REASONS = ['reason.1', 'reason.2', 'reason.3', 'reason.4', 'reason.5'] as const;
type Sign = 'add' | 'deduct';

const PAGE = 50;

/**
 * The teacher's award screen on the phone (375 px): the students they are responsible for with their balances (the
 * admin: the school's), searched on the server, 50 at a time with "more"; select one or many (a selection stays while
 * the search changes), then award or deduct the same points with a reason in one request (all or none on the server).
 */
export default function TeacherPoints() {
  const s = pointsStrings.use();
  const qc = useQueryClient();
  const [typed, setTyped] = useState('');
  const keyword = useDeferredValue(typed);
  const [selected, setSelected] = useState<Map<number, PointsStudent>>(new Map());
  const [open, setOpen] = useState(false);
  const [history, setHistory] = useState<PointsStudent | null>(null);
  const q = useInfiniteQuery({
    queryKey: queryKey('pointsStudents', { limit: PAGE, keyword: keyword || undefined }),
    queryFn: ({ pageParam }) => get('pointsStudents', { page: pageParam, limit: PAGE, keyword: keyword || undefined }),
    initialPageParam: 1,
    getNextPageParam: nextPageOf,
    placeholderData: keepPreviousData,
  });
  const shown = useMemo(() => q.data?.pages.flatMap((p) => p.list) ?? [], [q.data]);
  // the selected students as the list shows them now (their balances after an award), else as they were picked
  const chosen = [...selected.values()].map((st) => shown.find((x) => x.id === st.id) ?? st);
  const none = !keyword && q.data?.pages[0]?.total === 0;

  if (q.isLoading) return <Loading />;
  if (q.isError) return <LoadError onRetry={() => void q.refetch()} />;

  const toggle = (st: PointsStudent) =>
    setSelected((prev) => {
      const next = new Map(prev);
      if (next.has(st.id)) next.delete(st.id);
      else next.set(st.id, st);
      return next;
    });
  const selectShown = (on: boolean) =>
    setSelected((prev) => {
      const next = new Map(prev);
      for (const st of shown) {
        if (on) next.set(st.id, st);
        else next.delete(st.id);
      }
      return next;
    });

  return (
    <div className="points-teacher">
      <Card size="small" title={s('award.title')}>
        {none ? (
          <Empty description={s('award.none')} />
        ) : (
          <>
            <Input.Search
              allowClear
              placeholder={s('award.search')}
              maxLength={32}
              value={typed}
              onChange={(e) => setTyped(e.target.value.trim())}
              size="large"
              loading={q.isFetching && !q.isFetchingNextPage}
            />
            <div className="points-select-all">
              <Checkbox
                checked={shown.length > 0 && shown.every((st) => selected.has(st.id))}
                indeterminate={shown.some((st) => selected.has(st.id)) && !shown.every((st) => selected.has(st.id))}
                onChange={(e) => selectShown(e.target.checked)}
              >
                {s('award.select_all')}
              </Checkbox>
              <Typography.Text type="secondary">{s('award.selected', { n: selected.size })}</Typography.Text>
            </div>
            {shown.length === 0 ? (
              <Empty description={s('award.none_found')} />
            ) : (
              <ul className="points-list">
                {shown.map((st) => (
                  <li
                    key={st.id}
                    className={selected.has(st.id) ? 'points-row points-row-on' : 'points-row'}
                    onClick={() => toggle(st)}
                    data-testid={`student-${st.id}`}
                  >
                    <Checkbox checked={selected.has(st.id)} onClick={(e) => e.stopPropagation()} onChange={() => toggle(st)} aria-label={st.name} />
                    <Avatar size={36} src={st.photo_url || undefined} style={{ background: '#1677ff', flex: 'none' }}>
                      {st.name.slice(-1)}
                    </Avatar>
                    <div className="points-row-main">
                      <strong>{st.name}</strong>
                      <Typography.Text type="secondary" className="points-class">
                        {st.class_name ?? ''}
                      </Typography.Text>
                    </div>
                    <button
                      type="button"
                      className="points-balance"
                      aria-label={`${st.name} ${s('award.history')}`}
                      onClick={(e) => {
                        e.stopPropagation();
                        setHistory(st);
                      }}
                    >
                      <span className="points-balance-n">{st.balance}</span>
                      <span className="points-balance-unit">{s('unit')}</span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
            {q.hasNextPage && (
              <Button block onClick={() => void q.fetchNextPage()} loading={q.isFetchingNextPage}>
                {s('award.more', { n: (q.data?.pages[0]?.total ?? 0) - shown.length })}
              </Button>
            )}
          </>
        )}
      </Card>
      <div className="points-bar">
        <Button type="primary" size="large" block disabled={chosen.length === 0} onClick={() => setOpen(true)}>
          {chosen.length === 0 ? s('award.pick_first') : `${s('award.title')}（${s('award.selected', { n: chosen.length })}）`}
        </Button>
      </div>
      {open && (
        <AwardSheet
          chosen={chosen}
          onClose={() => setOpen(false)}
          onDone={() => {
            setOpen(false);
            setSelected(new Map());
            void qc.invalidateQueries({ queryKey: queryKey('pointsStudents') });
            void qc.invalidateQueries({ queryKey: queryKey('studentPoints') });
          }}
        />
      )}
      <Drawer
        open={history !== null}
        onClose={() => setHistory(null)}
        placement="bottom"
        size="70%"
        title={history ? `${history.name} · ${s('points_of', { n: history.balance })}` : ''}
        destroyOnHidden
      >
        {history && <LedgerList studentId={history.id} />}
      </Drawer>
    </div>
  );
}

function AwardSheet({ chosen, onClose, onDone }: { chosen: PointsStudent[]; onClose: () => void; onDone: () => void }) {
  const s = pointsStrings.use();
  const [sign, setSign] = useState<Sign>('add');
  const [amount, setAmount] = useState<number | null>(1);
  const [reason, setReason] = useState('');
  const [requestId, setRequestId] = useState(newRequestId);
  const points = amount ? (sign === 'add' ? amount : -amount) : 0;
  const short = sign === 'deduct' && amount ? chosen.filter((st) => !applyPoints(st.balance, -amount).ok) : [];
  const ready = !!amount && reason.trim().length > 0 && short.length === 0;

  // a refusal (a balance changed meanwhile) is shown by the request wrapper: a new attempt is a new request
  const award = useAction('awardPoints', {
    success: (_, input) => s(input.points > 0 ? 'award.done_add' : 'award.done_deduct', { n: input.student_ids.length, p: Math.abs(input.points) }),
    onDone,
    onError: () => setRequestId(newRequestId()),
  });
  const submit = () => award.run({ student_ids: chosen.map((st) => st.id), points, reason: reason.trim(), request_id: requestId });

  return (
    <Drawer
      open
      onClose={onClose}
      placement="bottom"
      size="auto"
      title={`${s('award.title')} · ${s('award.selected', { n: chosen.length })}`}
      destroyOnHidden
    >
      <div className="points-sheet">
        <Segmented<Sign>
          block
          size="large"
          value={sign}
          onChange={setSign}
          options={[
            { value: 'add', label: `＋ ${s('award.add')}` },
            { value: 'deduct', label: `－ ${s('award.deduct')}` },
          ]}
        />
        <div className="points-amounts">
          {AMOUNTS.map((n) => (
            <Button
              key={n}
              size="large"
              type={amount === n ? 'primary' : 'default'}
              danger={sign === 'deduct' && amount === n}
              onClick={() => setAmount(n)}
            >
              {sign === 'add' ? '+' : '−'}
              {n}
            </Button>
          ))}
          <InputNumber
            size="large"
            min={1}
            max={POINTS_MAX_PER_ENTRY}
            precision={0}
            placeholder={s('award.custom')}
            value={AMOUNTS.includes(amount ?? -1) ? null : amount}
            onChange={(v) => setAmount(typeof v === 'number' ? v : null)}
            aria-label={s('award.custom')}
            style={{ width: '100%' }}
          />
        </div>
        <Typography.Text strong>{s('award.reason')}</Typography.Text>
        <div className="points-reasons">
          {REASONS.map((k) => (
            <Tag.CheckableTag key={k} checked={reason === s(k)} onChange={() => setReason(s(k))}>
              {s(k)}
            </Tag.CheckableTag>
          ))}
        </div>
        <Input size="large" maxLength={100} placeholder={s('award.reason_ph')} value={reason} onChange={(e) => setReason(e.target.value)} />
        {short.length > 0 && (
          <Alert type="warning" showIcon title={`${s('award.short')}：${short.map((st) => `${st.name}（${st.balance}）`).join('、')}`} />
        )}
        <Flex vertical gap={4}>
          <Button type="primary" danger={sign === 'deduct'} size="large" block disabled={!ready} loading={award.busy} onClick={() => void submit()}>
            {s(sign === 'add' ? 'award.submit_add' : 'award.submit_deduct', { n: chosen.length, p: amount ?? 0 })}
          </Button>
          <Typography.Text type="secondary" style={{ fontSize: 12, textAlign: 'center' }}>
            {chosen.map((st) => st.name).join('、')}
          </Typography.Text>
        </Flex>
      </div>
    </Drawer>
  );
}
