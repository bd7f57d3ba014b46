import { Tag } from 'antd';
import type { FlowBoardStudent } from '@wantuo/shared';
import { pickupStrings } from '../pickup/strings';

/**
 * The departure's mark (issue 27): the verified pick-up person of a scanned code, or a head teacher's manual release;
 * testids `<scope>-pickup-verified` / `<scope>-pickup-manual` (board: the live board, records: the records tab).
 */
export function PickupMark({
  verified,
  override,
  scope = 'board',
}: {
  verified: FlowBoardStudent['pickup_verified'];
  override: string | null;
  scope?: 'board' | 'records';
}) {
  const pt = pickupStrings.use();
  if (verified)
    return (
      <Tag color="green" data-testid={`${scope}-pickup-verified`} style={{ marginInlineEnd: 0 }}>
        {pt('pickup.verified', { name: verified.name, relation: verified.relation })}
        {verified.offline ? ` · ${pt('pickup.offline_mark')}` : ''}
      </Tag>
    );
  if (override !== null)
    return (
      <Tag color="orange" data-testid={`${scope}-pickup-manual`} style={{ marginInlineEnd: 0, whiteSpace: 'normal' }}>
        {pt('pickup.manual', { reason: override })}
      </Tag>
    );
  return null;
}
