import { useQuery } from '@tanstack/react-query';
import { Form, Input, Select, Tag } from 'antd';
import { formatFen, type ContractPackage, type ContractState, type OfflinePayment, type PackageKind } from '@wantuo/shared';
import { get } from '../../api/http';
import { contractStrings } from './strings';

export const STATE_COLOR: Record<ContractState, string> = {
  unpaid: 'gold',
  active: 'green',
  expiring: 'orange',
  expired: 'default',
  cancelled: 'red',
};

export const PACKAGES_KEY = ['contractPackage'] as const;

/** Every package of the school (the pickers and the management tab; a school has a handful). */
export function usePackages(enabled = true) {
  return useQuery({
    queryKey: PACKAGES_KEY,
    queryFn: () => get('contractPackage', { page: 1, limit: 100 }),
    enabled,
    staleTime: 30_000,
  });
}

export function StateTag({ state }: { state: ContractState }) {
  const s = contractStrings.use();
  return <Tag color={STATE_COLOR[state]}>{s(`state.${state}`)}</Tag>;
}

// what is left of a contract (antd-free: the phone's pages use it too)
export { useUnitsText } from './parent-contracts-model';

export const kindUnit = (kind: PackageKind) => `unit.${kind}` as const;

/** "5 学期 · ¥1200.00" */
export function usePackageLabel() {
  const s = contractStrings.use();
  return (p: ContractPackage) => `${p.name}（${s('pkg.length_of', { n: p.length, unit: s(kindUnit(p.kind)) })} · ¥${formatFen(p.price_fen)}）`;
}

export interface DeskPaymentValues {
  method: OfflinePayment['method'];
  receipt_no?: string;
}

export const deskPayment = (v: DeskPaymentValues): OfflinePayment => ({
  method: v.method,
  ...(v.receipt_no?.trim() ? { receipt_no: v.receipt_no.trim() } : {}),
});

/** Method and receipt number of money received at the desk, as form fields under `name`. */
export function DeskPaymentFields({ name = 'payment' }: { name?: string }) {
  const s = contractStrings.use();
  const method = Form.useWatch([name, 'method']) as DeskPaymentValues['method'] | undefined;
  return (
    <>
      <Form.Item name={[name, 'method']} label={s('pay.method')} rules={[{ required: true, message: s('required') }]}>
        <Select options={(['cash', 'bank', 'external'] as const).map((m) => ({ value: m, label: s(`method.${m}`) }))} />
      </Form.Item>
      <Form.Item
        name={[name, 'receipt_no']}
        label={s('pay.receipt')}
        rules={[{ required: method !== undefined && method !== 'cash', whitespace: true, message: s('pay.receipt_required') }, { max: 64 }]}
      >
        <Input maxLength={64} />
      </Form.Item>
    </>
  );
}
