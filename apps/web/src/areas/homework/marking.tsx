import { useQuery } from '@tanstack/react-query';
import { Button, Card, Checkbox, Descriptions, Drawer, Flex, Image, Input, Select, Timeline, Typography } from 'antd';
import type { HomeworkState } from '@wantuo/shared';
import { useMemo, useState } from 'react';
import { useAction } from '../../api/action';
import { get } from '../../api/http';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { newRequestId } from '../../lib/request-id';
import { localMonthDayTime, useSchoolToday, useSchoolZone } from '../../lib/school-time';
import { Counts, StateTag } from './common';
import { homeworkStrings } from './strings';
import './homework.css';
import { queryKey } from '../../api/query';

/**
 * Marking homework on the phone, during tutoring: the homework open today in the teacher's classes, then one homework's
 * students; select several and mark them done or checked (with a note) in one request (markHomeWork).
 */
export function HomeworkMarking({ homeworkId }: { homeworkId?: number }) {
  const s = homeworkStrings.use();
  const day = useSchoolToday();
  const list = useQuery({
    queryKey: queryKey('classHomeWorks', { day, limit: 50 }),
    queryFn: () => get('classHomeWorks', { day, limit: 50 }),
    enabled: homeworkId === undefined,
  });
  const [picked, setPicked] = useState<number | undefined>(homeworkId);
  const first = list.data?.list[0]?.id;
  const current = homeworkId ?? picked ?? first;

  if (homeworkId === undefined) {
    if (list.isLoading) return <Loading />;
    if (list.isError) return <LoadError onRetry={() => void list.refetch()} />;
  }
  const options = (list.data?.list ?? []).map((h) => ({ value: h.id, label: `${h.class_name} · ${h.title}` }));
  return (
    <Card size="small" title={s('mark.title')} className="hw-marking" data-testid="homework-marking">
      {homeworkId === undefined && options.length === 0 ? (
        <EmptyState description={s('mark.empty')} />
      ) : (
        <>
          {homeworkId === undefined && (
            <Select
              aria-label={s('mark.pick')}
              style={{ width: '100%', marginBottom: 8 }}
              value={current}
              options={options}
              onChange={(v) => setPicked(v)}
            />
          )}
          {current !== undefined && <Students id={current} key={current} />}
        </>
      )}
    </Card>
  );
}

function Students({ id }: { id: number }) {
  const s = homeworkStrings.use();
  const info = useQuery({ queryKey: queryKey('homeWorkInfo', { id, limit: 100 }), queryFn: () => get('homeWorkInfo', { id, limit: 100 }) });
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [note, setNote] = useState('');
  const markAction = useAction('markHomeWork', {
    success: (res) => s('mark.saved', { n: res.changed }),
    invalidates: ['homeWorkInfo', 'classHomeWorks'],
    onDone: () => {
      setSelected(new Set());
      setNote('');
    },
  });
  const busy = markAction.busy ? markAction.input!.state : null;
  const [detail, setDetail] = useState<number | null>(null);
  const rows = useMemo(() => info.data?.list ?? [], [info.data]);
  const open = rows.filter((r) => r.state !== 'checked').map((r) => r.student_id);

  if (info.isLoading) return <Loading />;
  if (info.isError) return <LoadError onRetry={() => void info.refetch()} />;
  const h = info.data!.homework;
  const all = open.length > 0 && open.every((x) => selected.has(x));
  const toggle = (sid: number) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(sid)) next.delete(sid);
      else next.add(sid);
      return next;
    });

  const mark = (state: HomeworkState) =>
    markAction.run({
      homework_id: id,
      student_ids: [...selected],
      state,
      note: note.trim() || undefined,
      request_id: newRequestId(),
    });

  return (
    <>
      <Typography.Paragraph style={{ marginBottom: 4, whiteSpace: 'pre-wrap' }}>{h.content}</Typography.Paragraph>
      <Counts h={h} />
      {rows.length === 0 ? (
        <EmptyState description={s('mark.students_empty')} />
      ) : (
        <>
          <div className="hw-select-all">
            <Checkbox
              checked={all}
              disabled={open.length === 0}
              indeterminate={!all && open.some((x) => selected.has(x))}
              onChange={(e) => setSelected(e.target.checked ? new Set(open) : new Set())}
            >
              {s('mark.select_all')}
            </Checkbox>
            <Typography.Text type="secondary">{s('mark.selected', { n: selected.size })}</Typography.Text>
          </div>
          <ul className="hw-list">
            {rows.map((r) => (
              <li
                key={r.student_id}
                className={selected.has(r.student_id) ? 'hw-row hw-row-on' : 'hw-row'}
                onClick={() => toggle(r.student_id)}
                data-student={r.student_name}
              >
                <Checkbox checked={selected.has(r.student_id)} onClick={(e) => e.stopPropagation()} onChange={() => toggle(r.student_id)} />
                <div className="hw-row-main">
                  <div>
                    <strong>{r.student_name}</strong> <StateTag state={r.state} />
                  </div>
                  {(r.note || r.home_note) && (
                    <Typography.Text type="secondary" className="hw-note">
                      {[r.note && `${s('teacher_note')}：${r.note}`, r.home_note && `${s('home_note')}：${r.home_note}`].filter(Boolean).join(' · ')}
                    </Typography.Text>
                  )}
                </div>
                {r.photo_url && (
                  <span onClick={(e) => e.stopPropagation()}>
                    <Image src={r.photo_url} width={40} height={40} style={{ objectFit: 'cover', borderRadius: 4 }} alt={s('photo')} />
                  </span>
                )}
                <Button
                  size="small"
                  onClick={(e) => {
                    e.stopPropagation();
                    setDetail(r.student_id);
                  }}
                >
                  {s('detail.student')}
                </Button>
              </li>
            ))}
          </ul>
          <Input
            placeholder={s('mark.note')}
            aria-label={s('mark.note')}
            value={note}
            maxLength={200}
            onChange={(e) => setNote(e.target.value)}
            style={{ margin: '8px 0' }}
          />
          <Flex gap={8}>
            <Button block size="large" type="primary" disabled={!selected.size} loading={busy === 'done'} onClick={() => void mark('done')}>
              {s('mark.done')}
            </Button>
            <Button
              block
              size="large"
              style={{ background: selected.size ? '#389e0d' : undefined, color: selected.size ? '#fff' : undefined }}
              disabled={!selected.size}
              loading={busy === 'checked'}
              onClick={() => void mark('checked')}
            >
              {s('mark.checked')}
            </Button>
            <Button size="large" disabled={!selected.size} loading={busy === 'todo'} onClick={() => void mark('todo')}>
              {s('mark.reopen')}
            </Button>
          </Flex>
        </>
      )}
      <StudentWork homeworkId={id} studentId={detail} onClose={() => setDetail(null)} />
    </>
  );
}

/** One student's homework (wantuoStudentWorkInfo): state, today's tutoring and every change with its note or photo. */
function StudentWork({ homeworkId, studentId, onClose }: { homeworkId: number; studentId: number | null; onClose: () => void }) {
  const s = homeworkStrings.use();
  const tz = useSchoolZone();
  const q = useQuery({
    queryKey: queryKey('wantuoStudentWorkInfo', { homework_id: homeworkId, student_id: studentId }),
    queryFn: () => get('wantuoStudentWorkInfo', { homework_id: homeworkId, student_id: studentId }),
    enabled: studentId !== null,
  });
  const d = q.data;
  return (
    <Drawer
      open={studentId !== null}
      onClose={onClose}
      title={d ? `${d.student_name} · ${d.homework.title}` : s('detail.student')}
      size={Math.min(420, typeof window === 'undefined' ? 420 : window.innerWidth)}
    >
      {q.isLoading ? (
        <Loading />
      ) : q.isError ? (
        <LoadError onRetry={() => void q.refetch()} />
      ) : d ? (
        <Flex vertical gap={12}>
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={s('col.state')}>
              <StateTag state={d.homework.state} />
            </Descriptions.Item>
            <Descriptions.Item label={s('detail.tutoring')}>
              {d.tutoring?.started_at
                ? `${localMonthDayTime(d.tutoring.started_at, tz)}${d.tutoring.ended_at ? ` – ${localMonthDayTime(d.tutoring.ended_at, tz)}` : ''} · ${d.tutoring.started_by_name ?? '-'}`
                : s('detail.not_tutored')}
            </Descriptions.Item>
            {d.homework.note && <Descriptions.Item label={s('teacher_note')}>{d.homework.note}</Descriptions.Item>}
            {d.homework.photo_url && (
              <Descriptions.Item label={s('photo')}>
                <Image src={d.homework.photo_url} width={72} height={72} style={{ objectFit: 'cover', borderRadius: 4 }} alt={s('photo')} />
                {d.homework.home_note && <div>{d.homework.home_note}</div>}
              </Descriptions.Item>
            )}
          </Descriptions>
          <Typography.Text strong>{s('detail.history')}</Typography.Text>
          {d.history.length === 0 ? (
            <EmptyState description={s('detail.history_empty')} />
          ) : (
            <Timeline
              items={d.history.map((e) => ({
                key: e.id,
                content: (
                  <>
                    <div>
                      {localMonthDayTime(e.at, tz)} · {s(`actor.${e.actor}`)} {e.actor_name ?? ''}：<StateTag state={e.from_state} />→{' '}
                      <StateTag state={e.to_state} />
                    </div>
                    {e.note && <Typography.Text type="secondary">{e.note}</Typography.Text>}
                  </>
                ),
              }))}
            />
          )}
        </Flex>
      ) : null}
    </Drawer>
  );
}
