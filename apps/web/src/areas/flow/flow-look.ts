import type { FlowKey } from './strings';

/** A child's state of the day as the pages show it (the flow state, or on leave). */
export type ShownState = 'expected' | 'picked_up' | 'in_centre' | 'left' | 'on_leave';

/** The states in the order the pages list them. */
export const SHOWN_STATES: readonly ShownState[] = ['expected', 'picked_up', 'in_centre', 'left', 'on_leave'];

/**
 * How each state looks, declared once for the consoles and the phone: its label, antd's tag colour, antd-mobile's
 * tag colour and the colour of its figures and charts.
 */
export const FLOW_LOOK: Record<ShownState, { label: FlowKey; tag: string; mobileTag: string; hex: string }> = {
  expected: { label: 'flow.state_expected', tag: 'default', mobileTag: 'default', hex: '#8c8c8c' },
  picked_up: { label: 'flow.state_picked_up', tag: 'blue', mobileTag: 'primary', hex: '#1677ff' },
  in_centre: { label: 'flow.state_in_centre', tag: 'green', mobileTag: 'success', hex: '#52c41a' },
  left: { label: 'flow.state_left', tag: 'purple', mobileTag: '#722ed1', hex: '#722ed1' },
  on_leave: { label: 'flow.state_on_leave', tag: 'orange', mobileTag: 'warning', hex: '#fa8c16' },
};

const lookOf = (state: string) => FLOW_LOOK[state as ShownState] as (typeof FLOW_LOOK)[ShownState] | undefined;
/** antd's tag colour of a state ('default' for one it does not know). */
export const flowTag = (state: string): string => lookOf(state)?.tag ?? 'default';
/** antd-mobile's tag colour of a state. */
export const flowMobileTag = (state: string): string => lookOf(state)?.mobileTag ?? 'default';
/** The label key of a state (in flowStrings). */
export const flowLabel = (state: string): FlowKey => lookOf(state)?.label ?? (`flow.state_${state}` as FlowKey);
/** The colour of a state's figures, by state (for charts and statistics). */
export const FLOW_HEX = Object.fromEntries(SHOWN_STATES.map((s) => [s, FLOW_LOOK[s].hex])) as Record<ShownState, string>;
