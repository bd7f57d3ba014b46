import { useQuery } from '@tanstack/react-query';
import { Alert, Badge, Button, Card, Checkbox, Empty, Modal, Radio, Segmented, Space, Tag, Typography } from 'antd';
import { boardState, LOW_UNITS_BADGE, type FlowBoardStudent } from '@wantuo/shared';
import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { get } from '../../api/http';
import { early } from '../../lib/early-data';
import { LoadError, Loading } from '../../components/states';
import { useT } from '../../stores/preferences';
import { localTime, useSchoolZone } from '../../lib/school-time';
import { STEPS, StepBar, useFlowQueue, useStepRunner } from './step-runner';
import { PickupScan } from '../pickup/pickup-scan';
import { CallButton } from '../privacy/call-button';
import { useQueuedPickups } from '../pickup/use-queued-pickups';
import { reportsStrings } from '../reports/strings';
import { flowStrings } from './strings';
import './teacher-today.css';
import { flowLabel, flowTag } from './flow-look';

/** the daily report's quick-comment picker (reports area), loaded when a 评语 is first opened */
const CommentPicker = lazy(() => import('../reports/comment-picker'));

type Filter = 'all' | 'expected' | 'picked_up' | 'in_centre' | 'left' | 'on_leave';

/**
 * Today's flow on a teacher's phone: the students they are responsible for, select one or many, tap a step.
 * Buttons follow the shared state machine: a step none of the selected students may take is greyed out with the
 * reason. Taps made offline wait in a queue with their event ids and go out when the network returns.
 */
export default function TeacherToday() {
  const t = useT();
  const ft = flowStrings.use();
  const tz = useSchoolZone();
  const [filter, setFilter] = useState<Filter>('all');
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [leaving, setLeaving] = useState<FlowBoardStudent | null>(null);
  const [pickup, setPickup] = useState<number | null>(null);
  const [commenting, setCommenting] = useState<FlowBoardStudent | null>(null);
  const rs = reportsStrings.use();
  const q = useQuery({ queryKey: ['flowBoard'], queryFn: () => early('flowBoard', () => get('flowBoard')), refetchInterval: 30_000 });
  // departures verified offline on this phone go out when the page opens and when the network is back
  useQueuedPickups(q.refetch);
  const { refetch } = q;
  const pending = useFlowQueue(useCallback(() => refetch(), [refetch]));

  const students = useMemo(() => q.data?.students ?? [], [q.data]);
  const shown = students.filter((s) => filter === 'all' || boardState(s) === filter);
  const chosen = students.filter((s) => selected.has(s.id));
  const counts = students.reduce<Record<string, number>>((acc, s) => ({ ...acc, [boardState(s)]: (acc[boardState(s)] ?? 0) + 1 }), {});
  const runner = useStepRunner(chosen, async () => {
    setSelected(new Set());
    await q.refetch();
  });

  if (q.isLoading) return <Loading />;
  if (q.isError) return <LoadError onRetry={() => q.refetch()} />;

  const toggle = (id: number) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <div className="flow-today">
      <Card
        size="small"
        title={`${ft('flow.today')} ${q.data?.day ?? ''}`}
        extra={
          pending > 0 && (
            <Badge count={pending} title={ft('flow.pending')}>
              <Tag color="orange">{ft('flow.pending')}</Tag>
            </Badge>
          )
        }
      >
        {pending > 0 && <Alert type="warning" showIcon title={ft('flow.pending_hint', { n: pending })} style={{ marginBottom: 8 }} />}
        <div className="flow-filter">
          <Segmented
            size="small"
            value={filter}
            onChange={(v) => setFilter(v as Filter)}
            options={(['all', 'expected', 'picked_up', 'in_centre', 'left', 'on_leave'] as Filter[]).map((f) => ({
              value: f,
              label: `${ft(flowLabel(f))} ${f === 'all' ? students.length : (counts[f] ?? 0)}`,
            }))}
          />
        </div>
        <div className="flow-select-all">
          <Checkbox
            checked={shown.length > 0 && shown.every((s) => selected.has(s.id))}
            indeterminate={shown.some((s) => selected.has(s.id)) && !shown.every((s) => selected.has(s.id))}
            onChange={(e) => setSelected(e.target.checked ? new Set(shown.map((s) => s.id)) : new Set())}
          >
            {ft('flow.select_all')}
          </Checkbox>
          <Typography.Text type="secondary">{ft('flow.selected', { n: selected.size })}</Typography.Text>
        </div>
        {shown.length === 0 ? (
          <Empty description={ft('flow.none')} />
        ) : (
          <ul className="flow-list">
            {shown.map((s) => {
              const state = boardState(s);
              return (
                <li key={s.id} className={selected.has(s.id) ? 'flow-row flow-row-on' : 'flow-row'} onClick={() => toggle(s.id)}>
                  <Checkbox checked={selected.has(s.id)} onClick={(e) => e.stopPropagation()} onChange={() => toggle(s.id)} />
                  <div className="flow-row-main">
                    <div>
                      <strong>{s.name}</strong> <Tag color={flowTag(state)}>{ft(flowLabel(state))}</Tag>
                      {s.needs_shuttle && <Tag>{ft('flow.tag_shuttle')}</Tag>}
                      {s.allergies && <Tag color="red">{s.allergies}</Tag>}
                      {s.contract_units_left !== null && s.contract_units_left <= LOW_UNITS_BADGE && (
                        <Tag color="gold" title={ft('units_left_hint')}>
                          {ft('units_left', { n: s.contract_units_left })}
                        </Tag>
                      )}
                    </div>
                    <Typography.Text type="secondary" className="flow-times">
                      {[
                        s.picked_up_at && `${ft('flow.btn_shuttle')} ${localTime(s.picked_up_at, tz)}`,
                        s.entered_at && `${ft('flow.btn_enter')} ${localTime(s.entered_at, tz)}`,
                        s.dinner_at && `${ft('flow.btn_dinner')} ${localTime(s.dinner_at, tz)}`,
                        s.tutor_started_at && `${ft('flow.btn_start_tutor')} ${localTime(s.tutor_started_at, tz)}`,
                        s.tutor_ended_at && `${ft('flow.btn_end_tutor')} ${localTime(s.tutor_ended_at, tz)}`,
                        s.left_at && `${ft('flow.btn_leave')} ${localTime(s.left_at, tz)}`,
                      ]
                        .filter(Boolean)
                        .join(' · ') || `${s.care_class_name} · ${[s.day_school, s.grade, s.class_name].filter(Boolean).join(' ')}`}
                    </Typography.Text>
                  </div>
                  <Button
                    size="small"
                    onClick={(e) => {
                      e.stopPropagation();
                      setCommenting(s);
                    }}
                    data-testid="comment-open-today"
                  >
                    {rs('write')}
                  </Button>
                </li>
              );
            })}
          </ul>
        )}
      </Card>
      <StepBar
        steps={STEPS}
        runner={runner}
        chosen={chosen.length}
        onTap={(cmd, able) => {
          if (cmd !== 'leave') return false;
          setLeaving(able[0]);
          setPickup(able[0].pickup_people[0]?.id ?? null);
          return true;
        }}
      />
      <Modal
        open={!!leaving}
        title={leaving ? ft('flow.leave_title', { name: leaving.name }) : ''}
        okText={ft('flow.btn_leave')}
        cancelText={t('common.cancel')}
        okButtonProps={{ disabled: pickup === null, size: 'large' }}
        cancelButtonProps={{ size: 'large' }}
        onCancel={() => setLeaving(null)}
        onOk={async () => {
          setLeaving(null);
          await runner.run('leave', { picked_up_by: pickup });
        }}
      >
        <Radio.Group value={pickup} onChange={(e) => setPickup(e.target.value)} style={{ width: '100%' }}>
          <Space orientation="vertical" style={{ width: '100%' }}>
            {leaving?.pickup_people.map((p) => (
              <Radio key={p.id} value={p.id} className="flow-pickup">
                {p.name}（{p.relation}）{p.mobile}
                <CallButton target={{ student_id: leaving.id, pickup_person_id: p.id }} name={p.name} mobile={p.mobile} />
              </Radio>
            ))}
          </Space>
        </Radio.Group>
        {leaving && leaving.pickup_people.length === 0 && <Alert type="warning" showIcon title={ft('flow.no_pickup')} />}
        {leaving && (
          <div style={{ marginTop: 12 }}>
            <PickupScan
              students={[{ id: leaving.id, name: leaving.name }]}
              onDone={() => {
                setLeaving(null);
                setSelected(new Set());
                void q.refetch();
              }}
            />
          </div>
        )}
      </Modal>
      {commenting && q.data && (
        <Suspense fallback={null}>
          <CommentPicker studentId={commenting.id} studentName={commenting.name} day={q.data.day} onClose={() => setCommenting(null)} />
        </Suspense>
      )}
    </div>
  );
}
