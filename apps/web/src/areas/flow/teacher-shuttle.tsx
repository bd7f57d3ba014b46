import { Alert, Button, Card, Checkbox, Modal, Tag, Typography } from 'antd';
import { useState } from 'react';
import type { ShuttleTaskStudent } from '@wantuo/shared';
import { get } from '../../api/http';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { localTime, useSchoolZone } from '../../lib/school-time';
import { PickupScan } from '../pickup/pickup-scan';
import { useQueuedPickups } from '../pickup/use-queued-pickups';
import { HandOverButton } from './hand-over';
import { flowStrings } from './strings';
import { StepBar, stepsOf, useTaskSelection } from './step-runner';
import './teacher-today.css';
import { flowLabel, flowTag } from './flow-look';

const SHUTTLE = stepsOf('shuttle');

/**
 * The shuttle teacher's phone list (/teacher_shuttle): today's pick-ups grouped by day school and dismissal time;
 * select many and tap the big 接到 button (the same rules, offline queue and fresh event id per tap as /teacher_today).
 * A child in the centre handed over to whoever collects them: 离园 opens the same 扫码核验 as /teacher_today's (PickupScan).
 */
export default function TeacherShuttle() {
  const tf = flowStrings.use();
  const tz = useSchoolZone();
  const { task, reload, pending, chosen, runner, selected, setSelected, toggle, loading, failed } = useTaskSelection('shuttleTask', () =>
    get('shuttleTask'),
  );
  const [leaving, setLeaving] = useState<ShuttleTaskStudent | null>(null);
  // departures verified offline (PickupScan's queue) go out when the page opens or the network returns, dialog closed or not
  useQueuedPickups(reload);

  if (loading) return <Loading />;
  if (failed) return <LoadError onRetry={() => void reload()} />;
  const groups = task.data?.groups ?? [];
  const setMany = (ids: number[], on: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      for (const id of ids)
        if (on) next.add(id);
        else next.delete(id);
      return next;
    });

  return (
    <div className="flow-today">
      <Card
        size="small"
        title={`${tf('ops.shuttle_title')} ${task.data?.day ?? ''}`}
        extra={<Typography.Text type="secondary">{tf('flow.selected', { n: selected.size })}</Typography.Text>}
      >
        {pending > 0 && <Alert type="warning" showIcon title={tf('flow.pending_hint', { n: pending })} style={{ marginBottom: 8 }} />}
        {groups.length === 0 ? (
          <EmptyState description={tf('ops.shuttle_empty')} />
        ) : (
          groups.map((g) => {
            const waiting = g.students.filter((s) => s.state === 'expected').map((s) => s.id);
            const all = waiting.length > 0 && waiting.every((id) => selected.has(id));
            return (
              <div key={`${g.dismissal_time}-${g.day_school}`} style={{ marginBottom: 8 }}>
                <div className="flow-select-all">
                  <Checkbox
                    checked={all}
                    disabled={waiting.length === 0}
                    indeterminate={!all && waiting.some((id) => selected.has(id))}
                    onChange={(e) => setMany(waiting, e.target.checked)}
                  >
                    <strong>
                      {g.dismissal_time ?? tf('ops.no_time')} · {g.day_school ?? tf('ops.no_school')}
                    </strong>
                  </Checkbox>
                  <Typography.Text type="secondary">
                    {g.students.length - waiting.length}/{g.students.length}
                  </Typography.Text>
                </div>
                <ul className="flow-list">
                  {g.students.map((s) => (
                    <li key={s.id} className={selected.has(s.id) ? 'flow-row flow-row-on' : 'flow-row'} onClick={() => toggle(s.id)}>
                      <Checkbox checked={selected.has(s.id)} onClick={(e) => e.stopPropagation()} onChange={() => toggle(s.id)} />
                      <div className="flow-row-main">
                        <div>
                          <strong>{s.name}</strong> <Tag color={flowTag(s.state)}>{tf(flowLabel(s.state))}</Tag>
                          {s.handed_over_by_name && <Tag color="gold">{tf('handover.from', { name: s.handed_over_by_name })}</Tag>}
                        </div>
                        <Typography.Text type="secondary" className="flow-times">
                          {s.picked_up_at
                            ? tf('ops.picked_by', { name: s.picked_up_by_name ?? '-', time: localTime(s.picked_up_at, tz) })
                            : [s.grade, s.class_name, s.care_class?.name].filter(Boolean).join(' · ')}
                        </Typography.Text>
                      </div>
                      {s.state === 'expected' && <HandOverButton duty="shuttle" student={s} onDone={() => void reload()} />}
                      {s.state === 'in_centre' && (
                        <Button
                          data-testid="shuttle-leave"
                          onClick={(e) => {
                            e.stopPropagation();
                            setLeaving(s);
                          }}
                        >
                          {tf('flow.btn_leave')}
                        </Button>
                      )}
                    </li>
                  ))}
                </ul>
              </div>
            );
          })
        )}
      </Card>
      <StepBar steps={SHUTTLE} runner={runner} chosen={chosen.length} columns={1} />
      <Modal
        open={!!leaving}
        title={leaving ? tf('flow.leave_title', { name: leaving.name }) : ''}
        footer={null}
        onCancel={() => setLeaving(null)}
        destroyOnHidden
      >
        {leaving && (
          <PickupScan
            students={[{ id: leaving.id, name: leaving.name }]}
            onDone={() => {
              setLeaving(null);
              void reload();
            }}
          />
        )}
      </Modal>
    </div>
  );
}
