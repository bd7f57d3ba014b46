import Button from 'antd-mobile/es/components/button';
import CheckList from 'antd-mobile/es/components/check-list';
import Tag from 'antd-mobile/es/components/tag';
import ScanningOutline from 'antd-mobile-icons/es/ScanningOutline';
import EditSOutline from 'antd-mobile-icons/es/EditSOutline';
import MessageOutline from 'antd-mobile-icons/es/MessageOutline';
import Badge from 'antd-mobile/es/components/badge';
import { useQuery } from '@tanstack/react-query';
import { boardState, LOW_UNITS_BADGE, type FlowBoardStudent } from '@wantuo/shared';
import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { flowStrings, type FlowKey } from '../../areas/flow/strings';
import { STEPS, useFlowQueue, useStepRunner } from '../../areas/flow/use-step-runner';
import { useQueuedPickups } from '../../areas/pickup/use-queued-pickups';
import { useUnread } from '../../areas/conversations/model';
import { conversationsStrings } from '../../areas/conversations/strings';
import { reportsStrings } from '../../areas/reports/strings';
import { early } from '../../lib/early-data';
import { localTime, useSchoolZone } from '../../lib/school-time';
import { PhonePage, QueryView } from '../ui/page';
import { PhoneEmpty } from '../ui/states';
import { CallButton } from './call-button';
import { Notice, PendingNotice, SelectRow, Sheet, StateTag, StepActions } from './parts';
import { teacherPhoneStrings } from './strings';
import './teacher.css';

/** the quick comment's sheet, loaded when a 评语 is first opened */
const CommentSheet = lazy(() => import('./comment-sheet'));
/** the pick-up code scanner (jsQR and the code's signature check, ~16 KB) loads when a 离园 sheet opens */
const ScanPanel = lazy(() => import('./scan').then((m) => ({ default: m.ScanPanel })));

type Filter = 'all' | 'expected' | 'picked_up' | 'in_centre' | 'left' | 'on_leave';
const FILTERS: Filter[] = ['all', 'expected', 'picked_up', 'in_centre', 'left', 'on_leave'];

/** The row's second line: the steps taken today with their times, else where the child comes from. */
function timesOf(s: FlowBoardStudent, tf: (k: FlowKey) => string, tz: string): string {
  return (
    [
      s.picked_up_at && `${tf('flow.btn_shuttle')} ${localTime(s.picked_up_at, tz)}`,
      s.entered_at && `${tf('flow.btn_enter')} ${localTime(s.entered_at, tz)}`,
      s.dinner_at && `${tf('flow.btn_dinner')} ${localTime(s.dinner_at, tz)}`,
      s.tutor_started_at && `${tf('flow.btn_start_tutor')} ${localTime(s.tutor_started_at, tz)}`,
      s.tutor_ended_at && `${tf('flow.btn_end_tutor')} ${localTime(s.tutor_ended_at, tz)}`,
      s.left_at && `${tf('flow.btn_leave')} ${localTime(s.left_at, tz)}`,
    ]
      .filter(Boolean)
      .join(' · ') || `${s.care_class_name} · ${[s.day_school, s.grade, s.class_name].filter(Boolean).join(' ')}`
  );
}

/** 离园 of one child: who collects them (one of the authorised people), or their pick-up code scanned. */
function LeaveSheet({
  student,
  onLeave,
  onScanned,
  onClose,
}: {
  student: FlowBoardStudent;
  onLeave: (pickedUpBy: number) => Promise<unknown>;
  onScanned: () => void;
  onClose: () => void;
}) {
  const tf = flowStrings.use();
  const tp = teacherPhoneStrings.use();
  const [pickup, setPickup] = useState<number | null>(student.pickup_people[0]?.id ?? null);
  const [busy, setBusy] = useState(false);
  return (
    <Sheet open onClose={onClose} title={tf('flow.leave_title', { name: student.name })} testId="leave-sheet">
      {student.pickup_people.length === 0 ? (
        <Notice kind="warn">{tf('flow.no_pickup')}</Notice>
      ) : (
        <CheckList value={pickup === null ? [] : [String(pickup)]} onChange={(v) => setPickup(v[0] ? Number(v[0]) : null)}>
          {student.pickup_people.map((p) => (
            <CheckList.Item
              key={p.id}
              value={String(p.id)}
              description={
                <span className="m-call-line">
                  {p.mobile}
                  <CallButton target={{ student_id: student.id, pickup_person_id: p.id }} name={p.name} mobile={p.mobile} />
                </span>
              }
            >
              {p.name}（{p.relation}）
            </CheckList.Item>
          ))}
        </CheckList>
      )}
      <Button
        block
        color="primary"
        disabled={pickup === null}
        loading={busy}
        style={{ marginTop: 12 }}
        data-testid="leave-confirm"
        onClick={async () => {
          if (pickup === null) return;
          setBusy(true);
          try {
            await onLeave(pickup);
          } finally {
            setBusy(false);
          }
        }}
      >
        {tp('tp.leave_confirm')}
      </Button>
      <div className="m-sheet-sub">{tp('tp.leave_or_scan')}</div>
      <Suspense fallback={null}>
        <ScanPanel studentsFor={() => [{ id: student.id, name: student.name }]} onDone={onScanned} autoStart={false} />
      </Suspense>
    </Sheet>
  );
}

/** 家长消息 (issue 40): the children's conversations, the unread messages as a badge. */
function ChatsEntry() {
  const c = conversationsStrings.use();
  const navigate = useNavigate();
  const unread = useUnread().data?.unread ?? 0;
  return (
    <Button onClick={() => navigate('/m/teacher_chats')} data-testid="open-chats">
      <MessageOutline /> {c('entry.staff')}
      {unread > 0 && <Badge content={unread > 99 ? '99+' : unread} style={{ marginLeft: 6 }} data-testid="open-chats-unread" />}
    </Button>
  );
}

/**
 * 今日 on the teacher's phone: today's flow for the students they are responsible for (a head teacher: their class),
 * filtered by state, one or many selected, a step tapped in the bar above the tab bar. Buttons follow the shared state
 * machine (greyed with the reason); taps made offline wait in a queue and go out when the network is back; the list
 * refreshes every 30 s. A child's 评语 opens as a bottom sheet; the pick-up scan has its own page.
 */
export default function TeacherToday() {
  const tf = flowStrings.use();
  const tp = teacherPhoneStrings.use();
  const rs = reportsStrings.use();
  const tz = useSchoolZone();
  const navigate = useNavigate();
  const [filter, setFilter] = useState<Filter>('all');
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [leaving, setLeaving] = useState<FlowBoardStudent | null>(null);
  const [commenting, setCommenting] = useState<FlowBoardStudent | null>(null);
  const q = useQuery({ queryKey: queryKey('flowBoard'), queryFn: () => early('flowBoard', () => get('flowBoard')), refetchInterval: 30_000 });
  const { refetch } = q;
  const reload = useCallback(() => refetch(), [refetch]);
  // departures verified offline on this phone go out when the page opens and when the network is back
  useQueuedPickups(reload);
  const pending = useFlowQueue(reload);

  const students = useMemo(() => q.data?.students ?? [], [q.data]);
  const shown = students.filter((s) => filter === 'all' || boardState(s) === filter);
  const chosen = students.filter((s) => selected.has(s.id));
  const counts = students.reduce<Record<string, number>>((acc, s) => ({ ...acc, [boardState(s)]: (acc[boardState(s)] ?? 0) + 1 }), {});
  const runner = useStepRunner(chosen, async () => {
    setSelected(new Set());
    await q.refetch();
  });
  const toggle = (id: number) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const allShown = shown.length > 0 && shown.every((s) => selected.has(s.id));

  return (
    <PhonePage onRefresh={() => q.refetch()}>
      <QueryView query={q} rows={8}>
        {(d) => (
          <>
            <PendingNotice pending={pending} />
            <div className="m-entry">
              <Button onClick={() => navigate('/m/teacher_pickup')} data-testid="open-pickup-scan">
                <ScanningOutline /> {tp('tp.scan_entry')}
              </Button>
              <Button onClick={() => navigate('/m/teacher_comments')}>
                <EditSOutline /> {tp('tp.comments_entry')}
              </Button>
            </div>
            <div className="m-entry">
              <ChatsEntry />
            </div>
            <div className="m-chips" role="group" aria-label={tp('tp.filter')}>
              {FILTERS.map((f) => (
                <button
                  key={f}
                  type="button"
                  className={filter === f ? 'm-chip m-chip-on' : 'm-chip'}
                  aria-pressed={filter === f}
                  data-filter={f}
                  onClick={() => setFilter(f)}
                >
                  {tf(`flow.state_${f}` as FlowKey)} {f === 'all' ? students.length : (counts[f] ?? 0)}
                </button>
              ))}
            </div>
            <div className="m-select-bar">
              <span>
                {d.day} · {tf('flow.selected', { n: selected.size })}
              </span>
              {shown.length > 0 && (
                <Button
                  fill="outline"
                  color="primary"
                  onClick={() => setSelected(allShown ? new Set() : new Set(shown.map((s) => s.id)))}
                  data-testid="select-all"
                >
                  {allShown ? tp('tp.clear') : tp('tp.select_shown', { n: shown.length })}
                </Button>
              )}
            </div>
            {shown.length === 0 ? (
              <PhoneEmpty description={tf('flow.none')} />
            ) : (
              <ul className="flow-list">
                {shown.map((s) => (
                  <SelectRow
                    key={s.id}
                    on={selected.has(s.id)}
                    onToggle={() => toggle(s.id)}
                    testId="flow-row"
                    side={
                      <Button onClick={() => setCommenting(s)} data-testid="comment-open-today" aria-label={`${rs('write')} ${s.name}`}>
                        {rs('write')}
                      </Button>
                    }
                  >
                    <div>
                      <strong>{s.name}</strong>
                      <StateTag state={boardState(s)} />
                      {s.needs_shuttle && <Tag fill="outline">{tf('flow.tag_shuttle')}</Tag>}
                      {s.allergies && <Tag color="danger">{s.allergies}</Tag>}
                      {s.contract_units_left !== null && s.contract_units_left <= LOW_UNITS_BADGE && (
                        <Tag color="warning">{tf('units_left', { n: s.contract_units_left })}</Tag>
                      )}
                    </div>
                    <div className="flow-times">{timesOf(s, tf, tz)}</div>
                  </SelectRow>
                ))}
              </ul>
            )}
            <StepActions
              steps={STEPS}
              runner={runner}
              chosen={chosen.length}
              onTap={(cmd, able) => {
                if (cmd !== 'leave') return false;
                setLeaving(able[0]);
                return true;
              }}
            />
            {leaving && (
              <LeaveSheet
                student={leaving}
                onClose={() => setLeaving(null)}
                onLeave={async (by) => {
                  if (await runner.run('leave', { picked_up_by: by })) setLeaving(null);
                }}
                onScanned={() => {
                  setLeaving(null);
                  setSelected(new Set());
                  void q.refetch();
                }}
              />
            )}
            {commenting && (
              <Suspense fallback={null}>
                <CommentSheet studentId={commenting.id} studentName={commenting.name} day={d.day} onClose={() => setCommenting(null)} />
              </Suspense>
            )}
          </>
        )}
      </QueryView>
    </PhonePage>
  );
}
