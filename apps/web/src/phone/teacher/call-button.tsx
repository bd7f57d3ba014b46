import PhoneFill from 'antd-mobile-icons/es/PhoneFill';
import type { MouseEvent } from 'react';
import { callStrings, plainTel, useCallGuardian, type CallTarget } from '../../areas/privacy/call-guardian';

/**
 * 拨打 beside a mobile on the teacher's phone: a tel: link when the number is whole, else a button that asks
 * callGuardian for it (logged, issue 37) and then opens the dialler. Its tap stays its own (inside a selectable row).
 */
export function CallButton({ target, name, mobile }: { target: CallTarget; name: string; mobile: string }) {
  const s = callStrings.use();
  const { call, busy } = useCallGuardian(target);
  const tel = plainTel(mobile);
  const own = (e: MouseEvent) => e.stopPropagation();
  return tel ? (
    <a className="m-call" href={tel} onClick={own} aria-label={s('call.label', { name })} data-testid="call-link">
      <PhoneFill /> {s('call.button')}
    </a>
  ) : (
    <button
      type="button"
      className="m-call"
      disabled={busy}
      onClick={(e) => {
        own(e);
        void call();
      }}
      aria-label={s('call.label', { name })}
      data-testid="call-button"
    >
      <PhoneFill /> {s('call.button')}
    </button>
  );
}
