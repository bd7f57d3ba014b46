import { Button, type ButtonProps } from 'antd';
import type { MouseEvent } from 'react';
import { useClickGuard } from '../lib/click-guard';

/** An antd Button with the spec's click guard: disabled for 2000 ms after each click. */
export function GuardedButton({ onClick, disabled, ...rest }: ButtonProps) {
  const [guarded, locked] = useClickGuard((e: MouseEvent<HTMLElement>) => onClick?.(e));
  return <Button {...rest} disabled={disabled || locked} onClick={guarded} />;
}
