import { Button } from 'antd';
import type { FlowBoardStudent, StepCommandType } from '@wantuo/shared';
import { flowStrings } from './strings';
import type { StepDef, StepRunner } from './use-step-runner';

export { STEPS, stepsOf, useFlowQueue, useStepRunner, useTaskSelection, type StepDef, type StepRunner } from './use-step-runner';

/**
 * The fixed bar of big step buttons at the bottom of a phone screen. A step none of the selected students may take is
 * greyed out with the reason; `onTap` replaces the plain run (e.g. leaving asks who collects first).
 */
export function StepBar({
  steps,
  runner,
  chosen,
  onTap,
  columns,
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
      className="flow-bar"
      role="toolbar"
      aria-label={tf('flow.actions')}
      style={columns ? { gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` } : undefined}
    >
      {steps.map((step) => {
        const { able, why } = runner.availability(step.cmd);
        return (
          <div key={step.cmd} className="flow-bar-item">
            <Button
              type={able.length ? 'primary' : 'default'}
              size="large"
              block
              disabled={!able.length}
              loading={runner.busy === step.cmd}
              onClick={() => {
                if (!onTap?.(step.cmd, able)) void runner.run(step.cmd);
              }}
            >
              {tf(step.label)}
              {able.length > 0 && able.length < chosen ? ` ${able.length}/${chosen}` : ''}
            </Button>
            {why && chosen > 0 && <div className="flow-why">{why}</div>}
          </div>
        );
      })}
    </div>
  );
}
