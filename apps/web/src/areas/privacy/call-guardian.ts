import { isMaskedMobile, type CallGuardianInput } from '@wantuo/shared';
import { useAction } from '../../api/action';
import { defineStrings } from '../../i18n/strings';
import { openTel, telHref } from '../../lib/tel';

/**
 * 拨打 a guardian or a pick-up person (issue 37 least access), without a UI library: the teacher's phone pages and the
 * consoles draw their own button. A whole mobile is a plain tel: link; a masked one (138****0001: the caller is not on
 * duty for the child today) is asked of callGuardian, which gives the whole number once and logs the call, and the
 * dialler then opens with it.
 */
export const callStrings = defineStrings({
  'call.button': { zh: '拨打', en: 'Call' },
  'call.label': { zh: '拨打 {name}', en: 'Call {name}' },
});

/** Whom to call: one guardian (their user id) or one pick-up person of the child. */
export type CallTarget = CallGuardianInput;

/** The whole mobile as it is shown, for a plain tel: link; null when it is masked and has to be asked for. */
export const plainTel = (mobile: string): string | null => (isMaskedMobile(mobile) ? null : telHref(mobile));

/** The call of a masked mobile: callGuardian, then the dialler with the number it answers. `busy` while it is asked. */
export function useCallGuardian(target: CallTarget) {
  // a refusal (not the caller's child, no such contact) is shown by the request wrapper
  const ask = useAction('callGuardian', { onDone: (answer) => openTel(telHref(answer.mobile)) });
  const call = async (): Promise<void> => {
    await ask.run(target);
  };
  return { call, busy: ask.busy };
}
