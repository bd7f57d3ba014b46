import Button from 'antd-mobile/es/components/button';
import Tag from 'antd-mobile/es/components/tag';
import ScanningOutline from 'antd-mobile-icons/es/ScanningOutline';
import type { ShuttleTaskStudent } from '@wantuo/shared';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { get } from '../../api/http';
import { flowStrings } from '../../areas/flow/strings';
import { stepsOf, useTaskSelection } from '../../areas/flow/use-step-runner';
import { useQueuedPickups } from '../../areas/pickup/use-queued-pickups';
import { localTime, useSchoolZone } from '../../lib/school-time';
import { PhonePage } from '../ui/page';
import { PhoneEmpty, PhoneError, PhoneLoading } from '../ui/states';
import { HandOverSheet, PendingNotice, SelectRow, Sheet, StateTag, StepActions } from './parts';
import { ScanPanel } from './scan';
import { teacherPhoneStrings } from './strings';
import './teacher.css';

const SHUTTLE = stepsOf('shuttle');

/**
 * 接送 on the teacher's phone: today's pick-ups grouped by dismissal time and day school; select many (a group at
 * once) and tap 接到 (the same rules, offline queue and event ids as 今日). A child not yet collected can be handed
 * to a colleague; a child in the centre leaves with their pick-up code scanned.
 */
export default function TeacherShuttle() {
  const tf = flowStrings.use();
  const tp = teacherPhoneStrings.use();
  const tz = useSchoolZone();
  const navigate = useNavigate();
  const { task, board, reload, pending, chosen, runner, selected, setSelected, toggle, loading } = useTaskSelection('shuttleTask', () =>
    get('shuttleTask'),
  );
  const [leaving, setLeaving] = useState<ShuttleTaskStudent | null>(null);
  const [handing, setHanding] = useState<ShuttleTaskStudent | null>(null);
  // departures verified offline go out when the page opens or the network returns
  useQueuedPickups(reload);

  const setMany = (ids: number[], on: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      for (const id of ids)
        if (on) next.add(id);
        else next.delete(id);
      return next;
    });

  const body = () => {
    if (loading) return <PhoneLoading rows={8} />;
    if (task.data === undefined || board.data === undefined) return <PhoneError error={task.error ?? board.error} onRetry={() => void reload()} />;
    const groups = task.data.groups;
    if (groups.length === 0) return <PhoneEmpty description={tf('ops.shuttle_empty')} />;
    return (
      <>
        <div className="m-select-bar">
          <span>
            {task.data.day} · {tf('flow.selected', { n: selected.size })}
          </span>
        </div>
        {groups.map((g) => {
          const waiting = g.students.filter((s) => s.state === 'expected').map((s) => s.id);
          const all = waiting.length > 0 && waiting.every((id) => selected.has(id));
          return (
            <section key={`${g.dismissal_time}-${g.day_school}`} data-testid="shuttle-group">
              <div className="m-group-head">
                <strong>
                  {g.dismissal_time ?? tf('ops.no_time')} · {g.day_school ?? tf('ops.no_school')}（{g.students.length - waiting.length}/
                  {g.students.length}）
                </strong>
                {waiting.length > 0 && (
                  <Button fill="outline" color="primary" onClick={() => setMany(waiting, !all)}>
                    {all ? tp('tp.clear') : tp('tp.select_shown', { n: waiting.length })}
                  </Button>
                )}
              </div>
              <ul className="flow-list">
                {g.students.map((s) => (
                  <SelectRow
                    key={s.id}
                    on={selected.has(s.id)}
                    onToggle={() => toggle(s.id)}
                    side={
                      <>
                        {s.state === 'expected' && (
                          <Button onClick={() => setHanding(s)} aria-label={`${tf('handover.button')} ${s.name}`}>
                            {tf('handover.button')}
                          </Button>
                        )}
                        {s.state === 'in_centre' && (
                          <Button onClick={() => setLeaving(s)} data-testid="shuttle-leave">
                            {tf('flow.btn_leave')}
                          </Button>
                        )}
                      </>
                    }
                  >
                    <div>
                      <strong>{s.name}</strong>
                      <StateTag state={s.state} />
                      {s.handed_over_by_name && <Tag color="warning">{tf('handover.from', { name: s.handed_over_by_name })}</Tag>}
                    </div>
                    <div className="flow-times">
                      {s.picked_up_at
                        ? tf('ops.picked_by', { name: s.picked_up_by_name ?? '-', time: localTime(s.picked_up_at, tz) })
                        : [s.grade, s.class_name, s.care_class?.name].filter(Boolean).join(' · ')}
                    </div>
                  </SelectRow>
                ))}
              </ul>
            </section>
          );
        })}
        <StepActions steps={SHUTTLE} runner={runner} chosen={chosen.length} columns={1} />
      </>
    );
  };

  return (
    <PhonePage onRefresh={reload}>
      <PendingNotice pending={pending} />
      <div className="m-entry">
        <Button onClick={() => navigate('/m/teacher_pickup')}>
          <ScanningOutline /> {tp('tp.scan_entry')}
        </Button>
      </div>
      {body()}
      {leaving && (
        <Sheet open onClose={() => setLeaving(null)} title={tf('flow.leave_title', { name: leaving.name })} testId="leave-sheet">
          <ScanPanel
            studentsFor={() => [{ id: leaving.id, name: leaving.name }]}
            onDone={() => {
              setLeaving(null);
              void reload();
            }}
          />
        </Sheet>
      )}
      {handing && <HandOverSheet duty="shuttle" student={handing} onClose={() => setHanding(null)} onDone={() => void reload()} />}
    </PhonePage>
  );
}
