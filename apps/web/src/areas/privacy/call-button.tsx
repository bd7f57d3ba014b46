import { PhoneOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import type { MouseEvent } from 'react';
import { callStrings, plainTel, useCallGuardian, type CallTarget } from './call-guardian';

/**
 * The consoles' 拨打 beside a guardian's or pick-up person's mobile: a tel: link when the number is whole, else a button
 * that asks callGuardian for it (logged) and then opens the dialler. Its click stays its own (inside a radio or a row).
 */
export function CallButton({ target, name, mobile }: { target: CallTarget; name: string; mobile: string }) {
  const s = callStrings.use();
  const { call, busy } = useCallGuardian(target);
  const tel = plainTel(mobile);
  const own = (e: MouseEvent) => e.stopPropagation();
  return tel ? (
    <Button size="small" type="link" icon={<PhoneOutlined />} href={tel} onClick={own} aria-label={s('call.label', { name })} data-testid="call-link">
      {s('call.button')}
    </Button>
  ) : (
    <Button
      size="small"
      type="link"
      icon={<PhoneOutlined />}
      loading={busy}
      onClick={(e) => {
        own(e);
        e.preventDefault();
        void call();
      }}
      aria-label={s('call.label', { name })}
      data-testid="call-button"
    >
      {s('call.button')}
    </Button>
  );
}
