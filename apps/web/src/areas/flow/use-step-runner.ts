import { flowText, refusalOf, Role, type FlowBoardStudent, type FlowRefusal, type GetAction, type StepCommandType } from '@wantuo/shared';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { feedback } from '../../api/feedback';
import { get } from '../../api/http';
import { flushQueue, onQueueChange, queued, sendStep, type StepAction, type StepResult } from '../../lib/flow-queue';
import { newEventId } from '../../lib/request-id';
import { usePreferences } from '../../stores/preferences';
import { useSession } from '../../stores/session';
import { dayOf } from './day-state';
import { useFlowLive } from './use-flow-live';
import { flowStrings, type FlowKey } from './strings';

/*
 * The teacher's step logic without a UI kit: the steps, the offline queue's count, the step runner (the shared state
 * machine, a fresh event id per tap, results reported by name) and a task list's selection. The desktop's StepBar
 * (step-runner.tsx, antd) and the phone's pages (src/phone/teacher) both use it.
 */

export interface StepDef {
  cmd: StepCommandType;
  action: StepAction;
  label: FlowKey;
}

/** The six steps of a day, in order, with their actions and button labels. */
export const STEPS: StepDef[] = [
  { cmd: 'shuttle', action: 'shuttleStudent', label: 'flow.btn_shuttle' },
  { cmd: 'enter', action: 'studentEnter', label: 'flow.btn_enter' },
  { cmd: 'dinner', action: 'teacherStudentDinner', label: 'flow.btn_dinner' },
  { cmd: 'startTutor', action: 'teacherStudentStartTutor', label: 'flow.btn_start_tutor' },
  { cmd: 'endTutor', action: 'teacherStudentEndTutor', label: 'flow.btn_end_tutor' },
  { cmd: 'leave', action: 'studentLiyuan', label: 'flow.btn_leave' },
];

export const stepsOf = (...cmds: StepCommandType[]): StepDef[] => STEPS.filter((s) => cmds.includes(s.cmd));

/** Taps waiting for the network: their count, flushed when the network returns (then `after` runs). */
export function useFlowQueue(after: () => unknown): number {
  const [pending, setPending] = useState(queued().length);
  useEffect(() => onQueueChange(setPending), []);
  useEffect(() => {
    const online = () => void flushQueue().then((r) => (r.length ? after() : undefined));
    window.addEventListener('online', online);
    online();
    return () => window.removeEventListener('online', online);
  }, [after]);
  return pending;
}

export interface StepRunner {
  busy: StepCommandType | null;
  /** the selected students who may take the step, or why none may */
  availability: (cmd: StepCommandType) => { able: FlowBoardStudent[]; why: string | null };
  /** sends the step for those who may take it, with a new event id per tap; answers true when sent or queued */
  run: (cmd: StepCommandType, extra?: Record<string, unknown>) => Promise<boolean>;
}

/**
 * The step logic shared by the teacher's phone screens: buttons follow the shared state machine (refusalOf, the same
 * rules as the server), a tap goes through the offline queue with a fresh event id, and the per-student results are
 * reported by name.
 */
export function useStepRunner(chosen: FlowBoardStudent[], after: () => Promise<unknown>): StepRunner {
  const tf = flowStrings.use();
  const lang = usePreferences((s) => s.lang);
  const role = useSession((s) => s.user?.role) ?? Role.Teacher;
  const [busy, setBusy] = useState<StepCommandType | null>(null);
  const reasonOf = (s: FlowBoardStudent, cmd: StepCommandType): FlowRefusal | null =>
    refusalOf(dayOf(s), cmd, { role, needsShuttle: s.needs_shuttle, pickupIds: s.pickup_people.map((p) => p.id) });

  const availability = (cmd: StepCommandType) => {
    if (chosen.length === 0) return { able: [], why: tf('flow.select_first') };
    if (cmd === 'leave' && chosen.length > 1) return { able: [], why: tf('flow.leave_one') };
    const able = chosen.filter((s) => !reasonOf(s, cmd));
    const first = chosen.find((s) => reasonOf(s, cmd));
    return { able, why: able.length ? null : first ? `${first.name}：${flowText(lang, reasonOf(first, cmd)!)}` : null };
  };

  const report = (results: StepResult[] | null) => {
    if (results === null) {
      feedback().message.info(tf('flow.queued'));
      return;
    }
    const ok = results.filter((r) => r.ok).length;
    const failed = results.filter((r) => !r.ok);
    if (failed.length === 0) feedback().message.success(tf('flow.done', { n: ok }));
    else
      feedback().notification.info({
        title: tf('flow.partly', { ok, failed: failed.length }),
        description: failed.map((r) => `${chosen.find((s) => s.id === r.student_id)?.name ?? r.student_id}：${r.error ?? ''}`).join('\n'),
      });
  };

  const run = async (cmd: StepCommandType, extra: Record<string, unknown> = {}) => {
    const step = STEPS.find((s) => s.cmd === cmd)!;
    const { able } = availability(cmd);
    if (!able.length) return false;
    setBusy(cmd);
    try {
      report(await sendStep(step.action, { student_ids: able.map((s) => s.id), event_id: newEventId(), ...extra }));
      await after();
      return true;
    } catch {
      // shown by the request wrapper
      return false;
    } finally {
      setBusy(null);
    }
  };

  return { busy, availability, run };
}

/**
 * A task list of the teacher's phone (shuttle, tutoring): the task query beside the day's board, both refreshed
 * on socket events and after queued taps go out, the selection and a step runner over the selected children.
 * `load` fetches the task list (`() => get(action)`), so its answer type is the action's declared one.
 */
export function useTaskSelection<T>(action: GetAction, load: () => Promise<T>) {
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const task = useQuery({ queryKey: [action], queryFn: load, refetchInterval: 30_000 });
  const board = useQuery({ queryKey: ['flowBoard'], queryFn: () => get('flowBoard'), refetchInterval: 30_000 });
  const { refetch: refetchTask } = task;
  const { refetch: refetchBoard } = board;
  const reload = useCallback(() => Promise.all([refetchTask(), refetchBoard()]), [refetchTask, refetchBoard]);
  const pending = useFlowQueue(reload);
  useFlowLive(
    () => void reload(),
    () => void reload(),
  );
  const byId = useMemo(() => new Map((board.data?.students ?? []).map((s) => [s.id, s])), [board.data]);
  const chosen = [...selected].map((id) => byId.get(id)).filter((s) => s !== undefined);
  const runner = useStepRunner(chosen, async () => {
    setSelected(new Set());
    await reload();
  });
  const toggle = (id: number) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  return {
    task,
    board,
    reload,
    pending,
    byId,
    chosen,
    runner,
    selected,
    setSelected,
    toggle,
    loading: task.isLoading || board.isLoading,
    failed: task.isError || board.isError,
  };
}
