import Button from 'antd-mobile/es/components/button';
import CheckList from 'antd-mobile/es/components/check-list';
import Checkbox from 'antd-mobile/es/components/checkbox';
import SearchBar from 'antd-mobile/es/components/search-bar';
import Tag from 'antd-mobile/es/components/tag';
import CloseOutline from 'antd-mobile-icons/es/CloseOutline';
import type { FlowBoardStudent, HandoverDuty, StepCommandType } from '@wantuo/shared';
import { lazy, Suspense, type KeyboardEvent, type ReactNode } from 'react';
import { flowStrings } from '../../areas/flow/strings';
import { useHandOver } from '../../areas/flow/use-hand-over';
import type { StepDef, StepRunner } from '../../areas/flow/use-step-runner';
import { flowLabel, flowMobileTag } from '../../areas/flow/flow-look';
import { PhoneEmpty, PhoneError, PhoneLoading } from '../ui/states';
import { teacherPhoneStrings } from './strings';

/** A student's state of the day as a small coloured tag. */
export function StateTag({ state }: { state: string }) {
  const tf = flowStrings.use();
  return (
    <Tag color={flowMobileTag(state)} fill="outline">
      {tf(flowLabel(state))}
    </Tag>
  );
}

/** A notice line inside a page (warning: taps waiting for the network; ok: a departure recorded; error: a refusal). */
export function Notice({ kind, children, testId }: { kind: 'warn' | 'ok' | 'error'; children: ReactNode; testId?: string }) {
  return (
    <div className={`m-notice m-notice-${kind}`} role={kind === 'error' ? 'alert' : 'status'} data-testid={testId}>
      {children}
    </div>
  );
}

/** The offline queue's count: taps made without a network, sent when it is back. */
export function PendingNotice({ pending }: { pending: number }) {
  const tf = flowStrings.use();
  if (pending <= 0) return null;
  return (
    <Notice kind="warn" testId="flow-pending">
      {tf('flow.pending_hint', { n: pending })}
    </Notice>
  );
}

/** A row to select (tap anywhere on it; Space / Enter from a keyboard): the checkbox shows it, `side` holds its buttons. */
export function SelectRow({
  on,
  onToggle,
  children,
  side,
  testId,
}: {
  on: boolean;
  onToggle: () => void;
  children: ReactNode;
  side?: ReactNode;
  testId?: string;
}) {
  const key = (e: KeyboardEvent) => {
    if (e.target !== e.currentTarget) return;
    if (e.key === ' ' || e.key === 'Enter') {
      e.preventDefault();
      onToggle();
    }
  };
  return (
    <li
      className={on ? 'flow-row flow-row-on' : 'flow-row'}
      role="checkbox"
      aria-checked={on}
      tabIndex={0}
      onClick={onToggle}
      onKeyDown={key}
      data-testid={testId}
    >
      <Checkbox checked={on} aria-hidden tabIndex={-1} />
      <div className="flow-row-main">{children}</div>
      {side && (
        // the row's buttons act on their own, not as a tap on the row
        <div className="flow-row-side" onClick={(e) => e.stopPropagation()}>
          {side}
        </div>
      )}
    </li>
  );
}

/**
 * The step buttons in the sticky bar above the tab bar: a step none of the selected may take is greyed out with the
 * reason (the shared state machine); a count shows when only some may. `onTap` replaces the plain run (leaving asks
 * who collects first).
 */
export function StepActions({
  steps,
  runner,
  chosen,
  onTap,
  columns = 3,
}: {
  steps: StepDef[];
  runner: StepRunner;
  chosen: number;
  onTap?: (cmd: StepCommandType, able: FlowBoardStudent[]) => boolean;
  columns?: number;
}) {
  const tf = flowStrings.use();
  return (
    <div
      className="m-actions m-steps"
      role="toolbar"
      aria-label={tf('flow.actions')}
      style={{ gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` }}
    >
      {steps.map((step) => {
        const { able, why } = runner.availability(step.cmd);
        return (
          <div key={step.cmd}>
            <Button
              color={able.length ? 'primary' : 'default'}
              disabled={!able.length}
              loading={runner.busy === step.cmd}
              data-step={step.cmd}
              onClick={() => {
                if (!onTap?.(step.cmd, able)) void runner.run(step.cmd);
              }}
            >
              {tf(step.label)}
              {able.length > 0 && able.length < chosen ? ` ${able.length}/${chosen}` : ''}
            </Button>
            {why && chosen > 0 && (
              <div className="m-step-why" title={why}>
                {why}
              </div>
            )}
          </div>
        );
      })}
    </div>
  );
}

/** A bottom sheet with a title and a close button (the phone's dialog). */
/** antd-mobile's Popup (with its spring and gesture code, ~15 KB) loads when a sheet first opens, not with the page. */
const Popup = lazy(() => import('antd-mobile/es/components/popup'));

export function Sheet({
  open,
  title,
  onClose,
  children,
  testId,
}: {
  open: boolean;
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
  testId?: string;
}) {
  const tp = teacherPhoneStrings.use();
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <Popup visible={open} onMaskClick={onClose} onClose={onClose} destroyOnClose bodyStyle={{ borderRadius: '12px 12px 0 0' }}>
        <div className="m-sheet" data-testid={testId} role="dialog" aria-label={typeof title === 'string' ? title : undefined}>
          <div className="m-sheet-head">
            <div className="m-sheet-title">{title}</div>
            <Button fill="none" aria-label={tp('tp.close')} onClick={onClose}>
              <CloseOutline fontSize={20} />
            </Button>
          </div>
          {children}
        </div>
      </Popup>
    </Suspense>
  );
}

/** 转交给…: one student's pick-up or tutoring of the day handed to a colleague with that duty, in a bottom sheet. */
export function HandOverSheet({
  duty,
  student,
  onClose,
  onDone,
}: {
  duty: HandoverDuty;
  student: { id: number; name: string };
  onClose: () => void;
  onDone: () => void;
}) {
  const tf = flowStrings.use();
  const { query, teachers, setKeyword, chosen, setChosen, busy, submit } = useHandOver(duty, student, onDone);
  return (
    <Sheet
      open
      onClose={onClose}
      testId="handover-sheet"
      title={tf(duty === 'shuttle' ? 'handover.title_shuttle' : 'handover.title_tutor', { name: student.name })}
    >
      <div className="m-state-desc" style={{ textAlign: 'left' }}>
        {tf('handover.hint')}
      </div>
      <SearchBar placeholder={tf('handover.search')} onSearch={(v) => setKeyword(v.trim())} onClear={() => setKeyword('')} />
      {query.isPending ? (
        <PhoneLoading rows={3} />
      ) : query.data === undefined ? (
        <PhoneError error={query.error} onRetry={() => void query.refetch()} />
      ) : teachers.length === 0 ? (
        <PhoneEmpty description={tf('handover.empty')} />
      ) : (
        <CheckList value={chosen === null ? [] : [String(chosen)]} onChange={(v) => setChosen(v[0] ? Number(v[0]) : null)}>
          {teachers.map((x) => (
            <CheckList.Item key={x.id} value={String(x.id)} description={x.nickname && x.nickname !== x.name ? x.nickname : undefined}>
              {x.name}
            </CheckList.Item>
          ))}
        </CheckList>
      )}
      <Button
        block
        color="primary"
        disabled={chosen === null}
        loading={busy}
        style={{ marginTop: 12 }}
        onClick={() => void submit().then((ok) => ok && onClose())}
      >
        {tf('handover.confirm')}
      </Button>
    </Sheet>
  );
}
