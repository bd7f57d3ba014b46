import CapsuleTabs from 'antd-mobile/es/components/capsule-tabs';
import type { ParentChild } from '@wantuo/shared';

/**
 * The parent pages' child picker on a phone: one capsule per child, shown only when the guardian has more than one;
 * the choice is remembered for the other pages (useChosenChild, areas/parent/chosen-child.ts).
 */
export function PhoneChildSwitcher({
  kids,
  value,
  onChange,
}: {
  kids: readonly ParentChild[];
  value: number | undefined;
  onChange: (id: number) => void;
}) {
  if (kids.length < 2) return null;
  return (
    <div className="m-section m-child-switcher">
      <CapsuleTabs activeKey={value === undefined ? null : String(value)} onChange={(key) => onChange(Number(key))}>
        {kids.map((k) => (
          <CapsuleTabs.Tab key={String(k.id)} title={k.name} />
        ))}
      </CapsuleTabs>
    </div>
  );
}
