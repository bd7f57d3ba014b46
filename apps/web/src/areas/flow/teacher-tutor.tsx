import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Checkbox, Descriptions, Drawer, List, Tag, Typography } from 'antd';
import type { TutorTaskInfo } from '@wantuo/shared';
import { useState } from 'react';
import { get } from '../../api/http';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { localTime, useSchoolZone } from '../../lib/school-time';
import { flowLabel, flowTag } from './flow-look';
import { HandOverButton } from './hand-over';
import { flowStrings } from './strings';
import { StepBar, stepsOf, useTaskSelection } from './step-runner';
import { DayTimeline } from './timeline';
import { HomeworkMarking } from '../homework/marking';
import './teacher-today.css';

const TUTOR = stepsOf('startTutor', 'endTutor');

const HW_COLOR: Record<string, string> = { todo: 'default', done: 'blue', checked: 'green' };

/** The student's homework open today (tutorTaskInfo.homework), with its state and the notes written. */
function DayHomework({ list }: { list: TutorTaskInfo['homework'] }) {
  const tf = flowStrings.use();
  return (
    <Card size="small" title={tf('tutor.homework')} style={{ marginBottom: 16 }} data-testid="tutor-homework">
      {list.length === 0 ? (
        <EmptyState description={tf('tutor.homework_empty')} />
      ) : (
        <List
          size="small"
          dataSource={list}
          renderItem={(h) => (
            <List.Item style={{ display: 'block', padding: '8px 0' }}>
              <div>
                <strong>{h.title}</strong> <Tag color={HW_COLOR[h.state]}>{tf(`tutor.hw_${h.state}`)}</Tag>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {h.class_name} · {tf('tutor.homework_due', { day: h.due_day })}
                </Typography.Text>
              </div>
              <Typography.Paragraph style={{ margin: '4px 0 0', whiteSpace: 'pre-wrap' }} ellipsis={{ rows: 3, expandable: true }}>
                {h.content}
              </Typography.Paragraph>
              {(h.note || h.home_note) && (
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {[h.note, h.home_note].filter(Boolean).join(' · ')}
                </Typography.Text>
              )}
            </List.Item>
          )}
        />
      )}
    </Card>
  );
}

function TutorDrawer({ id, onClose }: { id: number | null; onClose: () => void }) {
  const tf = flowStrings.use();
  const tz = useSchoolZone();
  const q = useQuery({
    queryKey: ['tutorTaskInfo', id],
    queryFn: () => get('tutorTaskInfo', { student_id: id }),
    enabled: id !== null,
  });
  const d = q.data;
  return (
    <Drawer
      open={id !== null}
      onClose={onClose}
      title={d ? d.student.name : tf('ops.tutor_detail')}
      size={Math.min(420, typeof window === 'undefined' ? 420 : window.innerWidth)}
    >
      {q.isLoading ? (
        <Loading />
      ) : q.isError ? (
        <LoadError onRetry={() => q.refetch()} />
      ) : d ? (
        <>
          <Descriptions column={1} size="small" bordered style={{ marginBottom: 16 }}>
            <Descriptions.Item label={tf('ops.tutor_type')}>{d.tutoring_type ?? '-'}</Descriptions.Item>
            <Descriptions.Item label={tf('ops.leave_status')}>
              <Tag color={flowTag(d.state)}>{tf(flowLabel(d.state))}</Tag>
            </Descriptions.Item>
            <Descriptions.Item label={tf('flow.btn_start_tutor')}>
              {d.tutor_started_at ? `${localTime(d.tutor_started_at, tz)} · ${d.tutor_started_by_name ?? '-'}` : '-'}
            </Descriptions.Item>
            <Descriptions.Item label={tf('flow.btn_end_tutor')}>
              {d.tutor_ended_at ? `${localTime(d.tutor_ended_at, tz)} · ${d.tutor_ended_by_name ?? '-'}` : '-'}
            </Descriptions.Item>
            <Descriptions.Item label={tf('ops.class')}>
              {[d.student.care_class?.name, d.student.grade, d.student.class_name].filter(Boolean).join(' · ') || '-'}
            </Descriptions.Item>
          </Descriptions>
          <DayHomework list={d.homework ?? []} />
          <DayTimeline events={d.events} tz={tz} />
        </>
      ) : null}
    </Drawer>
  );
}

/**
 * The tutor's phone list (/teacher_tutor): today's tutored students; select many and start or end tutoring (the same
 * rules, offline queue and event ids as /teacher_today); a student's tutoring record opens in a drawer.
 */
export default function TeacherTutor() {
  const tf = flowStrings.use();
  const tz = useSchoolZone();
  const [open, setOpen] = useState<number | null>(null);
  const { task, reload, pending, chosen, runner, selected, setSelected, toggle, loading, failed } = useTaskSelection('tutorTask', () =>
    get('tutorTask'),
  );

  if (loading) return <Loading />;
  if (failed) return <LoadError onRetry={() => void reload()} />;
  const list = task.data?.list ?? [];
  const here = list.filter((s) => s.state === 'in_centre').map((s) => s.id);
  const all = here.length > 0 && here.every((id) => selected.has(id));

  return (
    <div className="flow-today">
      <Card size="small" title={`${tf('ops.tutor_title')} ${task.data?.day ?? ''}`}>
        {pending > 0 && <Alert type="warning" showIcon title={tf('flow.pending_hint', { n: pending })} style={{ marginBottom: 8 }} />}
        {list.length === 0 ? (
          <EmptyState description={tf('ops.tutor_empty')} />
        ) : (
          <>
            <div className="flow-select-all">
              <Checkbox
                checked={all}
                disabled={here.length === 0}
                indeterminate={!all && here.some((id) => selected.has(id))}
                onChange={(e) => setSelected(e.target.checked ? new Set(here) : new Set())}
              >
                {tf('ops.select_in_centre')}
              </Checkbox>
              <Typography.Text type="secondary">{tf('flow.selected', { n: selected.size })}</Typography.Text>
            </div>
            <ul className="flow-list">
              {list.map((s) => (
                <li key={s.id} className={selected.has(s.id) ? 'flow-row flow-row-on' : 'flow-row'} onClick={() => toggle(s.id)}>
                  <Checkbox checked={selected.has(s.id)} onClick={(e) => e.stopPropagation()} onChange={() => toggle(s.id)} />
                  <div className="flow-row-main">
                    <div>
                      <strong>{s.name}</strong> <Tag color={flowTag(s.state)}>{tf(flowLabel(s.state))}</Tag>
                      <Tag>{s.tutoring_type}</Tag>
                      {s.tutor_started_at && !s.tutor_ended_at && <Tag color="magenta">{tf('ops.tutoring')}</Tag>}
                      {s.handed_over_by_name && <Tag color="gold">{tf('handover.from', { name: s.handed_over_by_name })}</Tag>}
                    </div>
                    <Typography.Text type="secondary" className="flow-times">
                      {[
                        s.tutor_started_at && `${tf('flow.btn_start_tutor')} ${localTime(s.tutor_started_at, tz)}`,
                        s.tutor_ended_at && `${tf('flow.btn_end_tutor')} ${localTime(s.tutor_ended_at, tz)}`,
                      ]
                        .filter(Boolean)
                        .join(' · ') || [s.care_class?.name, s.grade].filter(Boolean).join(' · ')}
                    </Typography.Text>
                  </div>
                  <div style={{ display: 'flex', flexDirection: 'column', gap: 6 }}>
                    <Button
                      size="small"
                      onClick={(e) => {
                        e.stopPropagation();
                        setOpen(s.id);
                      }}
                    >
                      {tf('ops.leave_detail')}
                    </Button>
                    {!s.tutor_ended_at && s.state !== 'left' && s.state !== 'on_leave' && (
                      <HandOverButton duty="tutor" student={s} onDone={() => void reload()} />
                    )}
                  </div>
                </li>
              ))}
            </ul>
          </>
        )}
      </Card>
      {/* homework of the day, marked during tutoring (module homework) */}
      <div style={{ marginTop: 12 }}>
        <HomeworkMarking />
      </div>
      <StepBar steps={TUTOR} runner={runner} chosen={chosen.length} columns={2} />
      <TutorDrawer id={open} onClose={() => setOpen(null)} />
    </div>
  );
}
