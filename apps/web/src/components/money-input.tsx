import { Input, type InputProps } from 'antd';
import { sanitizeMoneyInput } from '@wantuo/shared';

/** Yuan input with the spec's rules (§5): digits and one dot, at most 2 decimals, leading dot → 0., empty → 0. */
export function MoneyInput({
  value,
  onChange,
  ...rest
}: Omit<InputProps, 'value' | 'onChange'> & { value?: string; onChange?: (v: string) => void }) {
  return <Input inputMode="decimal" prefix="¥" {...rest} value={value} onChange={(e) => onChange?.(sanitizeMoneyInput(e.target.value))} />;
}
