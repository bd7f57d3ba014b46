import Button from 'antd-mobile/es/components/button';
import List from 'antd-mobile/es/components/list';
import Tag from 'antd-mobile/es/components/tag';
import { useQuery } from '@tanstack/react-query';
import type { TutorTaskInfo, TutorTaskRow } from '@wantuo/shared';
import { useState } from 'react';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { EVENT_LABEL } from '../../areas/flow/event-labels';
import { flowStrings } from '../../areas/flow/strings';
import { stepsOf, useTaskSelection } from '../../areas/flow/use-step-runner';
import { localTime, useSchoolZone } from '../../lib/school-time';
import { PhonePage } from '../ui/page';
import { PhoneEmpty, PhoneError, PhoneLoading } from '../ui/states';
import { HandOverSheet, PendingNotice, SelectRow, Sheet, StateTag, StepActions } from './parts';
import { teacherPhoneStrings } from './strings';
import './teacher.css';

const TUTOR = stepsOf('startTutor', 'endTutor');
const HW_COLOR: Record<string, string> = { todo: 'default', done: 'primary', checked: 'success' };

/** A student's tutoring of the day (tutorTaskInfo): its type, times, the homework open today and the day's events. */
function TutorDetail({ id, name, onClose }: { id: number; name: string; onClose: () => void }) {
  const tf = flowStrings.use();
  const tz = useSchoolZone();
  const q = useQuery({ queryKey: queryKey('tutorTaskInfo', { student_id: id }), queryFn: () => get('tutorTaskInfo', { student_id: id }) });
  const d: TutorTaskInfo | undefined = q.data;
  return (
    <Sheet open onClose={onClose} title={`${tf('ops.tutor_detail')} · ${name}`} testId="tutor-detail">
      {q.isPending ? (
        <PhoneLoading rows={4} />
      ) : d === undefined ? (
        <PhoneError error={q.error} onRetry={() => void q.refetch()} />
      ) : (
        <>
          <List>
            <List.Item extra={d.tutoring_type ?? '-'}>{tf('ops.tutor_type')}</List.Item>
            <List.Item extra={<StateTag state={d.state} />}>{tf('ops.leave_status')}</List.Item>
            <List.Item extra={d.tutor_started_at ? `${localTime(d.tutor_started_at, tz)} · ${d.tutor_started_by_name ?? '-'}` : '-'}>
              {tf('flow.btn_start_tutor')}
            </List.Item>
            <List.Item extra={d.tutor_ended_at ? `${localTime(d.tutor_ended_at, tz)} · ${d.tutor_ended_by_name ?? '-'}` : '-'}>
              {tf('flow.btn_end_tutor')}
            </List.Item>
            <List.Item extra={[d.student.care_class?.name, d.student.grade, d.student.class_name].filter(Boolean).join(' · ') || '-'}>
              {tf('ops.class')}
            </List.Item>
          </List>
          <div className="m-sheet-sub">{tf('tutor.homework')}</div>
          {(d.homework ?? []).length === 0 ? (
            <div className="m-state-desc">{tf('tutor.homework_empty')}</div>
          ) : (
            <ul className="m-detail-events" data-testid="tutor-homework">
              {d.homework.map((h) => (
                <li key={h.id}>
                  <strong>{h.title}</strong> <Tag color={HW_COLOR[h.state] ?? 'default'}>{tf(`tutor.hw_${h.state}`)}</Tag>
                  <div className="flow-times">
                    {h.class_name} · {tf('tutor.homework_due', { day: h.due_day })}
                  </div>
                  <div style={{ whiteSpace: 'pre-wrap', marginTop: 4 }}>{h.content}</div>
                  {(h.note || h.home_note) && <div className="flow-times">{[h.note, h.home_note].filter(Boolean).join(' · ')}</div>}
                </li>
              ))}
            </ul>
          )}
          <div className="m-sheet-sub">{tf('ops.timeline')}</div>
          {d.events.length === 0 ? (
            <div className="m-state-desc">{tf('parent.no_events')}</div>
          ) : (
            <ol className="m-detail-events">
              {d.events.map((e, i) => (
                <li key={i} className={'voided' in e && e.voided ? 'm-voided' : undefined}>
                  <strong>{localTime(e.at, tz)}</strong> {tf(EVENT_LABEL[e.type] ?? 'parent.ev_other')}
                  {e.actor_name && <span className="flow-times"> · {e.actor_name}</span>}
                </li>
              ))}
            </ol>
          )}
        </>
      )}
    </Sheet>
  );
}

/**
 * 辅导 on the teacher's phone: today's tutored students; select many (those in the centre at once) and start or end
 * tutoring (the same rules, offline queue and event ids as 今日); a student's tutoring opens as a bottom sheet, and
 * a tutoring not yet ended can be handed to a colleague.
 */
export default function TeacherTutor() {
  const tf = flowStrings.use();
  const tp = teacherPhoneStrings.use();
  const tz = useSchoolZone();
  const [open, setOpen] = useState<TutorTaskRow | null>(null);
  const [handing, setHanding] = useState<TutorTaskRow | null>(null);
  const { task, board, reload, pending, chosen, runner, selected, setSelected, toggle, loading } = useTaskSelection('tutorTask', () =>
    get('tutorTask'),
  );

  const body = () => {
    if (loading) return <PhoneLoading rows={8} />;
    if (task.data === undefined || board.data === undefined) return <PhoneError error={task.error ?? board.error} onRetry={() => void reload()} />;
    const list = task.data.list;
    if (list.length === 0) return <PhoneEmpty description={tf('ops.tutor_empty')} />;
    const here = list.filter((s) => s.state === 'in_centre').map((s) => s.id);
    const all = here.length > 0 && here.every((id) => selected.has(id));
    return (
      <>
        <div className="m-select-bar">
          <span>
            {task.data.day} · {tf('flow.selected', { n: selected.size })}
          </span>
          {here.length > 0 && (
            <Button fill="outline" color="primary" onClick={() => setSelected(all ? new Set() : new Set(here))}>
              {all ? tp('tp.clear') : tf('ops.select_in_centre')}
            </Button>
          )}
        </div>
        <ul className="flow-list">
          {list.map((s) => (
            <SelectRow
              key={s.id}
              on={selected.has(s.id)}
              onToggle={() => toggle(s.id)}
              side={
                <>
                  <Button onClick={() => setOpen(s)} aria-label={`${tp('tp.detail')} ${s.name}`}>
                    {tp('tp.detail')}
                  </Button>
                  {!s.tutor_ended_at && s.state !== 'left' && s.state !== 'on_leave' && (
                    <Button onClick={() => setHanding(s)} aria-label={`${tf('handover.button')} ${s.name}`}>
                      {tf('handover.button')}
                    </Button>
                  )}
                </>
              }
            >
              <div>
                <strong>{s.name}</strong>
                <StateTag state={s.state} />
                {s.tutoring_type && <Tag fill="outline">{s.tutoring_type}</Tag>}
                {s.tutor_started_at && !s.tutor_ended_at && <Tag color="#eb2f96">{tf('ops.tutoring')}</Tag>}
                {s.handed_over_by_name && <Tag color="warning">{tf('handover.from', { name: s.handed_over_by_name })}</Tag>}
              </div>
              <div className="flow-times">
                {[
                  s.tutor_started_at && `${tf('flow.btn_start_tutor')} ${localTime(s.tutor_started_at, tz)}`,
                  s.tutor_ended_at && `${tf('flow.btn_end_tutor')} ${localTime(s.tutor_ended_at, tz)}`,
                ]
                  .filter(Boolean)
                  .join(' · ') || [s.care_class?.name, s.grade].filter(Boolean).join(' · ')}
              </div>
            </SelectRow>
          ))}
        </ul>
        <StepActions steps={TUTOR} runner={runner} chosen={chosen.length} columns={2} />
      </>
    );
  };

  return (
    <PhonePage onRefresh={reload}>
      <PendingNotice pending={pending} />
      {body()}
      {open && <TutorDetail id={open.id} name={open.name} onClose={() => setOpen(null)} />}
      {handing && <HandOverSheet duty="tutor" student={handing} onClose={() => setHanding(null)} onDone={() => void reload()} />}
    </PhonePage>
  );
}
